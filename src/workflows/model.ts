/**
 * @module
 * What an agent workflow is (SPEC 7): ordered states, the current one, gates on states and an event
 * log, as held in the note's ```json block. `checkWorkflow` turns untrusted JSON (a person may edit
 * the block by hand) into a `Workflow`, or a `validation_error` saying exactly what is wrong.
 */
import { NotedError } from '../common/errors.js';

export type GateStatus = 'pending' | 'approved' | 'rejected';

export const GATE_STATUSES: readonly GateStatus[] = ['pending', 'approved', 'rejected'];

/** A gate on a state: the workflow may not enter that state until the gate is approved. */
export interface Gate {
  readonly state: string;
  readonly status: GateStatus;
  /** Who decided (a client's self-declared name). */
  readonly by?: string;
  readonly reason?: string;
  /** When it was decided, ISO 8601. */
  readonly at?: string;
}

export interface WorkflowEvent {
  readonly at: string;
  readonly actor: string;
  readonly message: string;
}

export interface Workflow {
  /** The format of the block, so a later version can tell old blocks apart. */
  readonly version: 1;
  readonly id: string;
  readonly title: string;
  readonly states: readonly string[];
  readonly current: string;
  readonly gates: readonly Gate[];
  readonly events: readonly WorkflowEvent[];
}

export const MAX_STATES = 50;
export const MAX_STATE_CHARS = 100;
export const MAX_TITLE_CHARS = 300;

const KEYS = ['version', 'id', 'title', 'states', 'current', 'gates', 'events'];
const GATE_KEYS = ['state', 'status', 'by', 'reason', 'at'];
const EVENT_KEYS = ['at', 'actor', 'message'];

/**
 * Checks a state name as written by an agent or a person: one line of text, not empty.
 * Returns the name trimmed.
 */
export function checkStateName(value: unknown, where: string): string {
  if (typeof value !== 'string') throw invalid(`${where} must be a string, not ${typeOf(value)}`);
  const name = value.trim();
  if (name === '') throw invalid(`${where} is empty`);
  if (/[\r\n]/.test(name)) throw invalid(`${where} ("${name.slice(0, 40)}…") spans several lines`);
  if (name.length > MAX_STATE_CHARS) throw invalid(`${where} is longer than ${MAX_STATE_CHARS} characters`);
  return name;
}

/** Ordered, distinct state names (distinct ignoring case too, so "Review" and "review" never both exist). */
export function checkStates(value: unknown, where = '"states"'): string[] {
  if (!Array.isArray(value)) throw invalid(`${where} must be a list of state names`);
  if (value.length < 2)
    throw invalid(`${where} needs at least two states (a workflow moves from one to the next)`);
  if (value.length > MAX_STATES) throw invalid(`${where} has ${value.length} states; at most ${MAX_STATES}`);
  const states = value.map((s, i) => checkStateName(s, `${where} item ${i + 1}`));
  const seen = new Map<string, string>();
  for (const s of states) {
    const key = s.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw invalid(`${where} names the state "${s}" twice${earlier === s ? '' : ` ("${earlier}")`}`);
    seen.set(key, s);
  }
  return states;
}

/**
 * The workflow in `data` (the parsed JSON block), checked: every key known, `current` and every gate
 * one of the states, at most one gate a state, none on the first state (the workflow starts there, so
 * it could never hold anything back).
 */
export function checkWorkflow(data: unknown): Workflow {
  const obj = record(data, 'the block');
  unknownKeys(obj, KEYS, 'the block');
  if (obj.version !== 1)
    throw invalid(`"version" must be 1, not ${JSON.stringify(obj.version) ?? 'missing'}`);
  const id = text(obj.id, '"id"');
  const title = text(obj.title, '"title"');
  const states = checkStates(obj.states);
  const current = text(obj.current, '"current"');
  if (!states.includes(current)) {
    throw invalid(`"current" is "${current}", which is not one of its states (${states.join(', ')})`);
  }
  if (!Array.isArray(obj.gates)) throw invalid('"gates" must be a list');
  const gates = obj.gates.map((g, i) => checkGate(g, i, states));
  const gated = new Set<string>();
  for (const g of gates) {
    if (gated.has(g.state)) throw invalid(`"gates" has two gates on the state "${g.state}"`);
    gated.add(g.state);
  }
  if (!Array.isArray(obj.events)) throw invalid('"events" must be a list');
  const events = obj.events.map((e, i) => checkEvent(e, i));
  return { version: 1, id, title, states, current, gates, events };
}

function checkGate(value: unknown, i: number, states: readonly string[]): Gate {
  const where = `"gates" item ${i + 1}`;
  const obj = record(value, where);
  unknownKeys(obj, GATE_KEYS, where);
  const state = text(obj.state, `${where} "state"`);
  if (!states.includes(state)) {
    throw invalid(
      `${where} is on the state "${state}", which is not one of its states (${states.join(', ')})`,
    );
  }
  if (state === states[0]) {
    throw invalid(
      `${where} is on the first state "${state}", where the workflow starts; it could never hold anything back`,
    );
  }
  if (!GATE_STATUSES.includes(obj.status as GateStatus)) {
    throw invalid(
      `${where} has the status ${JSON.stringify(obj.status) ?? 'missing'}; it must be pending, approved or rejected`,
    );
  }
  return {
    state,
    status: obj.status as GateStatus,
    ...optionalText(obj, 'by', where),
    ...optionalText(obj, 'reason', where),
    ...optionalText(obj, 'at', where),
  };
}

function checkEvent(value: unknown, i: number): WorkflowEvent {
  const where = `"events" item ${i + 1}`;
  const obj = record(value, where);
  unknownKeys(obj, EVENT_KEYS, where);
  return {
    at: text(obj.at, `${where} "at"`),
    actor: text(obj.actor, `${where} "actor"`),
    message: typeof obj.message === 'string' ? obj.message : text(obj.message, `${where} "message"`),
  };
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${where} must be a JSON object, not ${typeOf(value)}`);
  }
  return value as Record<string, unknown>;
}

function unknownKeys(obj: Record<string, unknown>, known: readonly string[], where: string): void {
  const extra = Object.keys(obj).filter((k) => !known.includes(k));
  if (extra.length > 0) {
    throw invalid(
      `${where} has the unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')} (known: ${known.join(', ')})`,
    );
  }
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`${where} must be a non-empty string, not ${typeOf(value)}`);
  }
  return value;
}

function optionalText(obj: Record<string, unknown>, key: string, where: string): Record<string, string> {
  const value = obj[key];
  if (value === undefined) return {};
  if (typeof value !== 'string') throw invalid(`${where} "${key}" must be a string, not ${typeOf(value)}`);
  return { [key]: value };
}

function typeOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A problem with the workflow or the request, as the `validation_error` the agent sees. */
export function invalid(problem: string, details: Record<string, unknown> = {}): NotedError {
  return new NotedError('validation_error', problem, details);
}

/**
 * @module
 * The vault's `prompts/` notes as MCP prompts (SPEC 9.1): prompts/list, prompts/get, and
 * `notifications/prompts/list_changed` when a prompt note is added, changed or removed, or the policy
 * shows or hides one.
 *
 * Why not McpServer#registerPrompt: prompts come and go with files, so they are read afresh on every
 * request rather than registered once; a registry would have to be kept in step with the folder.
 *
 * Change detection: the gate gives a fingerprint of the visible prompt notes (names, sizes, times —
 * no file is read). It is taken on every prompts request, and once a second on a timer while a
 * client is connected; when it differs from the one this client last saw, list_changed is sent.
 * prompts/list itself only records it (the client is getting the new list at that moment).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';
import { isNotedError } from '../common/errors.js';
import { BUILTIN_PROMPTS, type BuiltinPrompt } from './builtin-prompts.js';
import { type LiveMode, whenLive } from './live.js';
import { buildPrompts, fillPrompt, promptArguments, type VaultPrompt } from './prompt-notes.js';
import { invalidParams, runRequest } from './protocol-errors.js';

/** How often a connected client's prompt list is checked for changes made outside the server. */
export const PROMPT_POLL_MS = 1000;

export interface PromptOptions {
  /** Milliseconds between checks for changed prompt notes (default 1000; 0 turns the timer off). */
  readonly pollMs?: number;
}

/** Checks for changed prompts while the connection is live (live.ts). */

export function registerPrompts(
  server: McpServer,
  access: VaultAccess,
  session: AgentSession,
  options: PromptOptions = {},
  live: LiveMode = 'initialized',
): void {
  server.server.registerCapabilities({ prompts: { listChanged: true } });
  const watch = new PromptWatch(server, access, session);

  server.server.setRequestHandler('prompts/list', () =>
    runRequest(() => {
      const { prompts } = watch.load(false);
      const taken = new Set(prompts.map((p) => p.name));
      return {
        prompts: [
          ...prompts.map((p) => ({
            name: p.name,
            title: p.title,
            description: p.description,
            arguments: promptArguments(p),
          })),
          // SPEC 17.6: the ready-made prompts, each unless the vault defines one of that name.
          ...BUILTIN_PROMPTS.filter((b) => !taken.has(b.name)).map((b) => ({
            name: b.name,
            title: b.title,
            description: b.description,
            arguments: [...b.arguments],
          })),
        ],
      };
    }),
  );

  server.server.setRequestHandler('prompts/get', (request) =>
    runRequest(() => {
      const { prompts, today } = watch.load(true);
      const prompt = prompts.find((p) => p.name === request.params.name);
      const builtin =
        prompt === undefined ? BUILTIN_PROMPTS.find((b) => b.name === request.params.name) : undefined;
      if (builtin !== undefined)
        return builtinMessage(builtin, request.params.arguments ?? {}, today, access, session);
      if (prompt === undefined) {
        const taken = new Set(prompts.map((p) => p.name));
        const names = [...taken, ...BUILTIN_PROMPTS.map((b) => b.name).filter((n) => !taken.has(n))];
        throw invalidParams(`No prompt named "${request.params.name}". The prompts: ${names.join(', ')}.`, {
          name: request.params.name,
        });
      }
      return promptMessage(prompt, request.params.arguments ?? {}, today, access, session);
    }),
  );

  const pollMs = options.pollMs ?? PROMPT_POLL_MS;
  // A stateless request never goes live, so it never starts a timer.
  if (pollMs > 0) whenLive(server, live, () => watch.start(pollMs));
}

/** Tracks the fingerprint this client last saw, and tells it when the prompts change. */
class PromptWatch {
  private seen: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly access: VaultAccess,
    private readonly session: AgentSession,
  ) {}

  /** The prompts as they are now; `notify` tells the client when they differ from what it last saw. */
  load(notify: boolean): { prompts: VaultPrompt[]; today: string } {
    let loaded: ReturnType<VaultAccess['promptNotes']>;
    try {
      loaded = this.access.promptNotes(this.session);
    } catch (err) {
      if (isNotedError(err)) this.saw(errorMark(err.message), notify);
      throw err;
    }
    this.saw(loaded.fingerprint, notify);
    return { prompts: buildPrompts(loaded.notes), today: loaded.today };
  }

  /** Starts checking; returns how to stop. */
  start(pollMs: number): () => void {
    if (this.timer === undefined) {
      this.saw(this.fingerprint(), false);
      this.timer = setInterval(() => this.check(), pollMs);
      // The timer never keeps the process alive on its own.
      this.timer.unref();
    }
    return () => {
      clearInterval(this.timer);
      this.timer = undefined;
    };
  }

  private check(): void {
    if (!this.server.isConnected()) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.saw(this.fingerprint(), true);
  }

  private saw(fingerprint: string, notify: boolean): void {
    if (fingerprint === this.seen) return;
    // The first fingerprint is the baseline: nothing has changed for this client yet.
    const first = this.seen === undefined;
    this.seen = fingerprint;
    if (notify && !first) this.server.sendPromptListChanged();
  }

  private fingerprint(): string {
    try {
      return this.access.promptFingerprint(this.session);
    } catch (err) {
      // A broken policy closes the vault: the list becomes an error, which is a change too.
      if (isNotedError(err)) return errorMark(err.message);
      throw err;
    }
  }
}

function errorMark(message: string): string {
  return `error: ${message}`;
}

/** Names a meeting template may have, looked up like any note name (the first the agent may see). */
const MEETING_TEMPLATES = ['Templates/Meeting', 'templates/meeting', 'Meeting template', 'Meeting Template'];

/** prompts/get of a built-in prompt: its required arguments checked, its text made for today. */
function builtinMessage(
  prompt: BuiltinPrompt,
  args: Record<string, string>,
  today: string,
  access: VaultAccess,
  session: AgentSession,
) {
  const given: Record<string, string> = {};
  for (const a of prompt.arguments) {
    const value = args[a.name];
    if (typeof value === 'string' && value.trim() !== '') given[a.name] = value.trim();
    else if (a.required) {
      throw invalidParams(`The prompt "${prompt.name}" needs the argument ${a.name}: ${a.description}.`, {
        argument: a.name,
      });
    }
  }
  let template: string | null = null;
  if (prompt.name === 'new-meeting-note') {
    for (const candidate of MEETING_TEMPLATES) {
      try {
        template = access.promptNoteText(session, candidate).name;
        break;
      } catch (err) {
        if (!isNotedError(err)) throw err;
      }
    }
  }
  return {
    description: prompt.description,
    messages: [
      {
        role: 'user' as const,
        content: { type: 'text' as const, text: prompt.render(given, today, template) },
      },
    ],
  };
}

/** prompts/get: one user message, the template filled in; a missing required argument is refused. */
function promptMessage(
  prompt: VaultPrompt,
  args: Record<string, string>,
  date: string,
  access: VaultAccess,
  session: AgentSession,
) {
  const given = (key: 'selection' | 'note') => {
    const value = args[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const offered = new Set(promptArguments(prompt).map((a) => a.name));
  const selection = offered.has('selection') ? given('selection') : undefined;
  const noteName = offered.has('note') ? given('note') : undefined;
  if (prompt.scope === 'selection' && offered.has('selection') && selection === undefined) {
    throw invalidParams(
      `The prompt "${prompt.name}" works on a selection: pass the argument selection (the selected text).`,
      { argument: 'selection' },
    );
  }
  if (prompt.scope === 'note' && offered.has('note') && noteName === undefined) {
    throw invalidParams(`The prompt "${prompt.name}" works on a note: pass the argument note (its path).`, {
      argument: 'note',
    });
  }
  if (prompt.scope === 'text' && offered.size > 0 && selection === undefined && noteName === undefined) {
    throw invalidParams(
      `The prompt "${prompt.name}" needs a text to work on: pass the argument selection, or note (a note's path).`,
      { argument: 'selection' },
    );
  }
  const note = noteName === undefined ? undefined : access.promptNoteText(session, noteName);
  const text = fillPrompt(prompt, {
    date,
    ...(selection === undefined ? {} : { selection }),
    ...(note === undefined ? {} : { noteText: note.text }),
  });
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  };
}

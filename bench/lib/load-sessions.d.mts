/** Types of load-sessions.mjs, for the TypeScript test that shares it. */
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const STATELESS_REVISION: string;
export const MB: number;

export interface LoadClient {
  readonly index: number;
  readonly name: string;
  readonly era: 'session' | 'stateless';
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
}

export interface Survey {
  readonly names: string[];
  readonly folders: string[];
  readonly tags: string[];
  readonly hot: string[];
}

export interface OwnNote {
  readonly name: string;
  readonly n: number;
  etag: string;
  previousEtag: string | null;
  counter: number;
}

export interface PlannedCall {
  readonly key: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly expect: 'ok' | 'not_found' | 'conflict';
  readonly after?: (structured: Record<string, unknown>) => void;
}

export interface Workload {
  readonly own: OwnNote[];
  next(): PlannedCall;
}

export interface Tally {
  sent: number;
  answered: number;
  ok: number;
  expectedErrors: number;
  unexpected: number;
  transportErrors: number;
  invalid: number;
  failures: string[];
  latency: Map<string, number[]>;
  byClient: Map<string, number>;
  ms: number;
}

export interface LatencyRow {
  readonly key: string;
  readonly n: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

export function isStatelessClient(index: number, sessions: number, stateless: number): boolean;
export function connectClients(options: {
  url: string;
  token: string;
  sessions: number;
  stateless?: number;
  prefix?: string;
}): Promise<LoadClient[]>;
export function closeClients(clients: readonly LoadClient[]): Promise<string[]>;
export function surveyVault(
  client: Client,
  options?: { hot?: string[]; indexWaitMs?: number },
): Promise<Survey>;
export function createWorkload(options: {
  survey: Survey;
  seed: number;
  client: string;
  folder?: string;
}): Workload;
export function emptyTally(): Tally;
export function runRound(options: {
  clients: readonly LoadClient[];
  workloads: readonly Workload[];
  durationMs: number;
  callTimeoutMs?: number;
  check?: (raw: Awaited<ReturnType<Client['callTool']>>) => void;
}): Promise<Tally>;
export function latencyTable(tally: Tally): LatencyRow[];
export function mergeTallies(a: Tally, b: Tally): Tally;
export function formatLatency(rows: readonly LatencyRow[]): string[];
export function sampleMemory<T>(read: () => T | null, everyMs?: number): { stop(): T[] };

/** Types of concurrency-run.mjs, for the TypeScript test that shares it. */

/** One server as the run uses it. */
export interface ConcurrencyServer {
  readonly name: string;
  call(
    tool: string,
    args?: Record<string, unknown>,
    // biome-ignore lint/suspicious/noExplicitAny: structured results are read field by field
  ): Promise<{ structured: Record<string, any>; isError: boolean }>;
  close(): Promise<void>;
  stderr?(): string;
}

export interface ConcurrencyOptions {
  /** An empty folder: the vault. */
  readonly vault: string;
  /** The built server, for `journal verify`. */
  readonly serverPath: string;
  readonly spawn: (name: string) => Promise<ConcurrencyServer>;
  readonly servers: number;
  /** Agent workers per server. */
  readonly workers: number;
  /** Notes everyone writes. */
  readonly notes: number;
  /** Notes agents create and delete. */
  readonly scratch: number;
  readonly seed: number;
  readonly durationMs: number;
  /** The direct editor's pause between saves, [min, max] ms. */
  readonly pauseMs?: readonly [number, number];
  readonly settleLimitMs?: number;
  readonly log?: (line: string) => void;
}

export interface Problem {
  readonly kind: string;
  readonly detail: string;
}

export interface ConcurrencyFigures {
  readonly servers: number;
  readonly workersPerServer: number;
  readonly notes: number;
  readonly scratch: number;
  readonly durationMs: number;
  readonly agentCalls: number;
  readonly reads: number;
  readonly writesApplied: number;
  readonly writesByOp: Record<string, number>;
  readonly conflicts: number;
  readonly otherRefusals: Record<string, number>;
  readonly directEdits: number;
  readonly directByMode: Record<string, number>;
  /** Agent writes lost because the editor read before them and saved after them (the editor's race). */
  readonly editorOverAgent: number;
  /** Direct saves overwritten by a server write whose version check came before them. */
  readonly agentOverEditor: number;
  /** In-place saves whose bytes were lost because an agent wrote on their empty file. */
  readonly agentOverTornSave: number;
  readonly tornBases: number;
  readonly lostUpdates: number;
  readonly journalEntries: number;
  readonly journalNotApplied: number;
  readonly journalVerify: string;
  readonly indexRows: number;
  readonly indexTerms: number;
  readonly indexMismatches: number;
  readonly settleMs: (number | null)[];
  readonly questionsCompared: number;
}

export interface ConcurrencyReport {
  readonly figures: ConcurrencyFigures;
  readonly problems: {
    readonly agents: Problem[];
    readonly history: Problem[];
    readonly journal: Problem[];
    readonly index: Problem[];
    readonly servers: Problem[];
  };
  readonly races: {
    readonly editorOverAgent: { note: string; lost: number; detail: string }[];
    readonly agentOverEditor: { note: string; lost: number; torn: boolean; detail: string }[];
  };
}

export function runConcurrency(options: ConcurrencyOptions): Promise<ConcurrencyReport>;

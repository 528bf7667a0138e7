/** Types of crash-loop.mjs, for the TypeScript test that shares it. */

export interface VerifyOutcome {
  readonly ok: boolean;
  readonly entries: number;
  readonly reason?: string;
  readonly brokenAt?: unknown;
}

export interface CrashLoopOptions {
  /** The built server, `dist-mcp/index.cjs`. */
  readonly serverPath: string;
  /** An empty (or missing) folder for the vault. */
  readonly vaultDir: string;
  readonly seed: number;
  readonly kills: number;
  /** No new kill is started after this long. */
  readonly timeLimitMs: number;
  /** The journal's own verify, called after every kill. */
  readonly verifyJournal?: (journalDir: string) => VerifyOutcome;
  /** `noted-mcp journal verify` after every Nth kill and at the end (default 50). */
  readonly cliVerifyEvery?: number;
  /** A search for every version's word after every Nth kill and at the end (default 10). */
  readonly indexCheckEvery?: number;
  readonly log?: (line: string) => void;
}

export interface CrashReport {
  readonly kills: number;
  readonly startupKills: number;
  /** Kills that landed while a call was running. */
  readonly midCall: number;
  readonly idle: number;
  /** What a call cut short by a kill had done to its notes. */
  readonly outcomes: {
    readonly beforeJournal: number;
    readonly notApplied: number;
    readonly applied: number;
  };
  readonly byOp: Record<string, { kills: number; midCall: number; notApplied: number }>;
  /** `not_applied` entries the server's start-up check wrote. */
  readonly notAppliedDetected: number;
  /** `not_applied` entries a running server wrote for a write of its own that failed. */
  readonly notAppliedByServer: number;
  readonly opsCompleted: number;
  readonly approvalsRefused: number;
  /** Staged creations refused because one of the note was already waiting for review. */
  readonly stagedCreatesRefused: number;
  readonly tempFilesAfterKill: number;
  readonly tempFilesAfterRestart: number;
  /** Temporary files left under `.noted/` (blobs, staged changes, locks) at the end. */
  readonly stateTempFiles: number;
  /** Spawn to answered handshake, per restart, in ms. */
  readonly restartMs: number[];
  readonly cliVerifies: number;
  readonly indexChecks: number;
  readonly journalEntries: number;
  /** Empty when every check held. */
  readonly failures: string[];
}

export function runCrashLoop(options: CrashLoopOptions): Promise<CrashReport>;

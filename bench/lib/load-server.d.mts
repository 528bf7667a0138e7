/** Types of load-server.mjs, for the TypeScript test that shares it. */

export const TOKEN_FILE: string[];
export const MANIFEST_NAME: string;

/** bench/generate-vault.mjs, re-exported with its types for the test. */
export function generateVault(options: { notes: number; out: string; seed?: number }): {
  notes: number;
  bytes: number;
  seconds: number;
  manifest: {
    notes: number;
    seed: number;
    bytes: number;
    folders: number;
    mostLinked: string[];
    sample: string[];
  };
};

export interface ProcMemory {
  readonly rss: number | null;
  readonly peakRss: number | null;
  readonly rssAnon: number | null;
}

export interface FullGc {
  /** performance.now() in this process when the line was read. */
  readonly at: number;
  readonly isolate: string;
  readonly full: boolean;
  /** Heap used before and after the collection, bytes. */
  readonly before: number;
  readonly after: number;
}

export interface HttpServerProcess {
  readonly pid: number;
  readonly url: string;
  readonly token: string;
  stderr(): string;
  alive(): boolean;
  memory(): ProcMemory | null;
  /** CPU seconds the server has used so far (user + system, all threads). */
  cpuSeconds(): number | null;
  fullGcs(): FullGc[];
  heap(timeoutMs?: number): Promise<{ used: number; total: number }>;
  stop(graceMs?: number): Promise<number | string | null>;
}

export function procMemory(pid: number): ProcMemory | null;
export function procCpuSeconds(pid: number): number | null;
export function parseGcLine(line: string): Omit<FullGc, 'at'> | null;
export function startHttpServerProcess(options: {
  serverPath: string;
  vault: string;
  startTimeoutMs?: number;
  heapReports?: boolean;
  traceGc?: boolean;
  nodeArgs?: string[];
}): Promise<HttpServerProcess>;

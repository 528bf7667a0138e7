/**
 * @module
 * Every seed, count and time limit of the reliability suite, in one place (issue: "keep it bounded:
 * seeds, counts and time limits in one place"). `npm test` uses these; the soak runs in `bench/`
 * take larger values on their command lines.
 */

/**
 * Time limits here are hang detectors, not speed tests: a test must pass on a machine whose cores
 * other processes keep busy (one failed on a fresh clone that way). A run always does its full count
 * of kills, calls or rounds; only a run that stops making progress for this long fails.
 *
 * Crash safety: SIGKILLs per `npm test` run, the seed that picks the moments and operations, and the
 * limit (the 200 kills took 59–75 s on the idle 2-core machine, over 4 minutes at a load average of 14).
 */
export const CRASH = { seed: 20261201, kills: 200, timeLimitMs: 900_000 } as const;

/**
 * Concurrency: server processes and agent workers on each, the notes they all write (plus scratch
 * notes agents create and delete), how long they write, the direct editor's pause between saves
 * ([min, max] ms), and how long each server's index may take to catch up afterwards.
 */
export const CONCURRENCY = {
  seed: 7,
  servers: 3,
  workersPerServer: 2,
  notes: 6,
  scratch: 2,
  durationMs: 8_000,
  editorPauseMs: [2, 30],
  settleLimitMs: 60_000,
  timeLimitMs: 300_000,
} as const;

/** Hostile input: property-based runs per property, and the longest any one call may take. */
export const HOSTILE = { seed: 42, runs: 200, callLimitMs: 30_000, timeLimitMs: 600_000 } as const;

/**
 * Load over HTTP: clients (of which `stateless` speak 2026-07-28, the rest hold 2025-era sessions),
 * vault size, the seed of the vault and of every client's calls, a warm-up, the length of each of
 * the two equal rounds, and the longest one call may take before it counts as unanswered.
 */
export const LOAD = {
  seed: 1,
  sessions: 20,
  stateless: 4,
  notes: 10_000,
  warmupMs: 8_000,
  roundMs: 6_000,
  callTimeoutMs: 60_000,
  timeLimitMs: 600_000,
} as const;

/**
 * Hostile files: the notes of the vault the built server scans at start-up while `scanVanish` of them
 * are deleted or replaced by folders and dangling links (seeded by `HOSTILE.seed`).
 */
export const HOSTILE_FILES = { scanNotes: 3_000, scanVanish: 600 } as const;

/**
 * @module bench/lib/stats
 * Summary statistics for latency samples (milliseconds): nearest-rank percentiles.
 */

/** The p-th percentile (0–100) of samples by the nearest-rank method; null when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Median, p95, min, max and mean of samples in ms, rounded to 0.01 ms. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Math.round(v * 100) / 100);
  const mean = sorted.length ? sorted.reduce((s, v) => s + v, 0) / sorted.length : null;
  return {
    n: sorted.length,
    median: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    min: round(sorted[0] ?? null),
    max: round(sorted.at(-1) ?? null),
    mean: round(mean),
  };
}

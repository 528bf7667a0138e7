/**
 * @module bench/lib/cpu-steal
 * The share of CPU time the hypervisor gave to others while this machine's processes wanted it
 * ("steal" in /proc/stat). The machine has measured up to twice as slow from one hour to the next;
 * a run that reports its steal says whether its figures come from a machine that had both cores.
 */

import { readFileSync } from 'node:fs';

/** The machine's CPU time counters so far (all CPUs, in clock ticks), or null off Linux. */
export function cpuTimes() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice; guest is inside user.
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (fields.length < 8 || fields.some((v) => !Number.isFinite(v))) return null;
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7], idle: fields[3] + fields[4] };
  } catch {
    return null;
  }
}

/**
 * Between two `cpuTimes()` readings: steal as a share of the time not spent idle (what the
 * benchmark's processes could have used), and the share that was idle. Null when either is missing.
 */
export function stealBetween(before, after) {
  if (!before || !after) return null;
  const total = after.total - before.total;
  const busy = total - (after.idle - before.idle);
  if (total <= 0) return null;
  const share = (x) => Math.round(x * 1000) / 10;
  return {
    stealPct: busy > 0 ? share((after.steal - before.steal) / busy) : 0,
    idlePct: share(1 - busy / total),
  };
}

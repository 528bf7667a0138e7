/**
 * @module bench/lib/random
 * Seeded randomness for the vault generator: a mulberry32 PRNG and an O(1) Zipf sampler
 * (Vose's alias method). Same seed, same sequence, on every machine and Node version.
 */

/** Returns a function yielding floats in [0, 1) from a 32-bit seed (mulberry32). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derives an independent 32-bit seed from a base seed and a label (FNV-1a over both). */
export function deriveSeed(seed, label) {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Integer in [lo, hi] inclusive. */
export function randInt(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** One element of an array, uniformly. */
export function pick(rand, items) {
  return items[Math.floor(rand() * items.length)];
}

/**
 * Builds a sampler of ranks 0..n-1 with P(rank k) ∝ 1 / (k + 1)^s.
 * Vose's alias method: one random draw and two array reads a sample, exact probabilities.
 */
export function zipfSampler(n, s) {
  const weights = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    weights[k] = 1 / (k + 1) ** s;
    total += weights[k];
  }
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  const scaled = new Float64Array(n);
  const small = [];
  const large = [];
  for (let k = 0; k < n; k++) {
    scaled[k] = (weights[k] * n) / total;
    (scaled[k] < 1 ? small : large).push(k);
  }
  while (small.length > 0 && large.length > 0) {
    const l = small.pop();
    const g = large.pop();
    prob[l] = scaled[l];
    alias[l] = g;
    scaled[g] = scaled[g] + scaled[l] - 1;
    (scaled[g] < 1 ? small : large).push(g);
  }
  for (const k of large) prob[k] = 1;
  for (const k of small) prob[k] = 1;
  return (rand) => {
    const u = rand() * n;
    const i = u | 0;
    return u - i < prob[i] ? i : alias[i];
  };
}

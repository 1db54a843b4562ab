/** Seeded randomness for the demo generator: same seed, same data. */

export type Rng = () => number;

/** mulberry32: tiny, fast, and good enough for sample data (not for secrets). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

/** An index drawn with probability proportional to its weight. */
export function weightedIndex(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((s, w) => s + w, 0);
  let r = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0) return i;
  }
  return weights.length - 1;
}

export function weightedPick<T>(rng: Rng, items: readonly { weight: number; value: T }[]): T {
  return items[weightedIndex(
    rng,
    items.map((i) => i.weight),
  )].value;
}

/** A whole number near `mean` (Poisson-like spread, without the cost of sampling one). */
export function around(rng: Rng, mean: number): number {
  const spread = Math.sqrt(Math.max(mean, 1));
  return Math.max(0, Math.round(mean + (rng() + rng() + rng() - 1.5) * 2 * spread));
}

export function hexPairs(rng: Rng, n: number): string[] {
  return Array.from({ length: n }, () => intBetween(rng, 0, 255).toString(16).toUpperCase().padStart(2, "0"));
}

/** A small deterministic generator (mulberry32), so that a failing sequence can be replayed from its seed. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  return {
    int,
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
  };
}
export type Random = ReturnType<typeof seeded>;

/**
 * Which sequences a seeded model test runs: all `count` by default, the first N with
 * `<NAME>_SEQUENCES=N`, or one with `<NAME>_SEED=n` (to replay a failure). `complete` is whether the
 * run is the whole set, so that a coverage guard judges only that; `replaying`, whether it is one seed.
 */
export function sequenceSeeds(
  name: string,
  count: number,
): { seeds: number[]; complete: boolean; replaying: boolean } {
  const only = process.env[`${name}_SEED`];
  const sequences = Number(process.env[`${name}_SEQUENCES`] ?? count);
  const seeds = only ? [Number(only)] : Array.from({ length: sequences }, (_, index) => index + 1);
  if (seeds.some((seed) => !Number.isInteger(seed) || seed < 1)) {
    throw new Error(`${name}_SEED and ${name}_SEQUENCES must be whole numbers, not ${only ?? sequences}`);
  }
  return { seeds, complete: !only && sequences >= count, replaying: Boolean(only) };
}

/**
 * A source of numbers in [0, 1) that repeats for the same seed (mulberry32): where a decision draws at
 * random (routing's exploration and weighted splits), tests and benchmarks give this instead of
 * Math.random, so each run decides the same way.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

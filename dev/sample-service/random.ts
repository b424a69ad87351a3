/**
 * Randomness of two kinds, kept apart on purpose: data comes from a seeded generator so that a seed
 * always yields the same dataset; tokens and request ids come from the crypto module so that no two
 * datasets (even with the same seed) ever share a token.
 */
import { randomBytes } from 'node:crypto';

/** A seeded pseudo-random generator with the helpers the data generator needs. */
export class SeededRandom {
  private state: number;

  /** `stream` names an independent sequence, so that e.g. the user count does not reshuffle completions. */
  constructor(seed: number, stream: string) {
    this.state = mixSeed(seed, stream);
  }

  /** mulberry32: a uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick() from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** Folds a stream name into the seed (FNV-1a), giving each stream its own starting state. */
function mixSeed(seed: number, stream: string): number {
  let hash = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < stream.length; i++) {
    hash ^= stream.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A cryptographically random alphanumeric string (62 symbols; the tiny modulo bias is irrelevant here). */
export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return text;
}

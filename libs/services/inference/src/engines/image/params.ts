import { EngineError } from '../engine';

/** Readers for request fields: the creator validated them, these only supply defaults and bounds. */
export function num(value: unknown, fallback: number, min = -Infinity, max = Infinity): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

export function int(value: unknown, fallback: number, min = -Infinity, max = Infinity): number {
  return Math.round(num(value, fallback, min, max));
}

export function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function obj(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A required field the creator should have checked; its absence is the request's fault. */
export function required<T>(value: T | undefined, field: string): T {
  if (value === undefined || value === null || value === '') throw new EngineError(`${field} is required`);
  return value;
}

/** A small deterministic PRNG (mulberry32), so the same request gives the same bytes. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

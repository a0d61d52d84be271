// Shared helpers of the sample generator: seeded ids, digests, clocks and canonical JSON.
// Everything here is deterministic so that re-running the generator gives identical bytes.
import { createHash } from 'node:crypto';

/** One file of the samples tree: a path relative to the output folder and its exact bytes. */
export interface SampleFile {
  path: string;
  data: string | Buffer;
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of a string, or of raw bytes. */
export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** 2026-01-01T10:00:00Z: the moment every sample session starts. */
export const BASE_MS = Date.UTC(2026, 0, 1, 10, 0, 0);

/** RFC 3339 with milliseconds and `Z`, as Claude Code and Codex write it. */
export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** RFC 3339 with nanoseconds and `Z` (chrono's `Utc::now()` layout on Linux). */
export function isoNs(ms: number, subMsNanos: number): string {
  const base = new Date(ms).toISOString(); // …:SS.mmmZ
  return `${base.slice(0, -1)}${String(subMsNanos).padStart(6, '0')}Z`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Ids drawn from a SHA-256 stream over a fixed seed: they look random but never change between runs.
 * Each format gets its own seed so that editing one generator does not shift the ids of the others.
 */
export class SeededIds {
  private counter = 0;
  private monotonic = 0;

  constructor(private readonly seed: string) {}

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += sha256Hex(`${this.seed}:${this.counter++}`);
    return out.slice(0, n);
  }

  /** `n` characters of [0-9A-Za-z], like provider call ids (`toolu_01…`, `call_…`). */
  base62(n: number): string {
    const bytes = Buffer.from(this.hex(n * 2), 'hex');
    return [...bytes].map((b) => BASE62[b % 62]).join('');
  }

  /** A UUIDv4 in its dashed form. */
  uuid4(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[parseInt(h[16], 16) & 3];
    return dashed(h.join(''));
  }

  /**
   * A UUIDv7 (simple or dashed) whose first 48 bits are `ms`. The 12-bit `rand_a` field carries a counter so
   * that ids minted in the same millisecond still sort in mint order, as murmur's ids do.
   */
  uuid7(ms: number, form: 'simple' | 'dashed' = 'simple'): string {
    const time = ms.toString(16).padStart(12, '0');
    const randA = (this.monotonic++ & 0xfff).toString(16).padStart(3, '0');
    const rest = this.hex(16).split('');
    rest[0] = '89ab'[parseInt(rest[0], 16) & 3];
    const simple = `${time}7${randA}${rest.join('').slice(0, 16)}`;
    return form === 'simple' ? simple : dashed(simple);
  }
}

function dashed(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A JSON value as the generators build it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Compares two keys by Unicode code point (= UTF-8 byte order), the order serde and Python sort by. */
export function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * Compact JSON with every object's keys sorted by code point: serde_json's output for a parsed `Value`
 * (BTreeMap, no `preserve_order`), and the canonical form of lumen.md §6.2. Integers only: the generators
 * never put floats through it.
 */
export function sortedJson(value: Json): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`sortedJson: not an exact integer: ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  const keys = Object.keys(value).sort(codePointCompare);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
}

/** Deep copy of a JSON value with keys sorted (so `JSON.stringify` writes them in serde's order). */
export function sortKeysDeep<T extends Json>(value: T): T {
  return JSON.parse(sortedJson(value)) as T;
}

/** JSONL text: one compact line per value, each ending in `\n`. */
export function jsonl(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** A clock that only moves forward, in milliseconds, for laying out realistic event times. */
export class Clock {
  constructor(public ms: number) {}

  /** Advances by `delta` ms and returns the new time. */
  tick(delta: number): number {
    this.ms += delta;
    return this.ms;
  }
}

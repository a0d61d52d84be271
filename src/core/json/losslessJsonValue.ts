import { isSerdeInteger } from './serdeNumber';

/** A JSON number kept as the token text of the line. */
export class LosslessNumber {
  constructor(readonly raw: string) {}
  /** True when serde_json reads the token as a 64-bit integer (not as an f64). */
  get isInteger(): boolean {
    return isSerdeInteger(this.raw);
  }
  toString(): string {
    return this.raw;
  }
}

/** A JSON object with its members in file order; repeated keys are all kept. */
export class LosslessObject {
  readonly keys: string[] = [];
  readonly values: LosslessValue[] = [];
  /** The value of the last member named `key` (the one serde_json keeps), or undefined. */
  get(key: string): LosslessValue | undefined {
    const i = this.keys.lastIndexOf(key);
    return i < 0 ? undefined : this.values[i];
  }
}

/** A parsed JSON value with numbers kept as text. */
export type LosslessValue = null | boolean | string | LosslessNumber | LosslessObject | LosslessValue[];

/** JSON value kinds as serde_json distinguishes them (integers and floats apart). */
export type JsonKind = 'null' | 'boolean' | 'string' | 'integer' | 'float' | 'object' | 'array';

/** A syntax or range error, with the 0-based character position where it was found. */
export class LosslessJsonError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at column ${position + 1}`);
  }
}

/** Called for each top-level member, in file order (repeated keys included), with its canonical value text. */
export type MemberVisitor = (key: string, canonical: string, kind: JsonKind, hasFloat: boolean) => void;

/**
 * Like {@link MemberVisitor}, with the key given as its span in the text (between the quotes), so that no key
 * string is made; `escapedKey` is the decoded key when it held escapes (then the span is its raw text).
 */
export type MemberSpanVisitor = (keyStart: number, keyEnd: number, escapedKey: string | null, canonical: string, kind: JsonKind, hasFloat: boolean) => void;

/** serde_json's string escaping: `"`, `\` and C0 controls (short forms, else lowercase `\u00XX`), nothing else. */
export function serdeString(s: string): string {
  // JSON.stringify escapes exactly this set for well-formed strings; serde strings cannot hold lone surrogates.
  return JSON.stringify(s);
}

/** Compares two strings by their UTF-8 bytes (Rust `str` order), not by UTF-16 code units. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // A surrogate stands for a code point above U+FFFF, so it sorts after U+E000–U+FFFF in UTF-8.
      const sx = x < 0xe000;
      const sy = y < 0xe000;
      if (sx !== sy) return sx ? 1 : -1;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** `"k":v,…` sorted by UTF-8 key order; of repeated keys the last one wins, as in serde_json's map. */
export function sortedMembers(keys: string[], values: string[]): string {
  const order = keys.map((_, i) => i).sort((a, b) => compareUtf8(keys[a], keys[b]) || a - b);
  const out: string[] = [];
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    if (j + 1 < order.length && keys[order[j + 1]] === keys[i]) continue;
    out.push(`${serdeString(keys[i])}:${values[i]}`);
  }
  return out.join(',');
}

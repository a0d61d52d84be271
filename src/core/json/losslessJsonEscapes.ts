import { LosslessJsonError } from './losslessJsonValue';

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Decodes the JSON string escape at `i` (on its backslash) and returns its text and the index after it.
 * Surrogate escapes must pair up: serde_json rejects lone surrogates, since a Rust string cannot hold them.
 */
export function decodeEscape(text: string, i: number): [string, number] {
  const e = text[i + 1];
  const simple = SIMPLE[e];
  if (simple !== undefined) return [simple, i + 2];
  if (e !== 'u') throw new LosslessJsonError('invalid escape', i);
  const u = hex4(text, i + 2);
  if (u >= 0xdc00 && u <= 0xdfff) throw new LosslessJsonError('lone trailing surrogate in hex escape', i);
  if (u < 0xd800 || u > 0xdbff) return [String.fromCharCode(u), i + 6];
  if (text[i + 6] !== '\\' || text[i + 7] !== 'u') throw new LosslessJsonError('lone leading surrogate in hex escape', i);
  const low = hex4(text, i + 8);
  if (low < 0xdc00 || low > 0xdfff) throw new LosslessJsonError('lone leading surrogate in hex escape', i);
  return [String.fromCharCode(u, low), i + 12];
}

function hex4(text: string, at: number): number {
  const h = text.slice(at, at + 4);
  if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new LosslessJsonError('invalid escape', at);
  return parseInt(h, 16);
}

/**
 * The canonical texts of AgentLedger's Rust runtime (seed 003 `format_state`, `format_value`, `encode_value`,
 * `decode_value`, `hex_id`) reproduced from JSON values, so payload refs, blob names and span ids can be
 * recomputed. Rust strings are never escaped in `format_value`; that is the runtime's behaviour, kept here.
 */
import { Buffer } from 'buffer';
import { fnv1a64HexOfText, sha256Hex } from '../../digests';
import { isObj } from '../common';
import { compareCodePoints } from '../../json/pythonRawJson';

/**
 * Rust `f64` Display: shortest round-trip digits, never exponent notation (`1e21` prints all its digits,
 * `1e-7` prints `0.0000001`), `NaN`, `inf`, `-inf`, and `-0` for negative zero.
 */
export function rustF64Display(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', expText] = m;
  const exp = Number(expText);
  const digits = lead + frac;
  if (exp >= 0) {
    const intLen = exp + 1;
    return sign + (digits.length <= intLen ? digits + '0'.repeat(intLen - digits.length) : digits.slice(0, intLen) + '.' + digits.slice(intLen));
  }
  return sign + '0.' + '0'.repeat(-exp - 1) + digits;
}

/** Rust `format_value` of a JSON value. */
export function rustFormatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return rustF64Display(v);
  if (typeof v === 'string') return `"${v}"`;
  if (Array.isArray(v)) return '[' + v.map(rustFormatValue).join(',') + ']';
  if (isObj(v)) return '{' + rustFormatState(v) + '}';
  return String(v);
}

/** Rust `format_state`: `key=value` pairs, keys in byte (code point) order, joined by `,`, keys unquoted. */
export function rustFormatState(state: Record<string, unknown>): string {
  return Object.keys(state)
    .sort(compareCodePoints)
    .map((k) => `${k}=${rustFormatValue(state[k])}`)
    .join(',');
}

function hexUtf8(s: string): string {
  return Buffer.from(s, 'utf8').toString('hex');
}

/** Rust `encode_value`: the body of a Rust blob file and of snapshot rows. */
export function rustEncodeValue(v: unknown): string {
  if (v === null || v === undefined) return 'Z';
  if (v === true) return 'T';
  if (v === false) return 'F';
  if (typeof v === 'number') return `N${hexUtf8(rustF64Display(v))}:`;
  if (typeof v === 'string') return `S${hexUtf8(v)}:`;
  if (Array.isArray(v)) return `A${v.length}:` + v.map(rustEncodeValue).join('');
  if (isObj(v)) {
    const keys = Object.keys(v).sort(compareCodePoints);
    return `O${keys.length}:` + keys.map((k) => `${hexUtf8(k)}:${rustEncodeValue(v[k])}`).join('');
  }
  return 'Z';
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Result of {@link rustDecodeValue}: the value, or the reason the body does not decode. */
export type DecodeResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Rust `decode_value`: rejects trailing bytes, unknown tags, odd-length hex and invalid UTF-8, with the
 * runtime's own error texts. Works on an explicit stack so hostile nesting cannot overflow.
 */
export function rustDecodeValue(text: string): DecodeResult {
  try {
    const { value, next } = decodeAt(text, 0);
    if (next !== text.length) return { ok: false, error: 'trailing bytes in encoded value' };
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

type Open = { arr: unknown[] | null; obj: Record<string, unknown> | null; left: number; key: string | null };

/** One step of decoding: a finished scalar or empty container, or a container opened on the stack. */
function readItem(s: string, i: number, stack: Open[]): { value: unknown; next: number; opened: boolean } {
  const tag = s[i];
  if (tag === undefined) throw new Error('unexpected end of encoded value');
  if (tag === 'Z' || tag === 'T' || tag === 'F') return { value: tag === 'Z' ? null : tag === 'T', next: i + 1, opened: false };
  if (tag === 'N' || tag === 'S') {
    const [hex, after] = untilColon(s, i + 1);
    const text = hexDecode(hex);
    return { value: tag === 'S' ? text : parseRustF64(text), next: after, opened: false };
  }
  if (tag !== 'O' && tag !== 'A') throw new Error(`unknown encoded value tag: ${tag}`);
  const [countText, after] = untilColon(s, i + 1);
  if (!/^\d+$/.test(countText)) throw new Error(`invalid digit found in string: ${countText}`);
  const open: Open = { arr: tag === 'A' ? [] : null, obj: tag === 'O' ? {} : null, left: Number(countText), key: null };
  if (open.left === 0) return { value: open.arr ?? open.obj, next: after, opened: false };
  stack.push(open);
  return { value: undefined, next: after, opened: true };
}

function decodeAt(s: string, start: number): { value: unknown; next: number } {
  const stack: Open[] = [];
  let i = start;
  for (;;) {
    const top = stack[stack.length - 1];
    if (top && top.obj && top.key === null) {
      const [keyHex, after] = untilColon(s, i);
      top.key = hexDecode(keyHex);
      i = after;
    }
    const item = readItem(s, i, stack);
    i = item.next;
    if (item.opened) continue;
    let value = item.value;
    // Attach the finished value to open containers, closing those that are full.
    for (;;) {
      const t = stack[stack.length - 1];
      if (!t) return { value, next: i };
      if (t.arr) t.arr.push(value);
      else {
        t.obj![t.key!] = value;
        t.key = null;
      }
      if (--t.left > 0) break;
      stack.pop();
      value = t.arr ?? t.obj;
    }
  }
}

function untilColon(s: string, i: number): [string, number] {
  const c = s.indexOf(':', i);
  if (c < 0) throw new Error('missing encoded value delimiter');
  return [s.slice(i, c), c + 1];
}

function hexDecode(hex: string): string {
  if (hex.length % 2 !== 0) throw new Error('invalid hex string length');
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new Error('invalid hex digit');
  try {
    return utf8Strict.decode(Buffer.from(hex, 'hex'));
  } catch {
    throw new Error('invalid utf-8 in encoded value');
  }
}

function parseRustF64(text: string): number {
  const t = text.toLowerCase();
  if (t === 'nan' || t === '+nan' || t === '-nan') return NaN;
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) throw new Error('invalid float literal');
  return Number(text);
}

/** Rust `hex_id`: FNV-1a of the value, cut to `chars` and right-padded with `0`. */
export function rustHexId(value: string, chars: number): string {
  return fnv1a64HexOfText(value).slice(0, chars).padEnd(chars, '0');
}

/** Python `_hex_id`: the first `chars` hex digits of SHA-256 of the value. */
export function pythonHexId(value: string, chars: number): string {
  return sha256Hex(value).slice(0, chars);
}

/**
 * A streaming, validating JSON tokenizer over raw bytes that reports each token already in the canonical text
 * Python's `json.dumps(..., ensure_ascii=False, separators=(",", ":"))` would write for it. It exists because
 * agentledger's Python blobs are named by the SHA-256 of that canonical form, not of their (pretty) bytes, and
 * blobs can be large: nothing here holds more than one key or one number token in memory.
 *
 * It accepts exactly what Python's `json.loads` accepts (including NaN / Infinity), and rejects the rest:
 * a blob that does not parse cannot have been written by the runtime.
 */
import { Buffer } from 'buffer';

/** Receives the tokens of one JSON value, in order. */
export interface JsonEvents {
  startContainer(isObject: boolean): void;
  endContainer(): void;
  /** An object key: its decoded UTF-8 bytes (for ordering) and its canonical escaped bytes (no quotes). */
  key(decoded: Buffer, canonical: Buffer): void;
  stringBegin(): void;
  /** Canonical escaped bytes of a string value, possibly in several pieces. */
  stringBytes(canonical: Uint8Array): void;
  stringEnd(): void;
  /** A number or literal in canonical text. */
  scalar(canonical: string): void;
}

const enum S { Value, ValueOrClose, Key, KeyOrClose, Colon, After, Str, Esc, Uni, Token, Done }

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SHORT_ESCAPES: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9 };
const INT = /^-?(?:0|[1-9]\d*)$/;
const FLOAT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const MAX_TOKEN = 4096;
const MAX_DEPTH = 10_000;

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}
function isTokenByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2b || b === 0x2d || b === 0x2e;
}

/** Python's float `repr` (shortest round-trip digits; exponent form below 1e-4 and from 1e16). */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expText] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const e = Number(expText);
  if (e < -4 || e >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const point = e + 1;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Canonical text of a bare token as Python would re-serialize the parsed value, or null when invalid. */
export function canonicalScalar(token: string): string | null {
  if (token === 'true' || token === 'false' || token === 'null' || token === 'NaN' || token === 'Infinity' || token === '-Infinity') return token;
  if (INT.test(token)) return token === '-0' ? '0' : token; // Python ints are exact; -0 parses as int 0
  if (FLOAT.test(token)) return pythonFloatRepr(Number(token));
  return null;
}

/** Canonical escaped UTF-8 bytes for one code point, as Python's encoder (ensure_ascii=False) writes it. */
function escapeCodePoint(cp: number): Buffer {
  switch (cp) {
    case 0x22: return Buffer.from('\\"');
    case 0x5c: return Buffer.from('\\\\');
    case 8: return Buffer.from('\\b');
    case 12: return Buffer.from('\\f');
    case 10: return Buffer.from('\\n');
    case 13: return Buffer.from('\\r');
    case 9: return Buffer.from('\\t');
  }
  if (cp < 0x20) return Buffer.from(`\\u${cp.toString(16).padStart(4, '0')}`);
  return Buffer.from(String.fromCodePoint(cp), 'utf8');
}

/** Validating byte-level JSON tokenizer; see the file comment. */
export class JsonTokenizer {
  private state = S.Value;
  private readonly stack: boolean[] = [];
  private inKey = false;
  private keyDecoded: Buffer[] = [];
  private keyCanonical: Buffer[] = [];
  private uni = '';
  private highSurrogate = -1;
  private token = '';
  private offset = 0;
  /** First error, with the byte offset where it was found. */
  error: string | null = null;

  constructor(private readonly events: JsonEvents) {}

  /** Feeds the next bytes; returns false once the input is known to be invalid. */
  update(chunk: Uint8Array): boolean {
    let i = 0;
    while (i < chunk.length && this.error === null) {
      if (this.state === S.Str) i = this.stringRun(chunk, i);
      else this.byte(chunk[i++]);
    }
    return this.error === null;
  }

  /** Ends the input; returns the error, or null when exactly one complete JSON value was read. */
  finish(): string | null {
    if (this.error === null && this.state === S.Token) this.endToken();
    if (this.error === null && this.state !== S.Done) this.fail('unexpected end of input (truncated?)');
    return this.error;
  }

  private fail(message: string): void {
    if (this.error === null) this.error = `${message} at byte ${this.offset}`;
  }

  /** Consumes a run of plain string bytes at once; returns the next index. */
  private stringRun(chunk: Uint8Array, start: number): number {
    let i = start;
    while (i < chunk.length) {
      const b = chunk[i];
      if (b === QUOTE || b === BACKSLASH || b < 0x20) break;
      i++;
    }
    if (i > start) {
      this.offset += i - start;
      if (this.highSurrogate >= 0) {
        this.fail('lone surrogate escape');
        return i;
      }
      this.stringData(chunk.subarray(start, i), chunk.subarray(start, i));
    }
    if (i < chunk.length) this.byte(chunk[i++]);
    return i;
  }

  private stringData(decoded: Uint8Array, canonical: Uint8Array): void {
    if (this.inKey) {
      this.keyDecoded.push(Buffer.from(decoded));
      this.keyCanonical.push(Buffer.from(canonical));
    } else this.events.stringBytes(canonical);
  }

  private byte(b: number): void {
    this.offset++;
    this.dispatch(b);
  }

  private dispatch(b: number): void {
    switch (this.state) {
      case S.Str: return this.strByte(b);
      case S.Esc: return this.escByte(b);
      case S.Uni: return this.uniByte(b);
      case S.Token:
        if (isTokenByte(b)) {
          this.token += String.fromCharCode(b);
          if (this.token.length > MAX_TOKEN) this.fail('number token too long');
          return;
        }
        this.endToken();
        if (this.error === null) this.dispatch(b);
        return;
      default: return this.structural(b);
    }
  }

  private strByte(b: number): void {
    if (b === QUOTE) {
      if (this.highSurrogate >= 0) return this.fail('lone surrogate escape');
      this.endString();
    } else if (b === BACKSLASH) this.state = S.Esc;
    else this.fail('raw control character in string');
  }

  private escByte(b: number): void {
    if (b === 0x75) {
      this.state = S.Uni;
      this.uni = '';
      return;
    }
    const cp = SHORT_ESCAPES[b];
    if (cp === undefined) return this.fail('invalid escape');
    if (this.highSurrogate >= 0) return this.fail('lone surrogate escape');
    this.state = S.Str;
    this.stringData(Buffer.from(String.fromCodePoint(cp), 'utf8'), escapeCodePoint(cp));
  }

  private uniByte(b: number): void {
    const c = String.fromCharCode(b);
    if (!/[0-9a-fA-F]/.test(c)) return this.fail('invalid \\u escape');
    this.uni += c;
    if (this.uni.length < 4) return;
    this.state = S.Str;
    const unit = parseInt(this.uni, 16);
    if (this.highSurrogate >= 0) {
      if (unit < 0xdc00 || unit > 0xdfff) return this.fail('lone surrogate escape');
      const cp = 0x10000 + ((this.highSurrogate - 0xd800) << 10) + (unit - 0xdc00);
      this.highSurrogate = -1;
      return this.stringData(Buffer.from(String.fromCodePoint(cp), 'utf8'), escapeCodePoint(cp));
    }
    if (unit >= 0xd800 && unit <= 0xdbff) this.highSurrogate = unit;
    // Python decodes a lone low surrogate, but the runtime could not UTF-8-encode it to hash it.
    else if (unit >= 0xdc00 && unit <= 0xdfff) this.fail('lone surrogate escape');
    else this.stringData(Buffer.from(String.fromCodePoint(unit), 'utf8'), escapeCodePoint(unit));
  }

  private endString(): void {
    if (this.inKey) {
      this.events.key(Buffer.concat(this.keyDecoded), Buffer.concat(this.keyCanonical));
      this.keyDecoded = [];
      this.keyCanonical = [];
      this.inKey = false;
      this.state = S.Colon;
      return;
    }
    this.events.stringEnd();
    this.afterValue();
  }

  private endToken(): void {
    const canonical = canonicalScalar(this.token);
    if (canonical === null) return this.fail(`invalid token ${JSON.stringify(this.token.slice(0, 40))}`);
    this.events.scalar(canonical);
    this.afterValue();
  }

  private afterValue(): void {
    this.state = this.stack.length === 0 ? S.Done : S.After;
  }

  private structural(b: number): void {
    if (isWhitespace(b)) return;
    const st = this.state;
    if (st === S.Value || st === S.ValueOrClose) return this.valueStart(b, st === S.ValueOrClose);
    if (st === S.Key || st === S.KeyOrClose) {
      if (b === QUOTE) {
        this.inKey = true;
        this.state = S.Str;
      } else if (b === 0x7d && st === S.KeyOrClose) this.close(true);
      else this.fail('expected an object key');
      return;
    }
    if (st === S.Colon) {
      if (b === 0x3a) this.state = S.Value;
      else this.fail("expected ':'");
      return;
    }
    if (st === S.After) return this.afterByte(b);
    this.fail('unexpected data after the JSON value');
  }

  private valueStart(b: number, mayClose: boolean): void {
    if (b === 0x7b || b === 0x5b) {
      if (this.stack.length >= MAX_DEPTH) return this.fail('nesting too deep');
      const isObject = b === 0x7b;
      this.events.startContainer(isObject);
      this.stack.push(isObject);
      this.state = isObject ? S.KeyOrClose : S.ValueOrClose;
    } else if (b === QUOTE) {
      this.events.stringBegin();
      this.state = S.Str;
    } else if (isTokenByte(b)) {
      this.token = String.fromCharCode(b);
      this.state = S.Token;
    } else if (b === 0x5d && mayClose) this.close(false);
    else this.fail('expected a value');
  }

  private afterByte(b: number): void {
    const top = this.stack[this.stack.length - 1];
    if (b === 0x2c) this.state = top ? S.Key : S.Value;
    else if (b === 0x7d && top) this.close(true);
    else if (b === 0x5d && !top) this.close(false);
    else this.fail("expected ',' or a closing bracket");
  }

  private close(isObject: boolean): void {
    if (this.stack.pop() !== isObject) return this.fail('mismatched bracket');
    this.events.endContainer();
    this.afterValue();
  }
}

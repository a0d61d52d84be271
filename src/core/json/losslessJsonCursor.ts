import { JsonKind, LosslessJsonError, LosslessNumber, LosslessObject, LosslessValue, MemberSpanVisitor, MemberVisitor, serdeString, sortedMembers, compareUtf8 } from './losslessJsonValue';
import { decodeEscape } from './losslessJsonEscapes';
import { formatF64, isSerdeInteger, NumberRangeError, serdeParseF64 } from './serdeNumber';

/** serde_json's default nesting limit: 128 levels of remaining depth, so at most 127 open containers. */
const MAX_OPEN_CONTAINERS = 127;
const CONTROL_RE = /[\u0000-\u001f]/;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * One pass over JSON text. Strings without escapes are found with native `indexOf` and kept as slices of the
 * text (their canonical form is the text itself); only strings with escapes, or lines holding control
 * characters, take the character-by-character path.
 */
export class JsonCursor {
  pos = 0;
  /** Kind of the value the last `canonical()` call read. */
  kind: JsonKind = 'null';
  /** Set when a number that serde_json reads as f64 was met. */
  sawFloat = false;
  private depth = 0;
  private sStart = 0;
  private sEnd = 0;
  /** Decoded string when it had escapes; null when the raw text between the quotes is the value. */
  private sDecoded: string | null = null;
  private numSimple = true;
  /** Position of the next backslash at or after the last string start (Infinity: none). */
  private nextBackslash = -1;
  /** The text holds a C0 control character somewhere: strings must be checked character by character. */
  private readonly hasControl: boolean;

  /**
   * `validated`: the caller already knows the text is valid JSON (e.g. `JSON.parse` accepted it), so strings
   * hold no raw control characters and the scan for them is skipped.
   */
  constructor(private readonly text: string, validated = false) {
    this.hasControl = !validated && CONTROL_RE.test(text);
  }

  end(): void {
    this.ws();
    if (this.pos !== this.text.length) this.fail('trailing characters', this.pos);
  }

  /** Canonical text of the value at the cursor. */
  canonical(): string {
    this.ws();
    const c = this.text.charCodeAt(this.pos);
    if (c === 34) {
      this.scanString();
      this.kind = 'string';
      return this.sDecoded === null ? this.text.slice(this.sStart, this.sEnd) : serdeString(this.sDecoded);
    }
    if (c === 123) return this.canonicalObject();
    if (c === 91) return this.canonicalArray();
    if (c === 45 || isDigit(c)) return this.canonicalNumber();
    return this.literal(c);
  }

  /** Reads a top-level object member by member. */
  members(visit: MemberVisitor): void {
    this.memberSpans((start, end, escaped, v, kind, hasFloat) => visit(escaped ?? this.text.slice(start, end), v, kind, hasFloat));
  }

  /** Reads a top-level object member by member, giving keys as spans of the text (no key strings made). */
  memberSpans(visit: MemberSpanVisitor): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 123) this.fail('expected a JSON object', this.pos);
    if (this.openEmpty(125)) return;
    do {
      this.keySpan();
      const start = this.sStart + 1;
      const end = this.sEnd - 1;
      const escaped = this.sDecoded;
      this.sawFloat = false;
      const v = this.canonical();
      visit(start, end, escaped, v, this.kind, this.sawFloat);
    } while (this.next(125));
  }

  /** The value at the cursor as a tree. */
  tree(): LosslessValue {
    this.ws();
    const c = this.text.charCodeAt(this.pos);
    if (c === 34) {
      this.scanString();
      return this.decoded();
    }
    if (c === 123) {
      const o = new LosslessObject();
      if (this.openEmpty(125)) return o;
      do {
        o.keys.push(this.key());
        o.values.push(this.tree());
      } while (this.next(125));
      return o;
    }
    if (c === 91) {
      const a: LosslessValue[] = [];
      if (this.openEmpty(93)) return a;
      do a.push(this.tree());
      while (this.next(93));
      return a;
    }
    if (c === 45 || isDigit(c)) {
      const raw = this.scanNumber();
      this.numberText(raw); // refuses what serde_json refuses (out of range)
      return new LosslessNumber(raw);
    }
    const lit = this.literal(c);
    return lit === 'null' ? null : lit === 'true';
  }

  private canonicalObject(): string {
    this.kind = 'object';
    if (this.openEmpty(125)) return '{}';
    const keys: string[] = [];
    const values: string[] = [];
    let out = '{';
    let sorted = true;
    do {
      const key = this.key();
      const keyText = this.sDecoded === null ? this.text.slice(this.sStart, this.sEnd) : serdeString(key);
      if (sorted && keys.length > 0 && compareUtf8(keys[keys.length - 1], key) >= 0) sorted = false;
      const value = this.canonical();
      keys.push(key);
      values.push(value);
      out += (keys.length === 1 ? '' : ',') + keyText + ':' + value;
    } while (this.next(125));
    this.kind = 'object';
    return sorted ? out + '}' : `{${sortedMembers(keys, values)}}`;
  }

  private canonicalArray(): string {
    this.kind = 'array';
    if (this.openEmpty(93)) return '[]';
    let out = '[';
    let first = true;
    do {
      out += first ? this.canonical() : ',' + this.canonical();
      first = false;
    } while (this.next(93));
    this.kind = 'array';
    return out + ']';
  }

  private canonicalNumber(): string {
    const raw = this.scanNumber();
    if (this.numSimple && raw.length <= 18 && raw !== '-0') {
      this.kind = 'integer';
      return raw;
    }
    this.kind = isSerdeInteger(raw) ? 'integer' : 'float';
    if (this.kind === 'float') this.sawFloat = true;
    return this.numberText(raw);
  }

  private numberText(raw: string): string {
    if (isSerdeInteger(raw)) return raw;
    try {
      return formatF64(serdeParseF64(raw));
    } catch (err) {
      if (err instanceof NumberRangeError) this.fail('number out of range', this.pos - raw.length);
      throw err;
    }
  }

  /** Steps over `{` or `[`; true (and closed) when the container is empty. */
  private openEmpty(close: number): boolean {
    if (++this.depth > MAX_OPEN_CONTAINERS) this.fail('recursion limit exceeded', this.pos);
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== close) return false;
    this.pos++;
    this.depth--;
    return true;
  }

  /** After a member or element: true at `,`, false (and closed) at `close`. */
  private next(close: number): boolean {
    this.ws();
    const c = this.text.charCodeAt(this.pos++);
    if (c === 44) return true;
    if (c !== close) this.fail(close === 125 ? 'expected `,` or `}`' : 'expected `,` or `]`', this.pos - 1);
    this.depth--;
    return false;
  }

  /** Reads `"key" :` and returns the decoded key. */
  private key(): string {
    this.keySpan();
    return this.decoded();
  }

  /** Reads `"key" :`, leaving the key's span in sStart/sEnd (and its decoded text in sDecoded when escaped). */
  private keySpan(): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 34) this.fail('key must be a string', this.pos);
    this.scanString();
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 58) this.fail('expected `:`', this.pos);
    this.pos++;
  }

  private decoded(): string {
    return this.sDecoded ?? this.text.slice(this.sStart + 1, this.sEnd - 1);
  }

  private ws(): void {
    if (this.text.charCodeAt(this.pos) > 32) return; // compact JSON: nothing to skip
    this.skipSpaces();
  }

  private skipSpaces(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  private literal(c: number): string {
    const word = c === 116 ? 'true' : c === 102 ? 'false' : c === 110 ? 'null' : '';
    if (word === '' || !this.text.startsWith(word, this.pos)) this.fail('expected value', this.pos);
    this.pos += word.length;
    this.kind = word === 'null' ? 'null' : 'boolean';
    return word;
  }

  /** Scans a string at the cursor (on its opening quote). */
  private scanString(): void {
    const t = this.text;
    const start = this.pos;
    const close = t.indexOf('"', start + 1);
    if (close < 0) this.fail('EOF while parsing a string', t.length);
    if (this.nextBackslash < start) {
      const b = t.indexOf('\\', start);
      this.nextBackslash = b < 0 ? Infinity : b;
    }
    if (this.nextBackslash < close || this.hasControl) return this.scanStringSlowly(start);
    this.sStart = start;
    this.sEnd = close + 1;
    this.sDecoded = null;
    this.pos = close + 1;
  }

  /** Character by character: escapes, and control characters (which JSON forbids inside strings). */
  private scanStringSlowly(start: number): void {
    const t = this.text;
    const n = t.length;
    let out = '';
    let run = start + 1;
    let escaped = false;
    let i = start + 1;
    while (i < n) {
      const c = t.charCodeAt(i);
      if (c === 34) {
        this.sStart = start;
        this.sEnd = i + 1;
        this.sDecoded = escaped ? out + t.slice(run, i) : null;
        this.pos = i + 1;
        return;
      }
      if (c < 32) this.fail('control character (\\u0000-\\u001F) found while parsing a string', i);
      if (c !== 92) {
        i++;
        continue;
      }
      escaped = true;
      out += t.slice(run, i);
      const [s, after] = decodeEscape(t, i);
      out += s;
      i = run = after;
    }
    this.fail('EOF while parsing a string', n);
  }

  /** Scans a number token per the JSON grammar and returns its text; `numSimple` says no fraction or exponent. */
  private scanNumber(): string {
    const t = this.text;
    const start = this.pos;
    let i = start;
    if (t.charCodeAt(i) === 45) i++;
    const first = t.charCodeAt(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) while (isDigit(t.charCodeAt(++i)));
    else this.fail('invalid number', i);
    this.numSimple = true;
    if (t.charCodeAt(i) === 46) {
      this.numSimple = false;
      if (!isDigit(t.charCodeAt(++i))) this.fail('invalid number', i);
      while (isDigit(t.charCodeAt(++i)));
    }
    const e = t.charCodeAt(i);
    if (e === 101 || e === 69) {
      this.numSimple = false;
      const s = t.charCodeAt(++i);
      if (s === 43 || s === 45) i++;
      if (!isDigit(t.charCodeAt(i))) this.fail('invalid number', i);
      while (isDigit(t.charCodeAt(++i)));
    }
    if (isDigit(t.charCodeAt(i))) this.fail('invalid number', i); // a leading zero followed by digits
    this.pos = i;
    return t.slice(start, i);
  }

  private fail(message: string, at: number): never {
    throw new LosslessJsonError(message, at);
  }
}

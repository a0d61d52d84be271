/**
 * serde_json compares `Value`s with number kinds: `1` (an integer) is not `1.0` (a float). `JSON.parse` loses
 * that distinction, so proposal matching (`ensure_proposed`) parses the line again keeping each number's kind.
 */

/** A number with its kind as serde_json would read it. A class, so no JSON object can pass for one. */
export class TypedNumber {
  constructor(readonly kind: 'int' | 'float', readonly value: number) {}
}
export type Typed = null | boolean | string | TypedNumber | Typed[] | { [k: string]: Typed };

const MAX_DEPTH = 256;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class TypedParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Typed {
    const v = this.value(0);
    this.ws();
    if (this.i !== this.s.length) throw new Error('trailing data');
    return v;
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i])) this.i++;
  }

  private value(depth: number): Typed {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    for (const [lit, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.s.startsWith(lit, this.i)) {
        this.i += lit.length;
        return v;
      }
    }
    return this.number();
  }

  private object(depth: number): Typed {
    const out: { [k: string]: Typed } = Object.create(null) as { [k: string]: Typed };
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      const k = this.string();
      this.ws();
      if (this.s[this.i++] !== ':') throw new Error('expected :');
      out[k] = this.value(depth + 1);
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') throw new Error('expected , or }');
    }
  }

  private array(depth: number): Typed {
    const out: Typed[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') throw new Error('expected , or ]');
    }
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const m = STRING.exec(this.s);
    if (!m) throw new Error('bad string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private number(): TypedNumber {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m) throw new Error('bad value');
    this.i += m[0].length;
    const float = m[1] !== undefined || m[2] !== undefined || m[0] === '-0';
    return new TypedNumber(float ? 'float' : 'int', Number(m[0]));
  }
}

/** Parses JSON text keeping number kinds; null when the text is not JSON or nests too deep. */
export function parseTyped(text: string): Typed | undefined {
  try {
    return new TypedParser(text).parse();
  } catch {
    return undefined;
  }
}

function isTypedNumber(v: Typed): v is TypedNumber {
  return v instanceof TypedNumber;
}

/** serde_json `Value` equality: key order ignored, number kind significant. */
export function typedEqual(a: Typed, b: Typed): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => typedEqual(x, b[i]));
  }
  if (isTypedNumber(a) || isTypedNumber(b)) {
    return isTypedNumber(a) && isTypedNumber(b) && a.kind === b.kind && a.value === b.value;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && typedEqual(a[k], b[k]));
}

/** Converts a plain parsed value (from `JSON.parse`) to the typed form, guessing integers for whole numbers. */
export function toTyped(v: unknown): Typed {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return new TypedNumber(Number.isInteger(v) ? 'int' : 'float', v);
  if (Array.isArray(v)) return v.map(toTyped);
  if (typeof v === 'object') {
    const out: { [k: string]: Typed } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = toTyped(x);
    return out;
  }
  return null;
}

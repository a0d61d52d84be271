/**
 * Python `canonical_json` (AgentLedger `jsonutil.py`): `json.dumps(v, sort_keys=True, ensure_ascii=False,
 * separators=(",", ":"))` of JSON text that Python wrote. Reproducing it from JavaScript needs the original
 * number tokens (`460.0` must stay `460.0`, `1e-07` must stay `1e-07`), so this module parses JSON into a
 * tree that keeps each number's text.
 *
 * The Python-style room holds two readers on purpose: this one keeps number tokens as written (a payload
 * digest re-hashes what the writer printed), while `pythonCanonicalJson.ts` streams a blob's bytes and
 * re-renders numbers as `json.loads` then `json.dumps` would (a blob may be stored in another layout, e.g.
 * `1e2` for `100.0`). On text Python itself wrote both give the same bytes.
 */

/** A JSON value with number tokens kept as written. */
export type RawJson =
  | { t: 'num'; raw: string }
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'arr'; items: RawJson[] }
  | { t: 'obj'; entries: Map<string, RawJson> };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

/** Thrown for text that is not JSON; carries the character offset. */
export class RawJsonError extends Error {}

/**
 * Parses JSON text keeping number tokens. Accepts Python's `NaN`, `Infinity` and `-Infinity`, which
 * `json.dumps` writes. Duplicate keys keep the last value (as `json.loads` does). Iterative, so deep nesting
 * cannot overflow the stack.
 */
export function parseRawJson(text: string): RawJson {
  const p = new RawParser(text);
  const v = p.value();
  p.ws();
  if (p.pos !== text.length) throw new RawJsonError(`trailing text at ${p.pos}`);
  return v;
}

type Frame = { kind: 'arr'; node: { t: 'arr'; items: RawJson[] } } | { kind: 'obj'; node: { t: 'obj'; entries: Map<string, RawJson> }; key: string };

class RawParser {
  pos = 0;
  constructor(private readonly s: string) {}

  ws(): void {
    WS.lastIndex = this.pos;
    WS.exec(this.s);
    this.pos = WS.lastIndex;
  }

  /** Parses one value with an explicit stack of open containers. */
  value(): RawJson {
    const stack: Frame[] = [];
    for (;;) {
      this.ws();
      let v: RawJson | null = this.open(stack);
      if (v === null) continue; // a container was opened; read its first member
      // Close containers while their member lists end.
      for (;;) {
        const top = stack[stack.length - 1];
        if (!top) return v;
        if (top.kind === 'arr') top.node.items.push(v);
        else top.node.entries.set(top.key, v);
        this.ws();
        const c = this.s[this.pos++];
        if (c === ',') {
          if (top.kind === 'obj') top.key = this.key();
          break;
        }
        if ((c === ']' && top.kind === 'arr') || (c === '}' && top.kind === 'obj')) {
          stack.pop();
          v = top.node;
          continue;
        }
        throw new RawJsonError(`unexpected ${JSON.stringify(c ?? 'end')} at ${this.pos - 1}`);
      }
    }
  }

  /** Reads a scalar, or opens a container (returns null, or the container itself when it is empty). */
  private open(stack: Frame[]): RawJson | null {
    const c = this.s[this.pos];
    if (c === '[') {
      this.pos++;
      const node = { t: 'arr' as const, items: [] as RawJson[] };
      this.ws();
      if (this.s[this.pos] === ']') {
        this.pos++;
        return node;
      }
      stack.push({ kind: 'arr', node });
      return null;
    }
    if (c === '{') {
      this.pos++;
      const node = { t: 'obj' as const, entries: new Map<string, RawJson>() };
      this.ws();
      if (this.s[this.pos] === '}') {
        this.pos++;
        return node;
      }
      stack.push({ kind: 'obj', node, key: this.key() });
      return null;
    }
    return this.scalar();
  }

  private key(): string {
    this.ws();
    if (this.s[this.pos] !== '"') throw new RawJsonError(`expected a key at ${this.pos}`);
    const k = this.string();
    this.ws();
    if (this.s[this.pos++] !== ':') throw new RawJsonError(`expected ':' at ${this.pos - 1}`);
    return k;
  }

  private scalar(): RawJson {
    const s = this.s;
    const c = s[this.pos];
    if (c === '"') return { t: 'str', v: this.string() };
    for (const [word, node] of LITERALS) {
      if (s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return node;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(s);
    if (!m) throw new RawJsonError(`unexpected ${JSON.stringify(c ?? 'end')} at ${this.pos}`);
    this.pos += m[0].length;
    return { t: 'num', raw: m[0] };
  }

  private string(): string {
    const s = this.s;
    let end = this.pos + 1;
    for (;;) {
      const q = s.indexOf('"', end);
      if (q < 0) throw new RawJsonError('unterminated string');
      let bs = 0;
      for (let i = q - 1; s[i] === '\\'; i--) bs++;
      if (bs % 2 === 0) {
        end = q;
        break;
      }
      end = q + 1;
    }
    const lit = s.slice(this.pos, end + 1);
    this.pos = end + 1;
    // JSON.parse validates escapes and control characters exactly as the standard says.
    return JSON.parse(lit) as string;
  }
}

const LITERALS: [string, RawJson][] = [
  ['true', { t: 'bool', v: true }],
  ['false', { t: 'bool', v: false }],
  ['null', { t: 'null' }],
  ['NaN', { t: 'num', raw: 'NaN' }],
  ['Infinity', { t: 'num', raw: 'Infinity' }],
  ['-Infinity', { t: 'num', raw: '-Infinity' }],
];

/** Compares strings by Unicode code point, the order of Python's `sort_keys` (JavaScript sorts by UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** A string as Python `json.dumps(..., ensure_ascii=False)` writes it: only `"`, `\` and C0 controls are escaped. */
export function pythonJsonString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return '"' + s.replace(/[\u0000-\u001f"\\]/g, escapeChar) + '"';
}

function escapeChar(c: string): string {
  switch (c) {
    case '"': return '\\"';
    case '\\': return '\\\\';
    case '\n': return '\\n';
    case '\r': return '\\r';
    case '\t': return '\\t';
    case '\b': return '\\b';
    case '\f': return '\\f';
    default: return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  }
}

/** Python `canonical_json` of a raw value: sorted keys, no whitespace, number tokens as written. */
export function canonicalJson(v: RawJson): string {
  const out: string[] = [];
  // Iterative walk: a work list of values and literal separators.
  const work: (RawJson | string)[] = [v];
  while (work.length > 0) {
    const x = work.pop()!;
    if (typeof x === 'string') {
      out.push(x);
      continue;
    }
    switch (x.t) {
      case 'num': out.push(x.raw); break;
      case 'str': out.push(pythonJsonString(x.v)); break;
      case 'bool': out.push(x.v ? 'true' : 'false'); break;
      case 'null': out.push('null'); break;
      case 'arr': {
        const parts: (RawJson | string)[] = ['['];
        x.items.forEach((item, i) => parts.push(...(i > 0 ? [',', item] : [item])));
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
        break;
      }
      case 'obj': {
        const keys = [...x.entries.keys()].sort(compareCodePoints);
        const parts: (RawJson | string)[] = ['{'];
        keys.forEach((k, i) => parts.push((i > 0 ? ',' : '') + pythonJsonString(k) + ':', x.entries.get(k)!));
        parts.push('}');
        for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
        break;
      }
    }
  }
  return out.join('');
}

/** The member `key` of a raw object, or undefined. */
export function rawMember(v: RawJson | undefined, key: string): RawJson | undefined {
  return v && v.t === 'obj' ? v.entries.get(key) : undefined;
}

/** A raw object without some keys (e.g. a bundle without `bundle_hash`). */
export function rawWithout(v: RawJson, keys: readonly string[]): RawJson {
  if (v.t !== 'obj') return v;
  const entries = new Map(v.entries);
  for (const k of keys) entries.delete(k);
  return { t: 'obj', entries };
}

/** Converts a raw value to a plain JavaScript value (numbers become doubles). */
export function rawToValue(v: RawJson): unknown {
  switch (v.t) {
    case 'num': return Number(v.raw);
    case 'str': case 'bool': return v.v;
    case 'null': return null;
    case 'arr': return v.items.map(rawToValue);
    case 'obj': return Object.fromEntries([...v.entries].map(([k, x]) => [k, rawToValue(x)]));
  }
}

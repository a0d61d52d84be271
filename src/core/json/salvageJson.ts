/** A stretch of a damaged document that was left out: a line that does not parse, or the cut-off end. */
export interface SalvageGap {
  /** Character offset where the left-out stretch starts. */
  start: number;
  /** True when the text ends inside the value that starts here (a torn write). */
  torn: boolean;
}

/** What could be read of a damaged multi-line JSON document, and what was left out. */
export interface SalvagedJson {
  value: unknown;
  gaps: SalvageGap[];
}

/** Deeper nesting than this is not salvaged (the reader recurses once per level). */
const MAX_DEPTH = 512;

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

class GiveUp extends Error {}

/**
 * Reads what it can of a pretty-printed JSON document (`JSON.stringify(value, null, 2)`, one member or element a
 * line) that does not parse: a member or element whose line is damaged is left out and reading goes on at the next
 * line, in the same object or array; a document cut off (a torn write) keeps every member that was complete and
 * drops the one the text ends in. Returns null unless the text starts with a line holding only `{` or `[` (so JSON
 * Lines with a damaged first line stay with the line reader) or when nothing could be read.
 */
export function salvageJson(text: string): SalvagedJson | null {
  const first = /^\s*([{[])[ \t]*\r?\n/.exec(text);
  if (!first) return null;
  try {
    return new Salvage(text).read();
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
}

type Read = { ok: true; value: unknown } | { ok: false };

class Salvage {
  private pos = 0;
  private eof = false;
  private bad = -1;
  private readonly gaps: SalvageGap[] = [];

  constructor(private readonly text: string) {}

  read(): SalvagedJson | null {
    this.ws();
    const root = this.value(0);
    if (!root.ok) return null;
    this.ws();
    if (!this.eof && this.pos < this.text.length) this.gaps.push({ start: this.pos, torn: false });
    return { value: root.value, gaps: this.gaps };
  }

  private ws(): void {
    const t = this.text;
    while (this.pos < t.length && (t[this.pos] === ' ' || t[this.pos] === '\n' || t[this.pos] === '\r' || t[this.pos] === '\t')) this.pos++;
  }

  private fail(at: number): Read {
    this.bad = at;
    return { ok: false };
  }

  private end(): Read {
    this.eof = true;
    return { ok: false };
  }

  private value(depth: number): Read {
    if (depth > MAX_DEPTH) throw new GiveUp();
    const t = this.text;
    if (this.pos >= t.length) return this.end();
    const c = t[this.pos];
    if (c === '{') return this.container(depth, '}');
    if (c === '[') return this.container(depth, ']');
    if (c === '"') return this.string();
    SCALAR.lastIndex = this.pos;
    const m = SCALAR.exec(t);
    if (!m) return this.fail(this.pos);
    this.pos += m[0].length;
    // A number the text ends in may be cut short: it is part of the torn end.
    if (this.pos >= t.length) return this.end();
    return { ok: true, value: JSON.parse(m[0]) };
  }

  private string(): Read {
    const t = this.text;
    const start = this.pos;
    for (let i = start + 1; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 92 /* \ */) i++;
      else if (c === 10 || c === 13) return this.fail(i);
      else if (c === 34 /* " */) {
        this.pos = i + 1;
        try {
          return { ok: true, value: JSON.parse(t.slice(start, i + 1)) };
        } catch {
          return this.fail(start);
        }
      }
    }
    return this.end();
  }

  /** An object or array; a damaged member costs its line, a torn end what it cut. */
  private container(depth: number, close: '}' | ']'): Read {
    const t = this.text;
    const isObject = close === '}';
    const out: Record<string, unknown> | unknown[] = isObject ? {} : [];
    this.pos++;
    for (;;) {
      this.ws();
      if (this.pos >= t.length) {
        this.torn(this.pos);
        return { ok: true, value: out };
      }
      const c = t[this.pos];
      if (c === close) {
        this.pos++;
        return { ok: true, value: out };
      }
      if (c === ',') {
        this.pos++;
        continue;
      }
      const start = this.pos;
      const r = isObject ? this.member(depth, out as Record<string, unknown>) : this.element(depth, out as unknown[]);
      if (r) continue;
      if (this.eof) {
        this.torn(start);
        return { ok: true, value: out };
      }
      // Leave the damaged line out and go on at the next one, in this container.
      const at = this.bad;
      const lineStart = at > 0 ? t.lastIndexOf('\n', at - 1) + 1 : 0;
      if (this.gaps.length === 0 || this.gaps[this.gaps.length - 1].start !== lineStart) this.gaps.push({ start: Math.max(lineStart, start), torn: false });
      const next = t.indexOf('\n', Math.max(at, this.pos));
      if (next < 0) {
        this.pos = t.length;
        this.eof = true;
        return { ok: true, value: out };
      }
      this.pos = next + 1;
    }
  }

  private member(depth: number, out: Record<string, unknown>): boolean {
    const key = this.text[this.pos] === '"' ? this.string() : this.fail(this.pos);
    if (!key.ok) return false;
    this.ws();
    if (this.pos >= this.text.length) {
      this.end();
      return false;
    }
    if (this.text[this.pos] !== ':') {
      this.fail(this.pos);
      return false;
    }
    this.pos++;
    this.ws();
    const v = this.value(depth + 1);
    if (!v.ok) return false;
    // Own data property even for a key such as __proto__.
    Object.defineProperty(out, key.value as string, { value: v.value, enumerable: true, writable: true, configurable: true });
    return true;
  }

  private element(depth: number, out: unknown[]): boolean {
    const v = this.value(depth + 1);
    if (!v.ok) return false;
    out.push(v.value);
    return true;
  }

  /** The text ends inside the value that starts at `start`: one torn gap, at the innermost cut value. */
  private torn(start: number): void {
    this.eof = true;
    if (!this.gaps.some((g) => g.torn)) this.gaps.push({ start, torn: true });
  }
}

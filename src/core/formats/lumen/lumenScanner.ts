/**
 * The builder's facts of a Lumen line read straight from its bytes (lumen's `lineScanner`, used by range workers):
 * a line in the fast reader's subset (lumenFastLine.ts, read strictly: no control byte) is a JSON object that
 * JSON.parse reads, and its values' bytes are their JSON text, so each field the builder reads is taken from its
 * span without parsing the line. Any other line is refused and parsed as before; a test holds the facts of every
 * line taken to those of JSON.parse, on the corpus's lines and on edited ones.
 */
import { Buffer } from 'buffer';
import type { FactSink, FieldPlan, LineScanner } from '../../lineFacts';
import { LumenFastLine, objectValue, Tok, ValueSpan } from './lumenFastLine';
import { LUMEN_KINDS, SLOT, SLOT_OF } from './lumenFields';

/**
 * The text of `buf[s, e)` as UTF-8: Buffer's own decoder, without the argument checks of `toString(enc, s, e)`
 * (they cost more than decoding a short value); `toString` where a runtime lacks it.
 */
const utf8Slice: (buf: Buffer, s: number, e: number) => string =
  typeof (Buffer.prototype as { utf8Slice?: unknown }).utf8Slice === 'function'
    ? (buf, s, e) => (buf as unknown as { utf8Slice(s: number, e: number): string }).utf8Slice(s, e)
    : (buf, s, e) => buf.toString('utf8', s, e);

/** Strings longer than this are decoded each time (a timestamp differs on every line, a long message rarely repeats). */
const MAX_CACHED = 80;
const MINUS = 45;

/** A field that is a top-level key no Lumen line has (the fast reader refuses unknown keys): never present. */
const NO_SLOT = -1;
/** A field one level below a top-level key (`details.ip`). */
const NESTED = -2;

export class LumenLineScanner implements LineScanner {
  readonly fast = new LumenFastLine();
  /** Per field: its key's slot, or NO_SLOT, or NESTED. */
  private readonly slots: Int32Array;
  /** Per nested field: its parent field, and its key's bytes. */
  private readonly parents: Int32Array;
  private readonly keys: (Buffer | null)[];
  private readonly containers: Uint8Array;
  /** Per nested field, on the line being written: its value's span and token (Absent until found). */
  private readonly subStart: Int32Array;
  private readonly subEnd: Int32Array;
  private readonly subTok: Uint8Array;
  private readonly span: ValueSpan = { start: 0, end: 0 };
  /** Per container field, its nested fields. */
  private readonly below: number[][];
  /**
   * Per field, the last ASCII string decoded: a value repeated from the line before (the run's doc_hash, the cell,
   * a result type) is compared, not decoded again.
   */
  private readonly lastText: string[];

  constructor(plan: FieldPlan) {
    const n = plan.paths.length;
    this.slots = new Int32Array(n);
    this.parents = Int32Array.from(plan.parent);
    this.keys = new Array<Buffer | null>(n).fill(null);
    this.containers = plan.container;
    this.subStart = new Int32Array(n);
    this.subEnd = new Int32Array(n);
    this.subTok = new Uint8Array(n);
    this.below = plan.paths.map((_, up) => plan.paths.flatMap((_p, k) => (plan.parent[k] === up ? [k] : [])));
    this.lastText = new Array<string>(n).fill('');
    plan.paths.forEach((path, k) => {
      if (path.length === 1) this.slots[k] = SLOT_OF.get(path[0]) ?? NO_SLOT;
      else if (path.length === 2) {
        this.slots[k] = NESTED;
        this.keys[k] = Buffer.from(path[1], 'utf8');
      } else throw new Error(`the lumen line scanner reads keys at most one level down, not ${path.join('.')}`);
    });
  }

  read(bytes: Buffer, utf8 = false): boolean {
    return this.fast.read(bytes, true, utf8);
  }

  writeFacts(w: FactSink): number {
    const f = this.fast;
    const row = w.startRow();
    /** The field whose object the nested spans were found in (-1: none yet). */
    let scanned = -1;
    for (let k = 0; k < this.slots.length; k++) {
      const slot = this.slots[k];
      if (slot >= 0) {
        const tok = f.tok[slot];
        if (tok === Tok.Absent) continue;
        // A known kind as the constant string: nothing to decode, and its hash is known when it is interned.
        const kind = slot === SLOT.kind ? f.kindIndex(slot) : -1;
        if (kind >= 0) w.putString(k, LUMEN_KINDS[kind]);
        else this.put(w, k, tok, f.start[slot], f.end[slot]);
        continue;
      }
      if (slot === NO_SLOT) continue;
      const up = this.parents[k];
      const upSlot = this.slots[up];
      // As FactWriter.add: a nested field is read only below an object that is the parent field's value.
      if (upSlot < 0 || f.tok[upSlot] !== Tok.Obj || this.containers[up] !== 1) continue;
      if (scanned !== up) {
        this.findNested(up, f.start[upSlot], f.end[upSlot]);
        scanned = up;
      }
      const tok = this.subTok[k];
      if (tok !== Tok.Absent) this.put(w, k, tok, this.subStart[k], this.subEnd[k]);
    }
    return row;
  }

  private put(w: FactSink, k: number, tok: Tok, s: number, e: number): void {
    const buf = this.fast.buf;
    switch (tok) {
      case Tok.Str: return w.putString(k, this.text(k, buf, s + 1, e - 1));
      case Tok.Int: return w.putNumber(k, integerAt(buf, s, e));
      case Tok.Bool: return w.putBoolean(k, buf[s] === 116);
      case Tok.Null: return w.putNull(k);
      case Tok.Obj:
        if (this.containers[k] === 1) return w.putObject(k);
        return w.putJson(k, utf8Slice(buf, s, e));
      default: return w.putJson(k, utf8Slice(buf, s, e));
    }
  }

  /**
   * The string at `buf[s, e)`: the field's last one when it is ASCII and the bytes are its characters (compared
   * from the end, where values differ), else decoded.
   */
  private text(k: number, buf: Buffer, s: number, e: number): string {
    const last = this.lastText[k];
    const n = e - s;
    if (last.length === n) {
      let i = n - 1;
      while (i >= 0 && buf[s + i] === last.charCodeAt(i)) i--;
      if (i < 0) return last;
    }
    const text = utf8Slice(buf, s, e);
    // As many characters as bytes: ASCII, so a character code is the byte.
    if (text.length === n && n <= MAX_CACHED) this.lastText[k] = text;
    return text;
  }

  /** Finds the spans of the nested fields below field `up` in the object at `[s, e)`. */
  private findNested(up: number, s: number, e: number): void {
    const below = this.below[up];
    const buf = this.fast.buf;
    for (let j = 0; j < below.length; j++) {
      const k = below[j];
      this.subTok[k] = objectValue(buf, s, e, this.keys[k]!, this.span);
      this.subStart[k] = this.span.start;
      this.subEnd[k] = this.span.end;
    }
  }
}

/** The integer written at `[s, e)`: an optional minus and at most 15 digits (exact as a number). */
function integerAt(buf: Buffer, s: number, e: number): number {
  const negative = buf[s] === MINUS;
  let x = 0;
  for (let i = negative ? s + 1 : s; i < e; i++) x = x * 10 + buf[i] - 48;
  return negative ? -x : x;
}

import { Buffer } from 'buffer';
import { grown } from './stringColumn';
/**
 * The facts a worker hands back for a batch of lines, as columns: for each line, the values at the few JSON paths
 * its format's builder reads (`FormatModule.lineFields`), not the parsed line. Numbers travel in one Float64Array,
 * strings as indices into one small string table (interned per batch: kinds, cells and tools repeat), so a batch
 * crosses threads as a few transferable buffers instead of thousands of cloned objects. The main thread turns each
 * line back into an object holding exactly those paths, which the format's unchanged builder reads as it would the
 * whole line: same events, same findings.
 */

/** Strings longer than this are not interned (see FactWriter.intern). */
const INTERN_MAX = 24;

/** How one field of one line was written. */
export const enum Tag {
  Absent = 0,
  Null = 1,
  Number = 2,
  String = 3,
  True = 4,
  False = 5,
  /** Another value (an array, or an object where no nested path is read): JSON text in the string table. */
  Json = 6,
  /** An object whose nested paths (`details.ip`) follow in their own fields. */
  Object = 7,
}

/** A compiled field list: each path split once, parents before their children. */
export interface FieldPlan {
  paths: readonly (readonly string[])[];
  /** Index of each path's parent path, -1 for top-level keys. */
  parent: Int32Array;
  /** Paths that have nested paths below them. */
  container: Uint8Array;
  /** Each path's last key. */
  keys: readonly string[];
  /** 1 for a key every object inherits (`constructor`, `__proto__`): present only as the object's own key. */
  inherited: Uint8Array;
}

/** Compiles `lineFields` (dotted paths; a parent path must be listed before its children). */
export function planFields(fields: readonly string[]): FieldPlan {
  const paths = fields.map((f) => f.split('.'));
  const parent = new Int32Array(paths.length).fill(-1);
  const container = new Uint8Array(paths.length);
  paths.forEach((p, i) => {
    if (p.length < 2) return;
    const up = fields.indexOf(p.slice(0, -1).join('.'));
    if (up < 0 || up >= i) throw new Error(`lineFields: ${fields[i]} needs its parent listed before it`);
    parent[i] = up;
    container[up] = 1;
  });
  const keys = paths.map((p) => p[p.length - 1]);
  const inherited = Uint8Array.from(keys, (k) => (k in Object.prototype ? 1 : 0));
  return { paths, parent, container, keys, inherited };
}

/**
 * Facts of consecutive lines: a tag for each of `count` lines × `fields` columns; the numbers, and the string
 * table indices of strings and JSON texts, in line and field order (only the fields that hold one).
 */
export interface FactBatch {
  count: number;
  tags: Uint8Array;
  numbers: Float64Array;
  strings: Int32Array;
  table: string[];
}

/**
 * Reads a format's own lines straight from their bytes, without JSON.parse, when they are written the way its
 * writer writes them (`FormatModule.lineScanner`). A range worker tries it first; a line it does not take is parsed
 * as any other, so it may refuse whatever it does not know exactly. (This thread parses every line it reads: here
 * V8's JSON.parse measured faster than a scanner written in JavaScript that also makes the facts' object.)
 */
export interface LineScanner {
  /**
   * Reads one line's bytes (without its line break). True only for valid UTF-8 that JSON.parse reads as an object:
   * then {@link writeFacts} writes exactly the facts `FactWriter.add(JSON.parse(line))` would. `utf8`: the bytes are
   * known to be valid UTF-8 (scanLines checked their chunk), so the scanner need not check them again.
   */
  read(bytes: Buffer, utf8?: boolean): boolean;
  /** Writes the facts of the line read last as the next row (see FactWriter.startRow) and returns the row. */
  writeFacts(w: FactSink): number;
}

/** Where a {@link LineScanner} writes a line's facts: the batch a range worker sends (FactWriter). */
export interface FactSink {
  startRow(): number;
  putNumber(field: number, v: number): void;
  putString(field: number, s: string): void;
  putBoolean(field: number, v: boolean): void;
  putNull(field: number): void;
  putObject(field: number): void;
  putJson(field: number, text: string): void;
}

/** Accumulates the facts of a batch of lines. */
export class FactWriter implements FactSink {
  private tags: Uint8Array;
  private numbers: Float64Array;
  private strings: Int32Array;
  private readonly table: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Per field, the last long string (not interned) and its index: a value repeated line after line is sent once. */
  private readonly lastLong: (string | null)[];
  private readonly lastLongId: Int32Array;
  /** Per container field, its object on the line being added (read only while its tag says Object). */
  private readonly holders: (Record<string, unknown> | undefined)[];
  /** The first tag of the row being put (startRow). */
  private rowBase = 0;
  private n = 0;
  private nNumbers = 0;
  private nStrings = 0;

  constructor(private readonly plan: FieldPlan, capacity = 4096) {
    const f = plan.paths.length;
    this.tags = new Uint8Array(capacity * f);
    this.numbers = new Float64Array(capacity * 2);
    this.strings = new Int32Array(capacity * 4);
    this.lastLong = new Array<string | null>(f).fill(null);
    this.lastLongId = new Int32Array(f);
    this.holders = new Array<Record<string, unknown> | undefined>(f).fill(undefined);
  }

  get count(): number {
    return this.n;
  }

  /** Writes the facts of one parsed line (a JSON object) and returns its row in the batch. */
  add(value: unknown): number {
    const f = this.plan.paths.length;
    const row = this.startRow();
    const base = this.rowBase;
    const { parent, container, keys, inherited } = this.plan;
    const holders = this.holders;
    for (let k = 0; k < f; k++) {
      const up = parent[k];
      let holder: Record<string, unknown>;
      if (up < 0) holder = value as Record<string, unknown>;
      else if (this.tags[base + up] === Tag.Object) holder = holders[up]!;
      else continue; // parent absent or not an object: nothing below it
      const key = keys[k];
      // One lookup: a parsed JSON value is never undefined, so undefined is an absent key; a key that objects
      // inherit (`constructor`) is asked of the object itself.
      const v = holder[key];
      if (v === undefined || (inherited[k] === 1 && !Object.prototype.hasOwnProperty.call(holder, key))) continue;
      this.put(base + k, k, v, container[k] === 1);
      if (container[k] === 1 && this.tags[base + k] === Tag.Object) holders[k] = v as Record<string, unknown>;
    }
    return row;
  }

  /**
   * Starts a row that a {@link LineScanner} writes field by field from a line's bytes, with the put methods below:
   * each field at most once, in field order (numbers and strings are read back in that order), a nested field only
   * after its parent was put as an object. Returns the row.
   */
  startRow(): number {
    const f = this.plan.paths.length;
    if ((this.n + 1) * f > this.tags.length) this.tags = grown(this.tags, this.tags.length * 2);
    if (this.nNumbers + f > this.numbers.length) this.numbers = grown(this.numbers, (this.numbers.length + f) * 2);
    if (this.nStrings + f > this.strings.length) this.strings = grown(this.strings, (this.strings.length + f) * 2);
    const row = this.n++;
    this.rowBase = row * f;
    return row;
  }

  putNumber(field: number, v: number): void {
    this.tags[this.rowBase + field] = Tag.Number;
    this.numbers[this.nNumbers++] = v;
  }

  putString(field: number, s: string): void {
    this.tags[this.rowBase + field] = Tag.String;
    this.strings[this.nStrings++] = this.intern(s, field);
  }

  putBoolean(field: number, v: boolean): void {
    this.tags[this.rowBase + field] = v ? Tag.True : Tag.False;
  }

  putNull(field: number): void {
    this.tags[this.rowBase + field] = Tag.Null;
  }

  /** An object whose nested fields follow (the field must have nested fields in the plan). */
  putObject(field: number): void {
    this.tags[this.rowBase + field] = Tag.Object;
  }

  /** Any other value, as JSON text that parses to it. */
  putJson(field: number, text: string): void {
    this.tags[this.rowBase + field] = Tag.Json;
    this.strings[this.nStrings++] = this.intern(text, field);
  }

  /** Hands over the batch (the writer starts empty again). */
  take(): FactBatch {
    const f = this.plan.paths.length;
    const out: FactBatch = {
      count: this.n, tags: this.tags.slice(0, this.n * f), numbers: this.numbers.slice(0, this.nNumbers),
      strings: this.strings.slice(0, this.nStrings), table: this.table.splice(0),
    };
    // A field a line lacks keeps its tag unwritten: the next batch's rows must start absent.
    this.tags.fill(Tag.Absent, 0, this.n * f);
    this.ids.clear();
    this.lastLong.fill(null);
    this.n = 0;
    this.nNumbers = 0;
    this.nStrings = 0;
    return out;
  }

  private put(at: number, field: number, v: unknown, container: boolean): void {
    if (v === null) this.tags[at] = Tag.Null;
    else if (typeof v === 'number') {
      this.tags[at] = Tag.Number;
      this.numbers[this.nNumbers++] = v;
    } else if (typeof v === 'string') {
      this.tags[at] = Tag.String;
      this.strings[this.nStrings++] = this.intern(v, field);
    } else if (typeof v === 'boolean') this.tags[at] = v ? Tag.True : Tag.False;
    else if (container && typeof v === 'object' && !Array.isArray(v)) this.tags[at] = Tag.Object;
    else {
      this.tags[at] = Tag.Json;
      this.strings[this.nStrings++] = this.intern(JSON.stringify(v), field);
    }
  }

  private intern(s: string, field: number): number {
    // Long strings (timestamps, digests) rarely repeat within a batch: hashing each into the map cost more than
    // cloning it (measured: interning was a sixth of a lumen range worker's time). One that repeats the same
    // field's value on the line before (a run's document hash) is compared, not hashed, and sent once.
    if (s.length > INTERN_MAX) {
      if (this.lastLong[field] === s) return this.lastLongId[field];
      this.table.push(s);
      this.lastLong[field] = s;
      return (this.lastLongId[field] = this.table.length - 1);
    }
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.table.length;
      this.table.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
}

/**
 * Reads a batch's lines back, in order (numbers and strings are stored in line order, so rows are read one after
 * the other): each as an object holding the read paths (keys in field order).
 */
export class FactReader {
  private row = 0;
  private nNumbers = 0;
  private nStrings = 0;
  /**
   * The objects made for container fields, by field; kept from row to row: a child's tag is set only when its
   * parent was an object on the same line (FactWriter.add), and parents come first, so a child never meets a stale one.
   */
  private readonly made: (Record<string, unknown> | undefined)[];

  constructor(private readonly plan: FieldPlan, private readonly batch: FactBatch) {
    this.made = new Array(plan.paths.length).fill(undefined);
  }

  /** Row `row`, which must be the next one. */
  read(row: number): Record<string, unknown> {
    if (row !== this.row) throw new Error(`facts read out of order: row ${row} where ${this.row} was next`);
    this.row++;
    const { plan, batch } = this;
    const f = plan.paths.length;
    const base = row * f;
    const made = this.made;
    const root: Record<string, unknown> = {};
    for (let k = 0; k < f; k++) {
      const tag = batch.tags[base + k];
      if (tag === Tag.Absent) continue;
      const up = plan.parent[k];
      const holder = up < 0 ? root : made[up];
      if (!holder) continue; // never: see `made`
      const key = plan.keys[k];
      let v: unknown;
      switch (tag) {
        case Tag.Object: v = made[k] = {}; break;
        case Tag.Null: v = null; break;
        case Tag.Number: v = batch.numbers[this.nNumbers++]; break;
        case Tag.String: v = batch.table[batch.strings[this.nStrings++]]; break;
        case Tag.True: v = true; break;
        case Tag.False: v = false; break;
        default: v = JSON.parse(batch.table[batch.strings[this.nStrings++]]);
      }
      // An own property, as JSON.parse makes it: `__proto__` assigned would set the prototype instead.
      if (plan.inherited[k] === 1) Object.defineProperty(holder, key, { value: v, writable: true, enumerable: true, configurable: true });
      else holder[key] = v;
    }
    return root;
  }
}

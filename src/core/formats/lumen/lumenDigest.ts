/**
 * What a range worker reads of a clean Lumen line for the chain verifier and the run checker, so that the main
 * thread's check needs neither the line's text nor a second parse: seq, kind, cell and doc_hash, and for verify
 * the stored hash (already checked against the recomputed one) and prev_hash as 32 bytes each. A line with
 * anything to report on its own (a load problem, an unknown key, a float, a hash that does not match, a kind whose
 * fields are wrong) is not digested: its text goes to the main thread, which reads it as it always did, so every
 * finding comes from the same code with the right line number.
 */
import { Buffer } from 'buffer';
import type { CheckMode, LineDigestColumns, LineDigestWriter } from '../../rules/types';
import { CHAIN_HASH_RE, GENESIS_HASH, isLumenKind, LUMEN_KINDS, SLOT } from './lumenFields';
import { kindFieldProblem } from './lumenKindSchemas';
import { LumenLineReader, seqNumber } from './lumenLine';
import { LumenFastLine, Tok } from './lumenFastLine';
import { fastFieldsClean, fastHashMatches, FastTimestamps, fastKindFieldsOk } from './lumenFastChecks';
import { LumenLineScanner } from './lumenScanner';
import type { LineScanner } from '../../lineFacts';

const { seq: SEQ, kind: KIND, prev_hash: PREV_HASH, hash: HASH, doc_hash: DOC_HASH, cell: CELL } = SLOT;
/** Bytes of a digest: `sha256:` + 64 hex digits. */
const HASH_BYTES = 32;
const PREFIX = 'sha256:'.length;

/** The columns of a batch of digested lines; strings are indices into `table` (-1: none). */
export interface LumenDigestColumns extends LineDigestColumns {
  seq: Float64Array;
  kind: Int32Array;
  cell: Int32Array;
  docHash: Int32Array;
  /** Verify only: the stored hash, 32 bytes a row. */
  hash: Uint8Array;
  /** Verify only: prev_hash, 32 bytes a row (zero when `genesis`). */
  prev: Uint8Array;
  genesis: Uint8Array;
  table: string[];
}

/** Digests the lines of one batch in a range worker (see the file's comment). */
export class LumenDigestWriter implements LineDigestWriter {
  private readonly reader = new LumenLineReader();
  private readonly fast = new LumenFastLine();
  private readonly times = new FastTimestamps();
  /** The previous line's hash digits when the fast path digested it ('' otherwise). */
  private lastHex = '';
  private readonly ids = new Map<string, number>();
  /** The last cell and doc_hash interned by the fast path, and their ids in this batch's table (-1: none yet). */
  private readonly lastCell = { text: null as string | null, id: -1 };
  private readonly lastDocHash = { text: null as string | null, id: -1 };
  private cols: LumenDigestColumns;
  /** Byte views of the hash columns, for writing hex into them without a Buffer per line. */
  private hashView!: Buffer;
  private prevView!: Buffer;
  /** The previous digested line's hash: a prev_hash equal to it is well-formed without a pattern test. */
  private lastHash = '';
  private n = 0;

  constructor(private readonly mode: CheckMode, private capacity = 8192) {
    this.cols = emptyColumns(capacity);
    this.viewColumns();
  }

  private viewColumns(): void {
    const { hash, prev } = this.cols;
    this.hashView = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength);
    this.prevView = Buffer.from(prev.buffer, prev.byteOffset, prev.byteLength);
  }

  /** Digests a line that parsed as a JSON object; -1 when the main thread must read its text itself. */
  add(text: string, value: unknown, bytes?: Buffer): number {
    if (bytes !== undefined && this.fast.read(bytes) && fastFieldsClean(this.fast, this.times)) {
      const f = this.fast;
      return this.addFast(f, this.mode === 'verify' || kindFieldProblem(LUMEN_KINDS[f.kindIndex(KIND)], value) === null);
    }
    const r = this.reader;
    if (!r.read(text, true) || r.unknownKeys.length > 0 || r.floatInDetails || r.loadFindings(0).length > 0) return -1;
    const seqText = r.seqText();
    const seq = seqNumber(seqText);
    const kind = r.string(KIND);
    if (seq === undefined || String(seq) !== seqText || kind === null) return -1;
    const verify = this.mode === 'verify';
    if (verify ? !this.chainIsClean() : isLumenKind(kind) && kindFieldProblem(kind, value) !== null) return -1;
    if (this.n === this.capacity) this.grow();
    const row = this.n++;
    const c = this.cols;
    c.seq[row] = seq;
    c.kind[row] = this.intern(kind);
    c.cell[row] = this.intern(r.string(CELL));
    c.docHash[row] = this.intern(r.string(DOC_HASH));
    if (verify) {
      const hash = r.string(HASH)!;
      this.hashView.write(hash.slice(PREFIX), row * HASH_BYTES, HASH_BYTES, 'hex');
      this.lastHash = hash;
      const prev = r.string(PREV_HASH)!;
      if (prev === GENESIS_HASH) c.genesis[row] = 1;
      else this.prevView.write(prev.slice(PREFIX), row * HASH_BYTES, HASH_BYTES, 'hex');
    }
    return row;
  }

  /**
   * Digests the line the lumen scanner has just read (a range worker reads lines that way before JSON.parse, and
   * parses only those it refuses): the row {@link add} would make of the parsed line, without its text or value.
   */
  addScanned(scanner: LineScanner): number {
    if (!(scanner instanceof LumenLineScanner)) return -1;
    // The scanner reads strictly: a line it took is one the fast reader takes too.
    const f = scanner.fast;
    if (!fastFieldsClean(f, this.times)) return -1;
    return this.addFast(f, this.mode === 'verify' || fastKindFieldsOk(LUMEN_KINDS[f.kindIndex(KIND)], f));
  }

  /**
   * {@link add} for a line the fast reader `f` read (lumenFastLine.ts) whose fields leave nothing to report: the
   * same tests and the same row, from the line's bytes. `kindFieldsOk`: check mode found its kind's fields there.
   */
  private addFast(f: LumenFastLine, kindFieldsOk: boolean): number {
    const seq = f.integer(SEQ);
    const kind = LUMEN_KINDS[f.kindIndex(KIND)];
    const verify = this.mode === 'verify';
    let hex: string | null = null;
    let prevHex: string | null = null;
    if (verify) {
      const genesis = f.stringEquals(PREV_HASH, GENESIS_HASH);
      if (!genesis) prevHex = f.hashEquals(PREV_HASH, this.lastHex) ? this.lastHex : f.isChainHash(PREV_HASH) ? f.hexOf(PREV_HASH) : null;
      if ((!genesis && prevHex === null) || (hex = fastHashMatches(f)) === null) return -1;
    } else if (!kindFieldsOk) return -1;
    if (this.n === this.capacity) this.grow();
    const row = this.n++;
    const c = this.cols;
    c.seq[row] = seq;
    c.kind[row] = this.intern(kind);
    c.cell[row] = f.tok[CELL] === Tok.Str ? this.internAt(f, CELL, this.lastCell) : -1;
    c.docHash[row] = this.internAt(f, DOC_HASH, this.lastDocHash);
    if (hex !== null) {
      this.hashView.write(hex, row * HASH_BYTES, HASH_BYTES, 'hex');
      this.lastHex = hex;
      if (prevHex === null) c.genesis[row] = 1;
      else this.prevView.write(prevHex, row * HASH_BYTES, HASH_BYTES, 'hex');
    }
    return row;
  }

  /** Hands over the batch as transferable columns; the writer starts empty again. */
  take(): { columns: LumenDigestColumns; transfer: ArrayBuffer[] } {
    const n = this.n;
    const c = this.cols;
    const columns: LumenDigestColumns = {
      count: n, seq: c.seq.slice(0, n), kind: c.kind.slice(0, n), cell: c.cell.slice(0, n), docHash: c.docHash.slice(0, n),
      hash: c.hash.slice(0, n * HASH_BYTES), prev: c.prev.slice(0, n * HASH_BYTES), genesis: c.genesis.slice(0, n), table: c.table.splice(0),
    };
    this.cols = emptyColumns(this.capacity);
    this.viewColumns();
    this.ids.clear();
    // A new batch has a new table: the ids kept for the last strings are gone with the old one.
    this.lastCell.id = -1;
    this.lastDocHash.id = -1;
    this.n = 0;
    const transfer = [columns.seq, columns.kind, columns.cell, columns.docHash, columns.hash, columns.prev, columns.genesis].map((a) => a.buffer as ArrayBuffer);
    return { columns, transfer };
  }

  /** The stored hash matches the recomputed one and prev_hash is well-formed: the chain has nothing to say of the line alone. */
  private chainIsClean(): boolean {
    const r = this.reader;
    const hash = r.string(HASH);
    const prev = r.string(PREV_HASH);
    if (hash === null || prev === null || (prev !== GENESIS_HASH && prev !== this.lastHash && !CHAIN_HASH_RE.test(prev))) return false;
    // A stored hash equal to the recomputed one is well-formed (`sha256:` and 64 lowercase hex digits).
    return r.computeHash() === hash;
  }

  /**
   * The table id of the string at `slot`: the id of the line before's when the bytes are the same string (compared
   * in place; a run's doc_hash never changes, its cells seldom), else decoded and interned, and kept as the last.
   */
  private internAt(f: LumenFastLine, slot: number, last: { text: string | null; id: number }): number {
    if (last.text !== null && last.id >= 0 && f.stringEquals(slot, last.text)) return last.id;
    const text = f.string(slot);
    last.text = text;
    last.id = this.intern(text);
    return last.id;
  }

  private intern(s: string | null): number {
    if (s === null) return -1;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.cols.table.length;
      this.cols.table.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  private grow(): void {
    const old = this.cols;
    this.capacity *= 2;
    this.cols = emptyColumns(this.capacity);
    for (const key of ['seq', 'kind', 'cell', 'docHash', 'hash', 'prev', 'genesis'] as const) (this.cols[key] as Uint8Array).set(old[key] as Uint8Array);
    this.cols.table = old.table;
    this.viewColumns();
  }
}

function emptyColumns(n: number): LumenDigestColumns {
  return {
    count: 0, seq: new Float64Array(n), kind: new Int32Array(n), cell: new Int32Array(n), docHash: new Int32Array(n),
    hash: new Uint8Array(n * HASH_BYTES), prev: new Uint8Array(n * HASH_BYTES), genesis: new Uint8Array(n), table: [],
  };
}

/** The `sha256:…` text of the 32 bytes at `row` (for messages and for comparing with a hash read from text). */
export function hashText(bytes: Uint8Array, row: number): string {
  return 'sha256:' + Buffer.from(bytes.buffer, bytes.byteOffset + row * HASH_BYTES, HASH_BYTES).toString('hex');
}

/** Whether the 32 bytes at row `a` of `x` equal those at row `b` of `y`. */
export function sameHash(x: Uint8Array, a: number, y: Uint8Array, b: number): boolean {
  const i = a * HASH_BYTES;
  const j = b * HASH_BYTES;
  for (let k = 0; k < HASH_BYTES; k++) if (x[i + k] !== y[j + k]) return false;
  return true;
}

import type { SourceRecord } from '../format';
import { findArguments, FlattenOptions } from './flattenJson';
import { hashCanonical } from './canonicalHash';
import { TextHash } from './textHash';

/** Lines longer than this are compared by their neutral facts only (kind, label, tokens…), never digested. */
export const MAX_DIFF_LINE_BYTES = 16 << 20;

/**
 * The digests of each JSONL line's value, by line number: the state of the line's normalized-JSON hash (each of
 * its events adds its own label later) and its arguments' digest. Filled by {@link LineDigests.add}, which fits
 * `loadTrace`'s `onRecord`, so the diff digests lines while the file loads instead of reading it a second time.
 */
export class LineDigests {
  /** Two int32 lanes per line (see TextHash.saveTo). */
  private states = new Int32Array(2 * 1024);
  private args = new Float64Array(1024);
  private seen = new Uint8Array(1024);
  private readonly line = new TextHash();
  private readonly scratch = new TextHash();

  /** `options`: what the digests leave out; the diff uses them only when it asks for the same. */
  constructor(readonly options: FlattenOptions) {}

  /** Digests one line's parsed value (bound, so it can be handed over as a callback). */
  readonly add = (rec: Pick<SourceRecord, 'value' | 'line' | 'length' | 'locate'>): void => {
    // A one-document trace's record is the whole document, not a line: the diff has no line digests of it.
    if (rec.length > MAX_DIFF_LINE_BYTES || rec.locate) return;
    this.room(rec.line);
    hashCanonical(rec.value, this.options, this.line.reset()).saveTo(this.states, rec.line);
    const found = findArguments(rec.value);
    this.args[rec.line] = found === undefined ? NaN : hashCanonical(found, this.options, this.scratch.reset()).value();
    this.seen[rec.line] = 1;
  };

  /** True when `line` was digested (it parsed and was not too long). */
  has(line: number): boolean {
    return line < this.seen.length && this.seen[line] === 1;
  }

  /** The line's JSON digest state in `into`, ready for an event's label. */
  stateOf(line: number, into: TextHash): TextHash {
    return into.loadFrom(this.states, line);
  }

  /** The digest of the line's arguments; NaN when it has none. */
  argsOf(line: number): number {
    return this.args[line];
  }

  /** Grows the arrays (doubling) so `line` has a slot. */
  private room(line: number): void {
    if (line < this.seen.length) return;
    let n = this.seen.length;
    while (n <= line) n *= 2;
    const states = new Int32Array(2 * n);
    states.set(this.states);
    const args = new Float64Array(n);
    args.set(this.args);
    const seen = new Uint8Array(n);
    seen.set(this.seen);
    this.states = states;
    this.args = args;
    this.seen = seen;
  }
}

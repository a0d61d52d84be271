import { Buffer } from 'buffer';
import { LabelCache, LabelDeriver, LabelFacts, LineBytes } from './derivedLabels';
import { deriveSafely } from './lineLabels';
import { NumberColumn } from './numberColumn';
import { StringColumn } from './stringColumn';

/** Where event i's line is, and the facts its label may use: what the table gives a label made again. */
export interface LabelSource {
  offsetOf(i: number): number;
  lengthOf(i: number): number;
  labelFactsOf(i: number): LabelFacts;
}

/**
 * The event table's labels: stored as UTF-8 bytes, or, for the events whose label the format's `deriveLabel`
 * gives back unchanged from the line, made again from the line's bytes when asked, through a bounded cache.
 */
export class LabelColumns {
  /** Stored labels; null where the label is made again from the line (`derived`). */
  private readonly labels = new StringColumn();
  private readonly derived = new NumberColumn();
  private deriver: { derive: LabelDeriver; lineBytes: LineBytes; parse: (bytes: Buffer) => unknown; cache: LabelCache } | null = null;

  /** From now on, labels that `derive` gives back unchanged from a line's value are not stored. */
  deriveFrom(derive: LabelDeriver, lineBytes: LineBytes, parse: (bytes: Buffer) => unknown): void {
    this.deriver = { derive, lineBytes, parse, cache: new LabelCache() };
  }

  /** Whether labels that `derive` makes from a line are made again from the line when asked (so need not be made now). */
  derives(derive: LabelDeriver): boolean {
    return this.deriver !== null && this.deriver.derive === derive;
  }

  /**
   * Records event i's label; `value` is the parsed line it came from, when labels may be derived. `fromLine`:
   * the builder left the label to the line, and {@link derives} said it is made again from it.
   */
  add(i: number, label: string, value: unknown, facts: LabelFacts, fromLine = false): void {
    const derived = value !== undefined && this.deriver !== null && (fromLine || deriveSafely(this.deriver.derive, value, facts) === label);
    this.derived.set(i, derived ? 1 : 0);
    this.labels.push(derived ? null : label);
  }

  /** Event i's label; `source` is asked only for a label made again (no closure per call: this runs per row). */
  get(i: number, source: LabelSource): string {
    if (!this.isDerived(i)) return this.labels.get(i) ?? '';
    const d = this.deriver!;
    const hit = d.cache.get(i);
    if (hit !== undefined) return hit;
    const bytes = d.lineBytes(source.offsetOf(i), source.lengthOf(i));
    const known = source.labelFactsOf(i);
    // The file changed under the model (a rewrite not yet read again): the kind is better than a wrong label.
    const label = (bytes && deriveSafely(d.derive, parseSafely(d.parse, bytes), known)) ?? known.kind;
    d.cache.set(i, label);
    return label;
  }

  /** Whether event i's label is made again from its line rather than stored. */
  isDerived(i: number): boolean {
    return this.derived.raw(i) === 1 && this.deriver !== null;
  }

  trim(n: number, slack = 0): void {
    this.derived.trim(n, slack);
    this.labels.trim(slack);
  }

  reserve(n: number): void {
    this.derived.reserve(n);
    this.labels.reserve(n);
  }

  footprint(): Record<string, number> {
    return { labels: this.labels.byteSize, labelDerived: this.derived.byteSize };
  }
}

function parseSafely(parse: (bytes: Buffer) => unknown, bytes: Buffer): unknown {
  try {
    return parse(bytes);
  } catch {
    return undefined;
  }
}

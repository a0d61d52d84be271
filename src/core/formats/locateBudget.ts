import { SourceRecord } from '../format';

/**
 * Bounds the work of `SourceRecord.locate`, which scans the document from its start on every call: placing every
 * span of a huge export would be quadratic. Past the budget (about a second of scanning), events keep the line of
 * the previous placed element instead.
 */
export class LocateBudget {
  private left: number;

  constructor(chars = 4e9) {
    this.left = chars;
  }

  /** The 1-based line of the first occurrence of `needle`, or null when absent or over budget. */
  locate(rec: SourceRecord, needle: string): number | null {
    if (!rec.locate || this.left < rec.length) return null;
    this.left -= rec.length;
    return rec.locate(needle);
  }
}

/**
 * Messages between the extension host and the compare view (`webview/compare/`), apart from the viewer's
 * protocol so the two views can change independently. Plain JSON data only.
 */
import type { EventCategory, EventStatus } from './core/model';
import type { DiffOpKind, DiffSummary, FieldChange } from './core/diff/diffTypes';

/** One side of a compare row: the event as the tree shows it. */
export interface CompareSide {
  line: number;
  kind: string;
  category: EventCategory;
  status: EventStatus;
  label: string;
}

/** One row of the aligned trees: the same depth on both sides, `null` where a side has no event. */
export interface CompareRow {
  op: DiffOpKind;
  depth: number;
  a: CompareSide | null;
  b: CompareSide | null;
}

/** What one file of the pair is. */
export interface CompareFile {
  name: string;
  path: string;
  format: string;
  events: number;
}

/** One event of a selected row, for the detail pane. */
export interface CompareEventDetail {
  line: number;
  kind: string;
  label: string;
  /** The event's JSON, pretty-printed (cut at a size the pane can show). */
  json: string;
  /** The conversation inside the event, one message a line: `role: text`. */
  messages: string[];
}

/** The detail pane of one row: the fields that differ and both events. */
export interface CompareDetail {
  row: number;
  op: DiffOpKind;
  fields: FieldChange[];
  fieldsOmitted: number;
  durationDeltaMs: number | null;
  tokensDelta: number | null;
  a: CompareEventDetail | null;
  b: CompareEventDetail | null;
}

/** Host → compare view. */
export type CompareHostMessage =
  | { type: 'compareInit'; a: CompareFile; b: CompareFile; rows: CompareRow[]; firstDivergence: number; summary: DiffSummary; includeVolatile: boolean }
  | { type: 'compareDetail'; detail: CompareDetail }
  | { type: 'compareError'; message: string };

/** Compare view → host. */
export type CompareViewMessage =
  | { type: 'compareReady' }
  | { type: 'compareSelect'; row: number }
  | { type: 'compareToggleVolatile'; include: boolean }
  | { type: 'compareOpen'; side: 'a' | 'b'; line: number };

/**
 * Checks a message from the compare view before the host acts on it: the webview shows hostile trace content,
 * so its messages are untrusted input. Returns null for anything that is not exactly one of the known shapes.
 */
export function validateCompareMessage(msg: unknown): CompareViewMessage | null {
  if (typeof msg !== 'object' || msg === null) return null;
  const m = msg as Record<string, unknown>;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  switch (m.type) {
    case 'compareReady':
      return { type: 'compareReady' };
    case 'compareSelect':
      return whole(m.row) ? { type: 'compareSelect', row: m.row } : null;
    case 'compareToggleVolatile':
      return typeof m.include === 'boolean' ? { type: 'compareToggleVolatile', include: m.include } : null;
    case 'compareOpen':
      return (m.side === 'a' || m.side === 'b') && whole(m.line) && m.line >= 1 ? { type: 'compareOpen', side: m.side, line: m.line } : null;
    default:
      return null;
  }
}

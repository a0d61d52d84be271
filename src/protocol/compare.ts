/**
 * Messages between the extension host and the compare view (`webview/compare/`), apart from the viewer's
 * protocol so the two views can change independently. Plain JSON data only.
 */
import type { EventCategory, EventStatus } from '../core/model';
import type { DiffOpKind, DiffSummary, FieldChange } from '../core/diff/diffTypes';

/** Most rows one `compareRows` answer carries, whatever the view asks: pages, never the whole diff. */
export const MAX_COMPARE_PAGE = 500;
/** The rows of one page the view asks for, pages starting at multiples of it (the first message's page too). */
export const COMPARE_PAGE_ROWS = 200;

/** One side of a compare row: the event as the tree shows it, and its bar on the timeline. */
export interface CompareSide {
  line: number;
  kind: string;
  category: EventCategory;
  status: EventStatus;
  label: string;
  /** Start in ms after its own run's start (both runs aligned by their start); null when the event has no time. */
  startMs: number | null;
  /** Duration in ms; null for an instant event or an untimed one. */
  durationMs: number | null;
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

/** Where one run of differing rows starts (F7 goes there; the overview gutter marks it). */
export interface CompareHunk {
  row: number;
  op: DiffOpKind;
}

/** Rows [from, from + rows.length) of the aligned trees, for the diff numbered `generation`. */
export interface CompareRowsPage {
  generation: number;
  from: number;
  rows: CompareRow[];
}

/** Most unreadable line numbers of one run the compare view is sent (the count is always whole). */
export const MAX_MALFORMED_LINES = 100;

/** The lines of one run that are not JSON: how many, and the first {@link MAX_MALFORMED_LINES} line numbers. */
export interface CompareMalformedSide {
  count: number;
  lines: number[];
}

/**
 * Both runs' unreadable lines (the diff's `malformed`): they are no events, so no row shows them, but the runs are
 * equivalent only when these agree. `firstDifference` is the first pair whose text differs (a side's line null
 * when it has fewer), null when both runs have the same ones.
 */
export interface CompareMalformed {
  a: CompareMalformedSide;
  b: CompareMalformedSide;
  firstDifference: { aLine: number | null; bLine: number | null } | null;
}

/**
 * The first message of a diff: both files, the number of rows, every hunk start and the totals, plus the page
 * around the first divergence. Other rows come in pages on request, so two 100,000-event runs are no
 * multi-megabyte message. `generation` tells the pages of this diff from those of an earlier one.
 */
export interface CompareInit {
  type: 'compareInit';
  generation: number;
  a: CompareFile;
  b: CompareFile;
  rowCount: number;
  hunks: CompareHunk[];
  /** The first row shown that differs; -1 when none does (the runs may still differ in hidden bookkeeping rows). */
  firstDivergence: number;
  /** The runs differ somewhere (in rows shown or in hidden bookkeeping rows). */
  differ: boolean;
  /**
   * Rows that are the writers' bookkeeping on both sides (Claude Code's `queue-operation`, `attachment`…), as the
   * tree folds them: how many, how many of them differ, and whether they are shown.
   */
  bookkeeping: { rows: number; differing: number; shown: boolean };
  summary: DiffSummary;
  includeVolatile: boolean;
  /** ms from each run's start to its last end: the shared timeline axis spans the longer one. */
  spanMs: { a: number; b: number };
  page: CompareRowsPage;
  /** Unreadable lines of either run; null when neither has one. */
  malformed: CompareMalformed | null;
}

/** Host → compare view. */
export type CompareHostMessage =
  | CompareInit
  | ({ type: 'compareRows' } & CompareRowsPage)
  | { type: 'compareDetail'; detail: CompareDetail }
  | { type: 'compareError'; message: string };

/** Compare view → host; checked by `parseViewMessage('compare', …)` (validate.ts) before the host acts on it. */
export type CompareViewMessage =
  | { type: 'compareReady' }
  | { type: 'compareRows'; generation: number; from: number; count: number }
  | { type: 'compareSelect'; row: number }
  | { type: 'compareToggleVolatile'; include: boolean }
  | { type: 'compareShowBookkeeping'; show: boolean }
  | { type: 'compareOpen'; side: 'a' | 'b'; line: number };

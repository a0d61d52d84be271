/**
 * The compare view's logic without `vscode`: turns a diff into pages of rows for the webview (with each side's
 * timeline bar) and builds the detail of a row (field differences and both events, re-read from their files).
 * Tested in Node.
 */
import { basename } from 'node:path';
import type { TraceModel } from '../core/loadTrace';
import type { TraceDiff } from '../core/diff/diffTraces';
import type { ChatMessage } from '../protocol';
import { buildDetail } from './eventDetail';
import { COMPARE_PAGE_ROWS, MAX_COMPARE_PAGE, MAX_MALFORMED_LINES } from '../protocol/compare';
import type { CompareDetail, CompareEventDetail, CompareFile, CompareHunk, CompareInit, CompareMalformed, CompareRow, CompareRowsPage, CompareSide } from '../protocol/compare';
import { buildTimeline, Timeline } from './timeline/timelineData';
import { isBookkeepingEvent } from './traceRows';

/** Most characters of an event's JSON sent to the detail pane. */
const MAX_JSON_CHARS = 200_000;
/** Most characters of one message line. */
const MAX_MESSAGE_CHARS = 4_000;

/** A diff as the compare view pages it, with both runs' timelines (built once per diff, for the rows' bars). */
export interface CompareData {
  diff: TraceDiff;
  /** Numbers the diffs of one view (a toggle diffs again), so a late page of the last one is dropped. */
  generation: number;
  timelines: { a: Timeline; b: Timeline };
  /** The view's rows: the diff's ops in order, without the writers' bookkeeping rows unless they are shown. */
  rows: Int32Array;
  /** Rows that are bookkeeping on both sides (the tree's fold: formats.ts bookkeepingCategory), and how many differ. */
  bookkeeping: { rows: number; differing: number; shown: boolean };
}

/**
 * Builds what the compare view's rows are paged from. The writers' bookkeeping lines (Claude Code's
 * `queue-operation` and `attachment`, Codex's echoed twins…) are no rows unless `showBookkeeping`, as in the tree:
 * a row whose events are bookkeeping on both sides (or on its one side) is left out. The diff and its totals (the
 * CLI's `diff`) are unchanged.
 */
export function compareData(diff: TraceDiff, generation: number, showBookkeeping = false): CompareData {
  // A side without an event counts as bookkeeping: a row is folded when what it has is bookkeeping.
  const isBookkeeping = (m: TraceModel) => {
    const is = isBookkeepingEvent(m);
    return (i: number) => i < 0 || is(i);
  };
  const inA = isBookkeeping(diff.a);
  const inB = isBookkeeping(diff.b);
  const rows: number[] = [];
  let count = 0;
  let differing = 0;
  diff.ops.forEach((op, k) => {
    if (inA(op.a) && inB(op.b)) {
      count++;
      if (op.op !== 'equal') differing++;
      if (!showBookkeeping) return;
    }
    rows.push(k);
  });
  return { diff, generation, timelines: { a: buildTimeline(diff.a), b: buildTimeline(diff.b) }, rows: Int32Array.from(rows), bookkeeping: { rows: count, differing, shown: showBookkeeping } };
}

function side(m: TraceModel, tl: Timeline, i: number): CompareSide | null {
  if (i < 0) return null;
  const t = m.events;
  const bar = tl.barOf[i];
  return {
    line: t.lineOf(i), kind: t.kindOf(i), category: t.categoryOf(i), status: t.statusOf(i), label: t.labelOf(i),
    startMs: bar >= 0 ? tl.start[bar] : null, durationMs: bar >= 0 && tl.duration[bar] >= 0 ? tl.duration[bar] : null,
  };
}

function file(m: TraceModel): CompareFile {
  return { name: basename(m.path), path: m.path, format: m.format, events: m.events.size };
}

/** Rows [from, from + count) of the aligned trees (one per op, in the diff's preorder), clamped to the diff. */
export function compareRowsPage(data: CompareData, from: number, count: number): CompareRowsPage {
  const { diff, timelines } = data;
  const start = Math.max(0, Math.min(from, data.rows.length));
  const end = Math.min(data.rows.length, start + Math.max(0, Math.min(count, MAX_COMPARE_PAGE)));
  const rows: CompareRow[] = [];
  for (let k = start; k < end; k++) {
    const op = diff.ops[data.rows[k]];
    rows.push({ op: op.op, depth: op.depth, a: side(diff.a, timelines.a, op.a), b: side(diff.b, timelines.b, op.b) });
  }
  return { generation: data.generation, from: start, rows };
}

/** Where each run of differing rows starts, in order: F7's stops and the overview gutter's marks. */
export function compareHunks(data: CompareData): CompareHunk[] {
  const out: CompareHunk[] = [];
  const opOf = (k: number) => data.diff.ops[data.rows[k]].op;
  for (let k = 0; k < data.rows.length; k++) if (opOf(k) !== 'equal' && (k === 0 || opOf(k - 1) === 'equal')) out.push({ row: k, op: opOf(k) });
  return out;
}

/** The diff's unreadable lines for the view (line numbers capped, counts whole); null when neither run has one. */
export function compareMalformed(diff: TraceDiff): CompareMalformed | null {
  const m = diff.malformed;
  if (m.a.length === 0 && m.b.length === 0) return null;
  const side = (lines: number[]) => ({ count: lines.length, lines: lines.slice(0, MAX_MALFORMED_LINES) });
  return { a: side(m.a), b: side(m.b), firstDifference: m.firstDifference };
}

/** The first message the view gets: both files, the row count, every hunk, the totals and the first divergence's page. */
export function compareInit(data: CompareData, includeVolatile: boolean): CompareInit {
  const { diff } = data;
  const hunks = compareHunks(data);
  // The first row shown that differs (a difference only in hidden bookkeeping rows selects the first row).
  const firstDivergence = hunks.length > 0 ? hunks[0].row : -1;
  const from = Math.floor(Math.max(0, firstDivergence) / COMPARE_PAGE_ROWS) * COMPARE_PAGE_ROWS;
  return {
    type: 'compareInit', generation: data.generation, a: file(diff.a), b: file(diff.b), rowCount: data.rows.length,
    hunks, firstDivergence, differ: diff.firstDivergence >= 0, bookkeeping: data.bookkeeping, summary: diff.summary, includeVolatile,
    spanMs: { a: data.timelines.a.span, b: data.timelines.b.span }, page: compareRowsPage(data, from, COMPARE_PAGE_ROWS),
    malformed: compareMalformed(diff),
  };
}

function messageLine(m: ChatMessage): string {
  const text = m.parts.map((p) => {
    switch (p.type) {
      case 'text': case 'thinking': return p.text;
      case 'toolCall': return `${p.name}(${JSON.stringify(p.args) ?? ''})`;
      case 'toolResult': return p.text ?? JSON.stringify(p.value ?? null);
      case 'json': return JSON.stringify(p.value);
      case 'blob': return `[blob ${p.ref.digest.slice(0, 12)}]`;
    }
  }).join(' ');
  const line = `${m.role}: ${text}`;
  return line.length > MAX_MESSAGE_CHARS ? line.slice(0, MAX_MESSAGE_CHARS) + '…' : line;
}

async function eventDetail(m: TraceModel, i: number): Promise<CompareEventDetail | null> {
  if (i < 0) return null;
  const d = await buildDetail(m, i, []);
  let json = d.json !== null ? JSON.stringify(d.json, null, 2) : d.raw;
  if (json.length > MAX_JSON_CHARS) json = json.slice(0, MAX_JSON_CHARS) + '\n…';
  return { line: d.line, kind: d.kind, label: d.label, json, messages: d.messages.map(messageLine) };
}

/** The detail of the view's row `row`: what differs, the deltas and both events; null for a row that does not exist. */
export async function compareDetail(data: CompareData, row: number): Promise<CompareDetail | null> {
  const { diff } = data;
  const op = row >= 0 && row < data.rows.length ? diff.ops[data.rows[row]] : undefined;
  if (!op) return null;
  return {
    row, op: op.op, fields: op.fields ?? [], fieldsOmitted: op.fieldsOmitted ?? 0,
    durationDeltaMs: op.durationDeltaMs, tokensDelta: op.tokensDelta,
    a: await eventDetail(diff.a, op.a),
    b: await eventDetail(diff.b, op.b),
  };
}

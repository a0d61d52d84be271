/**
 * The compare view's logic without `vscode`: turns a diff into rows for the webview and builds the detail of
 * a row (field differences and both events, re-read from their files). Tested in Node.
 */
import { basename } from 'node:path';
import type { TraceModel } from '../core/loadTrace';
import type { TraceDiff } from '../core/diff/diffTraces';
import type { ChatMessage } from '../protocol';
import { buildDetail } from './eventDetail';
import type { CompareDetail, CompareEventDetail, CompareFile, CompareHostMessage, CompareRow, CompareSide } from '../protocolCompare';

/** Most characters of an event's JSON sent to the detail pane. */
const MAX_JSON_CHARS = 200_000;
/** Most characters of one message line. */
const MAX_MESSAGE_CHARS = 4_000;

function side(m: TraceModel, i: number): CompareSide | null {
  if (i < 0) return null;
  const t = m.events;
  return { line: t.lineOf(i), kind: t.kindOf(i), category: t.categoryOf(i), status: t.statusOf(i), label: t.labelOf(i) };
}

function file(m: TraceModel): CompareFile {
  return { name: basename(m.path), path: m.path, format: m.format, events: m.events.size };
}

/** The rows of the aligned trees, one per op, in the diff's preorder. */
export function compareRows(diff: TraceDiff): CompareRow[] {
  return diff.ops.map((op) => ({ op: op.op, depth: op.depth, a: side(diff.a, op.a), b: side(diff.b, op.b) }));
}

/** The first message the view gets: both files, every row and the totals. */
export function compareInit(diff: TraceDiff, includeVolatile: boolean): CompareHostMessage {
  return { type: 'compareInit', a: file(diff.a), b: file(diff.b), rows: compareRows(diff), firstDivergence: diff.firstDivergence, summary: diff.summary, includeVolatile };
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

/** The detail of row `row`: what differs, the deltas and both events; null for a row that does not exist. */
export async function compareDetail(diff: TraceDiff, row: number): Promise<CompareDetail | null> {
  const op = diff.ops[row];
  if (!op) return null;
  return {
    row, op: op.op, fields: op.fields ?? [], fieldsOmitted: op.fieldsOmitted ?? 0,
    durationDeltaMs: op.durationDeltaMs, tokensDelta: op.tokensDelta,
    a: await eventDetail(diff.a, op.a),
    b: await eventDetail(diff.b, op.b),
  };
}

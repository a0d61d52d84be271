/**
 * The transcript's index: which events are conversation (in file order) and, from the compact table alone
 * (no line is read), which blob references repeat an earlier one or changed since the previous turn. Built
 * once per model in one pass; 100,000 events take a few milliseconds.
 */
import type { TraceModel } from '../../core/loadTrace';
import type { EventCategory } from '../../core/model';
import type { TranscriptRef, TranscriptTurn } from '../../protocol';
import { buildTurns } from './transcriptTurns';
import { formatModule } from '../../core/formats';

/** Categories the transcript shows: what the agent was told, said and did, and where it was stopped. */
const CONVERSATION: ReadonlySet<EventCategory> = new Set(['run', 'task', 'turn', 'inference', 'tool', 'approval', 'message', 'error', 'policy']);

/** See the file comment. */
export interface TranscriptIndex {
  /** Event index of each block, in file order. */
  nodes: Int32Array;
  /** Blob references of each block that holds any, with their repeat and change marks. */
  refs: Map<number, TranscriptRef[]>;
  /** Turn of each block (an index into `turns`), by position in `nodes`. */
  turnOf: Int32Array;
  turns: TranscriptTurn[];
}

/**
 * True when event `i` is a block of the transcript: conversation, or content held in blobs. A copy a runtime keeps
 * beside the record it copies (Codex's UI events, Gemini's second result row of a line) is 'other': read once.
 */
export function isTranscriptEvent(model: TraceModel, i: number): boolean {
  return CONVERSATION.has(model.events.categoryOf(i)) || model.events.hashRefsOf(i).length > 0;
}

/** Builds the index of `model`'s transcript. */
export function buildTranscriptIndex(model: TraceModel): TranscriptIndex {
  const events = model.events;
  const order: number[] = [];
  for (let i = 0; i < events.size; i++) if (isTranscriptEvent(model, i)) order.push(i);
  // File order: the table is filled in reading order, but a document format may add events out of line order. A
  // session read with its subagents (TraceModel.parts) reads each subagent's blocks right after the call that started it.
  const cmp = readingOrder(model);
  order.sort(cmp);
  const firstLineOf = new Map<string, number>();
  const lastOfField = new Map<string, { digest: string; line: number }>();
  const refs = new Map<number, TranscriptRef[]>();
  for (const i of order) {
    const held = events.hashRefsOf(i);
    if (held.length === 0) continue;
    const line = events.lineOf(i);
    refs.set(i, held.map((ref) => {
      const first = firstLineOf.get(ref.digest);
      if (first === undefined) firstLineOf.set(ref.digest, line);
      const before = lastOfField.get(fieldKey(ref.field));
      lastOfField.set(fieldKey(ref.field), { digest: ref.digest, line });
      return {
        ref,
        sameAsLine: first !== undefined && first !== line ? first : null,
        changedSinceLine: before && before.digest !== ref.digest && first === undefined && SETUP_FIELD.test(ref.field) ? before.line : null,
      };
    }));
  }
  const nodes = Int32Array.from(order);
  return { nodes, refs, ...buildTurns(model, nodes) };
}

/** `all` with only the blocks of events `keep` keeps (the same index when nothing filters): a row filter, a subtree. */
export function narrowIndex(all: TranscriptIndex, keep: ((event: number) => boolean) | null): TranscriptIndex {
  if (!keep) return all;
  const at: number[] = [];
  for (let k = 0; k < all.nodes.length; k++) if (keep(all.nodes[k])) at.push(k);
  return { nodes: Int32Array.from(at, (k) => all.nodes[k]), refs: all.refs, turnOf: Int32Array.from(at, (k) => all.turnOf[k]), turns: all.turns };
}

/** Fields that set a conversation up (system prompt, tools, instructions): a change there is worth a mark. */
const SETUP_FIELD = /system|tools|instructions|prompt_sha/i;

/** Message slots compare with the same slot of the last turn; `message_shas[3]` and `message_shas.3` are one. */
function fieldKey(field: string): string {
  return field.replace(/\.(\d+)/g, '[$1]');
}

/**
 * The transcript's order of two events: by line; in a session read with its subagents (TraceModel.parts), a
 * subagent's events by their own lines right after the line of the call that started it (a subagent whose call is
 * not found: after everything), each file's events apart.
 */
function readingOrder(model: TraceModel): (a: number, b: number) => number {
  const t = model.events;
  const parts = model.parts;
  if (!parts) return formatModule(model.format).eventTime === 'start' ? (a, b) => t.lineOf(a) - t.lineOf(b) || byStart(t, a, b) || a - b : (a, b) => t.lineOf(a) - t.lineOf(b) || a - b;
  const at = (i: number): number => {
    const p = parts[t.partOf(i)];
    return t.partOf(i) === 0 ? t.lineOf(i) : p && p.call >= 0 ? t.lineOf(p.call) : Number.MAX_SAFE_INTEGER;
  };
  return (a, b) => at(a) - at(b) || t.partOf(a) - t.partOf(b) || t.lineOf(a) - t.lineOf(b) || a - b;
}

/**
 * Two spans of one line (an OTLP export request) by their start times, a parent before the child that started in the
 * same millisecond: an exporter writes spans as they end, a model call's tool span before the call (the AI SDK's
 * ai.toolCall under its doGenerate) and a run after its steps.
 */
function byStart(t: TraceModel['events'], a: number, b: number): number {
  const ta = t.timeOf(a);
  const tb = t.timeOf(b);
  return ta === null || tb === null ? 0 : ta - tb || depthOf(t, a) - depthOf(t, b);
}

function depthOf(t: TraceModel['events'], i: number): number {
  let d = 0;
  for (let p = t.parent(i); p >= 0 && d < 10_000; p = t.parent(p)) d++;
  return d;
}

/** Index of the block of `node`, or of the last block before it in file order (0 when none). */
export function blockIndexOf(index: TranscriptIndex, model: TraceModel, node: number): number {
  const cmp = readingOrder(model);
  let lo = 0;
  let hi = index.nodes.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (node < 0 || cmp(index.nodes[mid], node) <= 0) (best = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return best;
}

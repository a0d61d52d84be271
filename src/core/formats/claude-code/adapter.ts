import { isObj, obj, str } from '../common';
import { ClaudeState, describeClaudeLine } from './claudeDescribe';
import { LocateBudget } from '../locateBudget';
import { describeStreamLine, StreamPlacer } from './claudeStream';
import { ClaudeToolTotals } from './claudeTotals';
import { ClaudeSessionShape } from './claudeSession';
import { ClaudeFork } from './claudeFork';
import { Emit, EventBuilder, FormatAdapter, SniffResult, SniffSample, SourceRecord } from '../../format';
import type { EventDraft } from '../../model';
import { deriveSafely } from '../../lineLabels';

/** The line types the format documents; others exist in newer versions and are shown generically. */
export const CLAUDE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'summary']);
const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);
/**
 * Other line types the real writers are known to write: transcript bookkeeping (Claude Code 2.x) and the
 * stream-json message types. They are read generically and not reported as unknown.
 */
export const CLAUDE_KNOWN_OTHER_TYPES: ReadonlySet<string> = new Set([
  'attachment', 'file-history-snapshot', 'queue-operation', 'progress', 'last-prompt', 'cost-state', 'atis-latch',
  'api-request-shape', 'api-request-blob', 'api-request', 'tools-used', 'mode', 'custom-title', 'agent-name', 'tag', 'pr-link',
  'result', 'stream_event', 'tool_progress', 'tool_use_summary', 'auth_status', 'rate_limit_event',
]);

/**
 * The records of a Claude Code transcript held in one JSON document: claude-code-transcripts' `{"loglines":[…]}`
 * wrapper, or null when the value is not that wrapper.
 */
export function claudeLoglines(v: unknown): unknown[] | null {
  return isObj(v) && Array.isArray(v.loglines) ? v.loglines : null;
}

type LineClass = 'strong' | 'stream' | 'weak' | 'summary' | 'aux' | 'foreign';

/** The message types of `--output-format stream-json` (and the Agent SDK) that carry `session_id`. */
export const STREAM_TYPES: ReadonlySet<string> = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'tool_progress', 'tool_use_summary', 'auth_status', 'rate_limit_event']);

/**
 * True for one line of stream-json output: snake_case `session_id`, and for messages the `parent_tool_use_id`
 * key (null on the main thread) that transcripts never write.
 */
export function isStreamLine(v: unknown): boolean {
  if (!isObj(v) || typeof v.session_id !== 'string' || typeof v.type !== 'string' || !STREAM_TYPES.has(v.type)) return false;
  if (v.type === 'user' || v.type === 'assistant' || v.type === 'stream_event') return 'parent_tool_use_id' in v;
  return v.type !== 'system' || typeof v.subtype === 'string';
}

/** How much one value looks like a Claude Code transcript (or stream-json) line. */
function classify(v: unknown): LineClass {
  if (!isObj(v)) return 'foreign';
  const type = str(v, 'type');
  if (type === null) return 'foreign';
  if (isStreamLine(v)) return 'stream';
  const msg = obj(v, 'message');
  if (MESSAGE_TYPES.has(type)) {
    const linked = typeof v.uuid === 'string' && ('parentUuid' in v || typeof v.sessionId === 'string');
    if (linked && (msg !== null || type === 'system')) return 'strong';
    const role = str(msg, 'role');
    return msg !== null && (role === type || type === 'system') && 'content' in msg ? 'weak' : 'foreign';
  }
  if (type === 'summary') return typeof v.summary === 'string' ? 'summary' : 'foreign';
  // Newer versions write bookkeeping lines (file-history-snapshot, queue-operation, progress…) into the same file.
  return typeof v.sessionId === 'string' || typeof v.messageId === 'string' || typeof v.uuid === 'string' ? 'aux' : 'foreign';
}

function sniffClaude(sample: SniffSample): SniffResult {
  const wrapped = sample.values.length === 1 ? claudeLoglines(sample.values[0]) : null;
  const values = (wrapped ?? sample.values).slice(0, 40);
  if (values.length === 0) return { confidence: 0, reason: 'no values' };
  const n: Record<LineClass, number> = { strong: 0, stream: 0, weak: 0, summary: 0, aux: 0, foreign: 0 };
  for (const v of values) n[classify(v)]++;
  if (n.foreign * 2 > values.length) return { confidence: 0, reason: 'most values are not transcript lines' };
  const share = (values.length - n.foreign) / values.length;
  const name = /\.jsonl?$/.test(sample.fileName) && /^[0-9a-f]{8}-|^agent-|session/i.test(sample.fileName) ? 0.02 : 0;
  if (n.stream > n.strong && !wrapped) return sniffStream(values, n.stream / values.length);
  if (n.strong > 0) return { confidence: Math.min(1, 0.7 + 0.27 * share + name), reason: 'Claude Code transcript lines (type, uuid, parentUuid/sessionId, message)', dialect: 'transcript' };
  if (n.weak > 0) {
    // Without uuids only the Messages API shape is left; the loglines wrapper is claude-code-transcripts' own.
    const base = wrapped ? 0.8 : 0.52;
    return { confidence: Math.min(1, base + 0.15 * share + name), reason: wrapped ? 'claude-code-transcripts loglines document' : 'transcript lines without uuids (type user/assistant with a Messages API message)', dialect: 'transcript' };
  }
  if (n.summary > 0 && n.summary + n.aux === values.length) return { confidence: 0.6, reason: 'Claude Code summary lines only' };
  return { confidence: 0, reason: 'no user or assistant lines' };
}

/** stream-json: `system`/`init` first (the CLI's and the SDK's first message), or messages with `parent_tool_use_id`. */
function sniffStream(values: unknown[], share: number): SniffResult {
  const first = values[0];
  const init = isObj(first) && first.type === 'system' && first.subtype === 'init';
  return {
    confidence: Math.min(1, (init ? 0.85 : 0.7) + 0.13 * share),
    reason: init ? 'Claude Code stream-json: system/init first, messages with session_id and parent_tool_use_id' : 'Claude Code stream-json messages (session_id, parent_tool_use_id)',
    dialect: 'stream-json',
  };
}

/** Text that identifies an element inside a document: its uuid, tool ids, timestamp. */
function elementNeedles(v: unknown): string[] {
  if (!isObj(v)) return [];
  const out: string[] = [];
  const add = (key: string, val: unknown) => {
    if (typeof val !== 'string') return;
    const j = JSON.stringify(val);
    out.push(`"${key}": ${j}`, `"${key}":${j}`);
  };
  add('uuid', v.uuid);
  const content = obj(v, 'message')?.content;
  if (Array.isArray(content)) {
    for (const b of content) if (isObj(b)) (b.type === 'tool_result' ? add('tool_use_id', b.tool_use_id) : add('id', b.id));
  }
  add('timestamp', v.timestamp);
  add('leafUuid', v.leafUuid);
  return out;
}

/** Gives document elements their own lines; never goes backwards, since elements are in document order. */
class ElementLocator {
  private last = 0;
  private readonly budget = new LocateBudget();

  place(rec: SourceRecord, v: unknown): SourceRecord {
    if (!rec.locate) return rec;
    // The nearest needle after the previous element is closest to this element's start.
    let line: number | null = null;
    for (const needle of elementNeedles(v)) {
      const found = this.budget.locate(rec, needle);
      if (found !== null && found > this.last && (line === null || found < line)) line = found;
    }
    line = line ?? Math.max(this.last, rec.line);
    this.last = line;
    return { ...rec, line };
  }
}

/** `d` with the label it leaves to its line made now from `value` (see EventDraft.lineLabel). */
function settled(d: EventDraft, value: unknown): EventDraft {
  if (d.lineLabel) {
    d.label = deriveSafely(d.lineLabel, value, d) ?? '';
    d.lineLabel = undefined;
  }
  return d;
}

/**
 * Claude Code session transcripts: each line's recorded link is its parentUuid (stream-json: the run structure),
 * and it is shown in the session's shape (ClaudeSessionShape); labels from message content.
 */
export const claudeCodeAdapter: FormatAdapter = {
  name: 'claude-code',
  title: 'Claude Code transcript',
  sniff: sniffClaude,
  createBuilder(source): EventBuilder {
    const fork = new ClaudeFork();
    // A copied response of a fork's origin keeps its amended usage apart (ClaudeFork), uncounted.
    const state = new ClaudeState((i, tokensIn, tokensOut, usage) => {
      if (!fork.amended(i, tokensIn, tokensOut, usage)) source.setUsage(i, tokensIn, tokensOut, usage);
    });
    const locator = new ElementLocator();
    const own = new ClaudeToolTotals();
    const shape = new ClaudeSessionShape();
    let stream: StreamPlacer | null | undefined;
    /** Emits a transcript line's event, shown in the session's shape. */
    const emitLine = (emit: Emit, d: EventDraft, value: unknown, r: SourceRecord): void => {
      d.displayParent = shape.place(value);
      if (fork.inherited(value, r.line)) fork.mark(settled(d, value));
      else if (isObj(value) && value.type === 'cost-state') d.usage = fork.costState(d.usage);
      const index = emit(d, r);
      state.emitted(index);
      shape.emitted(index);
      fork.emitted(index);
    };
    return {
      add(rec, emit) {
        if (isObj(rec.value)) own.observe(rec.value);
        // The first record decides the dialect: stream-json has no parentUuid, so its tree is derived.
        if (stream === undefined) stream = isStreamLine(rec.value) ? new StreamPlacer() : null;
        if (stream && isObj(rec.value)) {
          // stream-json labels some lines its own way (describeStreamLine): made now, not left to the line.
          const d = settled(describeClaudeLine(rec.value, state), rec.value);
          describeStreamLine(rec.value, d);
          // A whole-session file's last result stands for its background subagents' output too (ClaudeToolTotals).
          const r = own.resultTokens;
          if (r !== null && d.usage) d.usage = { ...d.usage, input: r.input, output: r.output, cacheRead: r.cacheRead, cacheWrite: r.cacheCreation };
          if (rec.value.type === 'result' && d.status === 'error') state.countError();
          d.parentId = null;
          d.parentIndex = stream.place(rec.value);
          d.displayParent = shape.place(rec.value, { parent: d.parentIndex ?? -1, run: stream.currentRun });
          const index = emit(d, rec);
          state.emitted(index);
          stream.emitted(rec.value, index);
          shape.emitted(index);
          return;
        }
        const lines = rec.locate ? claudeLoglines(rec.value) : null;
        if (lines === null) {
          emitLine(emit, describeClaudeLine(rec.value, state), rec.value, locator.place(rec, rec.value));
          return;
        }
        if (lines.length === 0) emit({ kind: 'loglines', category: 'other', label: 'transcript document with no lines' }, rec);
        // An element of a document is not a line of its own: its label is made from it now.
        for (const el of lines) emitLine(emit, settled(describeClaudeLine(el, state), el), el, locator.place(rec, el));
      },
      totals: () => fork.totals(own.apply(state.totals())),
      origin: () => fork.origin(own.apply(state.totals())),
    };
  },
};

/** The records a transcript document holds, in the order the builder emits their events. */
export function claudeDocumentElements(doc: unknown): unknown[] {
  const lines = claudeLoglines(doc);
  if (lines) return lines.length === 0 ? [doc] : lines;
  return Array.isArray(doc) ? doc : [doc];
}

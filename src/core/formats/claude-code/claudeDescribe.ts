import { EventDraft, EventStatus, IdMention } from '../../model';
import { exitCodeInText, formatDuration, formatTokens, isObj, label, num, obj, Obj, parseTime, short, str, statusFromWord, toolCallLabel, toolResultLabel } from '../common';
import { BuilderSource, FormatTotals } from '../../format';
import type { UsageDraft } from '../../usageTypes';
import { costStateUsage } from './claudeUsage';
import { ClaudeUsage, contentBlocks, isInterruption, toolInputPreview, messageText, thinkingText, toolResults, toolUses, usageOf } from './claudeContent';
import { jsonPreview } from '../../json/jsonPreview';
import type { LabelFacts } from '../../lineLabels';

/** One API response's usage as its latest line reports it, and the event that carries it. */
interface Response {
  /** The event of the response's first line, which carries the response's usage; -1 until it is emitted. */
  carrier: number;
  usage: ClaudeUsage;
  reasoning: number | null;
  /** A stream-json response: its output count is the stream's start, never the response's (see describeAssistant). */
  stream: boolean;
  /** `message.stop_reason` as the latest line that has one records it (a split response's last line), else null. */
  stop: string | null;
}

/** The columns and facts an event carrying a response's usage gets. */
function carriedUsage(r: Response): { tokensIn: number | null; tokensOut: number | null; usage: UsageDraft } {
  return {
    tokensIn: r.usage.input,
    // stream-json prints each response at its stream's start, when output_tokens is still 1 or 2: the count
    // is not the response's, the run's `result` line has the real one.
    tokensOut: r.stream ? null : r.usage.output,
    usage: { cacheRead: r.usage.cacheRead, cacheWrite: r.usage.cacheCreation, ...(r.usage.cacheCreation1h ? { cacheWrite1h: r.usage.cacheCreation1h } : {}), reasoning: r.reasoning, ...(r.stop !== null ? { finishReasons: [r.stop] } : {}) },
  };
}

function sameUsage(a: Response, b: ClaudeUsage, reasoning: number | null): boolean {
  const u = a.usage;
  return u.input === b.input && u.output === b.output && u.cacheRead === b.cacheRead && u.cacheCreation === b.cacheCreation && u.cacheCreation1h === b.cacheCreation1h && a.reasoning === reasoning;
}

/** What the builder remembers across lines: tool calls by id, API responses by message id, totals. */
export class ClaudeState {
  /** Each call's name, time and main argument (its result's label says what it answers). */
  readonly toolUses = new Map<string, { name: string; time: number | null; arg: string | null }>();
  /**
   * Every API response by message id. Claude Code writes one line per content block of a response, each with a
   * usage snapshot: the early ones carry placeholder output counts (1, 8, 25…), the last line the real count.
   * This is the one place that decides a response's usage: its latest snapshot, carried by its first line's
   * event (amended through `setUsage` when a later line reports more), so the rollups, the columns and the
   * totals all count each response once, at its final snapshot.
   */
  private readonly responses = new Map<string, Response>();
  /** The response whose first line is being emitted (its event index comes from `emitted`). */
  private opened: Response | null = null;
  private toolCalls = 0;
  private errors = 0;
  /** Failed API requests Claude Code reported and retried (`api_error` / `api_retry` lines). */
  private apiErrors = 0;

  constructor(private readonly setUsage: BuilderSource['setUsage'] = () => undefined) {}

  /** True when an earlier line already carried this API response (a split message). */
  seenResponse(messageId: string | null): boolean {
    return messageId !== null && this.responses.has(messageId);
  }

  /**
   * Records one line's usage snapshot of a response and gives the usage its event carries: the response's first
   * line carries it; a later line carries none (`elsewhere`), and when its snapshot differs (the real output count
   * after a placeholder) the first line's event is amended to it.
   */
  responseUsage(messageId: string | null, u: ClaudeUsage, reasoning: number | null, stream: boolean, stop: string | null = null): { tokensIn: number | null; tokensOut: number | null; usage: UsageDraft } {
    const known = messageId === null ? undefined : this.responses.get(messageId);
    if (!known) {
      const r: Response = { carrier: -1, usage: u, reasoning, stream, stop };
      this.responses.set(messageId ?? `anonymous:${this.responses.size}`, r);
      this.opened = r;
      return carriedUsage(r);
    }
    const newStop = stop !== null && stop !== known.stop;
    if (!sameUsage(known, u, reasoning) || newStop) {
      known.usage = u;
      known.reasoning = reasoning;
      if (newStop) known.stop = stop;
      if (known.carrier >= 0) {
        const c = carriedUsage(known);
        this.setUsage(known.carrier, c.tokensIn, c.tokensOut, c.usage);
      }
    }
    return { tokensIn: null, tokensOut: null, usage: { elsewhere: true, repeat: 'snapshot' } };
  }

  /** The event index of the line just described (the adapter calls this after each emit). */
  emitted(index: number): void {
    if (this.opened) this.opened.carrier = index;
    this.opened = null;
  }

  countToolCall(): void {
    this.toolCalls++;
  }

  countError(): void {
    this.errors++;
  }

  /** A failed API request Claude Code retries: an error of the session and an API error. */
  countApiError(): void {
    this.errors++;
    this.apiErrors++;
  }

  totals(): FormatTotals {
    let inputTokens = 0;
    let outputTokens = 0;
    let cacheReadTokens = 0;
    let cacheCreationTokens = 0;
    for (const { usage: r } of this.responses.values()) {
      inputTokens += r.input ?? 0;
      outputTokens += r.output ?? 0;
      cacheReadTokens += r.cacheRead;
      cacheCreationTokens += r.cacheCreation;
    }
    const t: FormatTotals = { toolCalls: this.toolCalls, errors: this.errors };
    if (this.apiErrors > 0) t.apiErrors = this.apiErrors;
    if (this.responses.size > 0) Object.assign(t, { inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens });
    return t;
  }
}

/** `head: text…`, or just `head` when there is no text. */
export function withText(head: string, text: string, max: number): string {
  const t = short(text, max);
  return t ? `${head}: ${t}` : head;
}

/** Fields every Claude Code line shares: uuid tree, time, session (sidechains get their own group). */
function baseDraft(v: Obj, type: string): EventDraft {
  const session = str(v, 'sessionId');
  const mentions: IdMention[] = [];
  for (const f of ['agentId', 'leafUuid', 'logicalParentUuid', 'toolUseID', 'parentToolUseID', 'messageId', 'requestId']) {
    const id = str(v, f);
    if (id) mentions.push({ field: f, id });
  }
  // An Agent/Task result names the subagent it started; its transcript lines carry the same agentId.
  const agent = str(obj(v, 'toolUseResult'), 'agentId');
  if (agent) mentions.push({ field: 'toolUseResult.agentId', id: agent });
  return {
    kind: type,
    category: 'other',
    id: str(v, 'uuid'),
    // A compaction boundary starts with parentUuid null; logicalParentUuid keeps it in the conversation's tree.
    parentId: str(v, 'parentUuid') ?? str(v, 'logicalParentUuid'),
    time: parseTime(v.timestamp),
    label: type,
    // A sidechain's clock runs beside the main chain's; separate groups keep time-order checks meaningful.
    group: session === null ? null : v.isSidechain === true ? `${session}/sidechain` : session,
    mentions,
  };
}

function describeUser(v: Obj, d: EventDraft, st: ClaudeState): void {
  const msg = obj(v, 'message');
  const blocks = contentBlocks(msg);
  const results = toolResults(blocks);
  if (results.length > 0) {
    // A result whose call is not in the file (a truncated head) keeps no name rather than a guess.
    const names = results.map((r) => (r.toolUseId && st.toolUses.get(r.toolUseId)?.name) || '').filter((n) => n !== '');
    const first = results[0].toolUseId ? st.toolUses.get(results[0].toolUseId) : undefined;
    const failed = results.some((r) => r.isError);
    const interrupted = results.some((r) => isInterruption(r.text));
    d.category = 'tool';
    d.tool = names[0] ?? null;
    d.durationMs = d.time != null && first?.time != null ? Math.max(0, d.time - first.time) : null;
    d.status = failed ? 'error' : interrupted ? 'warning' : 'ok';
    if (failed) results.forEach((r) => r.isError && st.countError());
    // The label says the call it answers (its argument is on the call's line) and what came of it.
    d.label = resultLabel(v, results, names.join(', '), first?.arg ?? null, d.durationMs);
    results.forEach((r) => r.toolUseId && d.mentions!.push({ field: `message.content[${r.index}].tool_use_id`, id: r.toolUseId }));
    return;
  }
  const text = messageText(blocks) || (typeof msg?.content === 'string' ? msg.content : '');
  d.category = 'message';
  d.status = isInterruption(text) ? 'warning' : 'ok';
  d.lineLabel = claudeLineLabel;
}

/** A tool result line's label (common.ts toolResultLabel): the call's name and argument, exit code, lines read, duration. */
function resultLabel(v: Obj, results: ReturnType<typeof toolResults>, names: string, arg: string | null, durationMs: number | null | undefined): string {
  const failed = results.some((r) => r.isError);
  const out = obj(v, 'toolUseResult');
  const lines = num(obj(out, 'file'), 'numLines');
  return toolResultLabel({ tool: names || 'tool_result', arg: results.length === 1 ? arg : null, cwd: str(v, 'cwd'), exitCode: exitCodeInText(results[0].text), failed, error: results[0].text, lines, durationMs });
}

/** A user line's label: a prompt's text, or its one tool result with the call's name (`tool`) and duration. */
function userLabel(v: Obj, tool: string | null, durationMs: number | null | undefined): string | null {
  const msg = obj(v, 'message');
  const blocks = contentBlocks(msg);
  const results = toolResults(blocks);
  if (results.length > 1) return null;
  if (results.length === 1) return resultLabel(v, results, tool ?? '', null, durationMs);
  const text = messageText(blocks) || (typeof msg?.content === 'string' ? msg.content : '');
  const images = blocks.filter((b) => b.type === 'image').length;
  const prefix = v.isCompactSummary === true ? 'compact summary' : v.isMeta === true ? 'user (meta)' : 'user';
  return withText(label(prefix, images > 0 ? `[${images} image${images > 1 ? 's' : ''}]` : null), text || '(no text)', 72);
}

/**
 * The label of a transcript line made from the line, and for a tool result from the event's tool and duration
 * (the call's name and time come from an earlier line; the builder never changes them after the event is added).
 * An assistant line's is that of a response's first line, with the event's tokens: the builder keeps the label of
 * a line that continues a response (known only from the lines before), and leaves the others to the line
 * (`EventDraft.lineLabel`), so a large transcript keeps no text for them.
 */
export function claudeLineLabel(v: unknown, facts?: LabelFacts): string | null {
  if (!isObj(v)) return null;
  const type = str(v, 'type') ?? 'record';
  switch (type) {
    case 'user':
      return userLabel(v, facts?.tool ?? null, facts?.durationMs);
    case 'assistant':
      return assistantLabel(v, formatTokens(facts?.tokensIn ?? null, facts?.tokensOut ?? null), null);
    case 'system': {
      const subtype = str(v, 'subtype');
      if (subtype !== null && API_RETRY_SUBTYPES.has(subtype)) {
        const f = apiRetryFacts(v);
        const retry = f.attempt === null ? null : `retry ${f.attempt}${f.max === null ? '' : `/${f.max}`}`;
        return label('system', subtype, f.status === null ? null : String(f.status), retry);
      }
      return withText(label('system', subtype), typeof v.content === 'string' ? v.content : '', 60);
    }
    case 'summary':
      return withText('summary', str(v, 'summary') ?? '', 72);
    default:
      return label(type, str(v, 'subtype'), str(v, 'operation'));
  }
}

function assistantStatus(v: Obj, msg: Obj | null): EventStatus {
  if (v.isApiErrorMessage === true) return 'error';
  const stop = str(msg, 'stop_reason');
  if (stop === 'max_tokens' || stop === 'refusal') return 'warning';
  return 'ok';
}

function describeAssistant(v: Obj, d: EventDraft, st: ClaudeState): void {
  const msg = obj(v, 'message');
  const blocks = contentBlocks(msg);
  const uses = toolUses(blocks);
  const messageId = str(msg, 'id');
  const continued = st.seenResponse(messageId);
  const usage = usageOf(msg);
  d.model = str(msg, 'model');
  // A response split over several lines repeats its usage: its first line's event carries it (see responseUsage).
  if (usage) {
    const carried = st.responseUsage(messageId, usage, thinkingTokens(msg), isStreamMessage(v), str(msg, 'stop_reason'));
    d.tokensIn = carried.tokensIn;
    d.tokensOut = carried.tokensOut;
    d.usage = carried.usage;
  }
  if (messageId) d.mentions!.push({ field: 'message.id', id: messageId });
  d.status = assistantStatus(v, msg);
  if (d.status === 'error') st.countError();
  for (const u of uses) {
    st.countToolCall();
    if (u.id) {
      st.toolUses.set(u.id, { name: u.name, time: d.time ?? null, arg: toolInputPreview(blocks[u.index].input) || null });
      d.mentions!.push({ field: `message.content[${u.index}].id`, id: u.id });
    }
  }
  d.category = uses.length > 0 ? 'tool' : 'inference';
  if (uses.length > 0) d.tool = uses[0].name;
  // A response's first line: its label is the line's, with the event's tokens. A line that continues a response
  // says so ("(cont.)"), which only the lines before tell: its label is kept.
  if (continued) d.label = assistantLabel(v, formatTokens(d.tokensIn, d.tokensOut), '(cont.)');
  else d.lineLabel = claudeLineLabel;
}

/** An assistant line's label: its tool calls or text, with the response's model, `tokens` and `cont`. */
function assistantLabel(v: Obj, tokens: string | null, cont: string | null): string {
  const msg = obj(v, 'message');
  const blocks = contentBlocks(msg);
  const uses = toolUses(blocks);
  // The model is not repeated on every row: the header, the detail pane and the model column say it.
  // A tool call says the tool and what it was asked (common.ts toolCallLabel); its tokens are the Tokens column's.
  if (uses.length > 0) {
    return toolCallLabel({ tool: uses.map((u) => u.name).join(', '), arg: uses.length === 1 ? toolInputPreview(blocks[uses[0].index].input) : null, cwd: str(v, 'cwd') });
  }
  const text = messageText(blocks);
  const thinking = thinkingText(blocks);
  const word = text ? 'assistant' : thinking ? 'thinking' : 'assistant';
  return withText(label(word, tokens, cont), text || thinking || '(no text)', 60);
}

/**
 * A failed API request Claude Code retries. Transcripts write `system`/`api_error` for each retry (`level` error,
 * `error.status` such as 529, `retryAttempt`, `maxRetries`, `retryInMs`); stream-json prints `system`/`api_retry`
 * (`attempt`, `max_retries`, `retry_delay_ms`, `error_status`, `error`). A request that fails for good is an
 * assistant line with `isApiErrorMessage` instead.
 */
const API_RETRY_SUBTYPES: ReadonlySet<string> = new Set(['api_error', 'api_retry']);

/** An api_error / api_retry line's HTTP status, attempt and maximum, as written in either dialect. */
function apiRetryFacts(v: Obj): { status: number | null; attempt: number | null; max: number | null } {
  return {
    status: num(obj(v, 'error'), 'status') ?? num(v, 'error_status'),
    attempt: num(v, 'retryAttempt') ?? num(v, 'attempt'),
    max: num(v, 'maxRetries') ?? num(v, 'max_retries'),
  };
}

function describeSystem(v: Obj, d: EventDraft, st: ClaudeState): void {
  const subtype = str(v, 'subtype');
  const level = str(v, 'level');
  const apiError = subtype !== null && API_RETRY_SUBTYPES.has(subtype);
  d.category = apiError ? 'error' : 'other';
  d.status = level === 'error' || apiError ? 'error' : level === 'warning' ? 'warning' : statusFromWord(subtype) ?? 'ok';
  if (apiError) {
    st.countApiError();
    // Counted as a recorded retry of the request (usage report `retries`) when the line says which attempt it is.
    const { attempt } = apiRetryFacts(v);
    if (attempt !== null) d.usage = { retry: { attempt } };
  }
  if (subtype === 'compact_boundary') {
    const meta = obj(v, 'compactMetadata');
    d.usage = { compaction: { preTokens: num(meta, 'preTokens'), trigger: str(meta, 'trigger') } };
  }
  d.lineLabel = claudeLineLabel;
}

/** Turns one Claude Code transcript line into an event. Unknown types keep their type as the kind. */
export function describeClaudeLine(v: unknown, st: ClaudeState): EventDraft {
  if (!isObj(v)) {
    return { kind: Array.isArray(v) ? 'array' : typeof v, category: 'error', status: 'error', label: `not a transcript line: ${short(jsonPreview(v, 60), 60)}` };
  }
  const type = str(v, 'type') ?? 'record';
  const d = baseDraft(v, type);
  switch (type) {
    case 'user':
      describeUser(v, d, st);
      break;
    case 'assistant':
      describeAssistant(v, d, st);
      break;
    case 'system':
      describeSystem(v, d, st);
      break;
    case 'summary':
      d.lineLabel = claudeLineLabel;
      break;
    default:
      d.status = statusFromWord(type) ?? 'ok';
      d.lineLabel = claudeLineLabel;
      if (type === 'cost-state') d.usage = costStateUsage(v);
  }
  return d;
}

/** A stream-json message line (snake_case `session_id` and the `parent_tool_use_id` key transcripts never write). */
function isStreamMessage(v: Obj): boolean {
  return typeof v.session_id === 'string' && 'parent_tool_use_id' in v;
}

/** `usage.output_tokens_details.thinking_tokens`, when the response reports it. */
function thinkingTokens(msg: Obj | null): number | null {
  return num(obj(obj(msg, 'usage'), 'output_tokens_details'), 'thinking_tokens');
}

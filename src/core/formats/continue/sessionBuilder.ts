import { EventDraft } from '../../model';
import { argsSummary, exitCodeInText, formatTokens, isObj, label, num, Obj, short, str, toolCallLabel, toolResultLabel } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import type { UsageDraft } from '../../usageTypes';
import { sessionCreatedSync } from './sessionIndex';
import { callArgs, FAILED_STATUSES, isHistoryItem, messageText, outputText } from './continueRecords';

/** The record placed at the first line holding one of `needles` (tried in order), else where it was. */
function at(rec: SourceRecord, ...needles: string[]): SourceRecord {
  for (const n of needles) {
    const line = rec.locate?.(n);
    if (line) return { ...rec, line };
  }
  return rec;
}

/** `"key": value` as Continue writes it (`JSON.stringify(session, null, 2)`), and without the space. */
const keyed = (key: string, value: string): string[] => [`"${key}": ${value}`, `"${key}":${value}`];

/**
 * Reads a Continue session document (`~/.continue/sessions/<sessionId>.json`): `{sessionId, title,
 * workspaceDirectory, history: [{message, contextItems, toolCallStates?}], usage}`. The history has no ids and no
 * times; the tree is the structure it implies, by the session model:
 *
 * - the **session** is the root; each `user` message is a **turn** under it (a `--resume` run appends its turns to
 *   the same document, so both runs' turns are there);
 * - each `assistant` message is a **model step** under its turn, with the message's `usage` (the API's usage as it
 *   came: `prompt_tokens` include the cached ones) and each of its `toolCalls` a **tool call** under the step;
 * - a call's **result** is the item's `toolCallStates` entry with its `toolCallId`, under the call; status
 *   `errored` or `canceled` is a failed call (the call and its result are errors, counted once);
 * - the session's own `usage` (`promptTokens`, `completionTokens`, `totalCost` in USD) is a totals row: the sum the
 *   steps are checked against, and the session's cost (never priced from a table). Its `cachedTokens` is left out:
 *   Continue 1.5 keeps it at 0 although the messages report cached tokens.
 *
 * Each event is placed at its own line of the document (its message, call id or result).
 */
export class SessionBuilder implements EventBuilder {
  constructor(private readonly path: string | null = null) {}

  private session = -1;
  private turn = -1;
  private group: string | null = null;
  private readonly calls = new Map<string, number>();
  private readonly answered = new Set<string>();
  /** The models the steps name: a session of one model records that model's cost too. */
  private readonly models = new Set<string | null>();
  private toolCalls = 0;
  private failedCalls = 0;
  /** The steps' usage, summed, and the last Subagent call that ran (its subagent's messages are written nowhere). */
  private readonly seen = { input: 0, output: 0, partial: false };
  private subagentCall = -1;
  private readonly notes: string[] = [];
  private total: FormatTotals = {};

  add(rec: SourceRecord, emit: Emit): void {
    const doc = rec.value as Obj;
    this.group = str(doc, 'sessionId');
    const title = str(doc, 'title');
    const workspace = str(doc, 'workspaceDirectory');
    // The document holds no time: the index beside it records when the session was created.
    const created = this.path !== null ? sessionCreatedSync(this.path, this.group) : null;
    this.session = emit({ kind: 'session', category: 'session', id: this.group, group: this.group, time: created,
      label: label('session', this.group?.slice(0, 8), title && title !== 'Untitled Session' ? short(title, 60) : null, workspace) }, rec);
    const history = Array.isArray(doc.history) ? doc.history : [];
    for (const item of history) {
      if (!isHistoryItem(item)) {
        emit({ kind: 'record', category: 'other', parentIndex: this.turnOrSession(), group: this.group, label: 'history item without a message' }, rec);
        continue;
      }
      this.item(item, rec, emit);
    }
    this.usage(doc, rec, emit);
  }

  totals(): FormatTotals {
    return { ...this.total, toolCalls: this.toolCalls, errors: this.failedCalls };
  }

  usageNotes(): string[] {
    return this.notes;
  }

  private turnOrSession(): number {
    return this.turn >= 0 ? this.turn : this.session;
  }

  private item(item: Obj, rec: SourceRecord, emit: Emit): void {
    const m = item.message as Obj;
    const where = at(rec, ...keyed('message', '{'));
    // Moves the document search past this message's start, so the next item's message is found after it.
    rec.locate?.('"role"');
    const text = messageText(m.content);
    const base = { group: this.group };
    switch (m.role) {
      case 'user':
        this.turn = emit({ ...base, kind: 'user', category: 'turn', parentIndex: this.session, label: label('user:', short(text, 80)) }, where);
        return;
      case 'assistant':
        return this.assistant(item, m, text, where, rec, emit);
      case 'tool': {
        // Continue keeps results in toolCallStates; a tool message (older histories) goes under its call too.
        const id = str(m, 'toolCallId');
        if (id && this.answered.has(id)) return;
        const call = id !== null ? this.calls.get(id) : undefined;
        emit({ ...base, kind: 'tool_result', category: 'message', parentIndex: call ?? this.turnOrSession(),
          mentions: id ? [{ field: 'toolCallId', id }] : [], label: label('tool result', short(text, 60)) }, where);
        return;
      }
      default:
        emit({ ...base, kind: String(m.role), category: 'other', parentIndex: this.turnOrSession(), label: label(`${m.role}:`, short(text, 80)) }, where);
    }
  }

  private assistant(item: Obj, m: Obj, text: string, where: SourceRecord, rec: SourceRecord, emit: Emit): void {
    const u = isObj(m.usage) ? m.usage : null;
    const prompt = num(u, 'prompt_tokens');
    const out = num(u, 'completion_tokens');
    const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObj) : [];
    const states = Array.isArray(item.toolCallStates) ? item.toolCallStates.filter(isObj) : [];
    const stateOf = (id: string | null) => (id === null ? null : states.find((s) => s.toolCallId === id) ?? null);
    // prompt_tokens include the cached ones (prompt_tokens_details.cached_tokens is a part of them), as the
    // Chat Completions API reports them; reasoning tokens are a part of completion_tokens.
    const usage: UsageDraft | undefined = u ? {
      cacheRead: num(u.prompt_tokens_details, 'cached_tokens'),
      cacheWrite: num(u.prompt_tokens_details, 'cache_write_tokens'),
      reasoning: num(u.completion_tokens_details, 'reasoning_tokens'),
    } : undefined;
    const model = str(u, 'model');
    if (u) this.models.add(model);
    this.seen.input += prompt ?? 0;
    this.seen.output += out ?? 0;
    if (prompt === null || out === null) this.seen.partial = true;
    const step = emit({
      group: this.group, kind: 'assistant', category: 'inference', model, tokensIn: prompt, tokensOut: out, usage,
      parentIndex: this.turnOrSession(),
      label: label('continue:', short(text, 70), calls.length ? `(${calls.length} tool call${calls.length > 1 ? 's' : ''})` : null, formatTokens(prompt, out)),
    }, where);
    for (const c of calls) {
      const id = str(c, 'id');
      const state = stateOf(id);
      const name = str(c.function, 'name') ?? str(state?.toolCall, 'name') ?? 'tool';
      const status = str(state, 'status');
      const failed = status !== null && FAILED_STATUSES.has(status);
      const arg = argsSummary(callArgs(c, state));
      const draft: EventDraft = { kind: 'tool_call', category: 'tool', id, tool: name, group: this.group, parentIndex: step,
        status: failed ? 'error' : 'ok', label: label(toolCallLabel({ tool: name, arg }), failed ? `(${status})` : null) };
      const idx = emit(draft, id ? at(rec, ...keyed('id', JSON.stringify(id))) : where);
      this.toolCalls++;
      if (failed) this.failedCalls++;
      if (id) this.calls.set(id, idx);
      if (name === 'Subagent' && status === 'done') this.subagentCall = idx;
      if (state) this.result(state, id, name, idx, rec, emit, arg);
    }
    // A state whose call the message does not list (a writer that kept only the states) still shows, under the step.
    for (const s of states) {
      const id = str(s, 'toolCallId');
      if (id !== null && !this.calls.has(id)) this.result(s, id, str(s.toolCall, 'name') ?? 'tool', step, rec, emit);
    }
  }

  private result(state: Obj, id: string | null, name: string, call: number, rec: SourceRecord, emit: Emit, arg: string | null = null): void {
    const status = str(state, 'status');
    // A call that never ran (generating, generated, calling) has no result yet.
    if (status !== 'done' && !(status !== null && FAILED_STATUSES.has(status)) && !Array.isArray(state.output)) return;
    const failed = status !== null && FAILED_STATUSES.has(status);
    if (id) this.answered.add(id);
    const text = outputText(state.output);
    emit({
      kind: 'tool_result', category: 'message', status: failed ? 'error' : 'ok', group: this.group, parentIndex: call,
      mentions: id ? [{ field: 'toolCallId', id }] : [],
      label: toolResultLabel({ tool: name, arg, exitCode: exitCodeInText(text), failed, error: text }),
    }, id ? at(rec, ...keyed('toolCallId', JSON.stringify(id))) : rec);
  }

  /**
   * The session's usage counts requests its history does not hold: a subagent run in the TUI (its messages are
   * written nowhere, yet its requests are in the session's usage). One row with the difference, under the Subagent
   * call when one ran, so the session's totals are the tool's own; said in `usage.explain.notes`.
   */
  private unrecorded(input: number | null, output: number | null, model: string | null, rec: SourceRecord, emit: Emit): void {
    const extraIn = input === null ? 0 : input - this.seen.input;
    const extraOut = output === null ? 0 : output - this.seen.output;
    // A message without its counts (a damaged line) is a gap, not a request elsewhere.
    if ((extraIn <= 0 && extraOut <= 0) || this.seen.partial) return;
    const inIn = Math.max(0, extraIn);
    const inOut = Math.max(0, extraOut);
    const under = this.subagentCall >= 0 ? this.subagentCall : this.session;
    emit({ kind: 'unrecorded_requests', category: 'inference', group: this.group, parentIndex: under, model, tokensIn: inIn, tokensOut: inOut, usage: {},
      label: label('requests not in the history', this.subagentCall >= 0 ? '(the subagent\'s)' : null, formatTokens(inIn, inOut)) }, rec);
    const n = (x: number) => x.toLocaleString('en-US');
    this.notes.push(`The session's usage (line ${rec.line}) counts ${n(inIn)} input and ${n(inOut)} output tokens more than its messages: requests its history does not hold${this.subagentCall >= 0 ? ' (the Subagent call\'s subagent, whose messages Continue writes nowhere)' : ''}. They are one row${this.subagentCall >= 0 ? ' under that call' : ''}, so the totals are the session's own.`);
  }

  /** The session's `usage`: its totals row. */
  private usage(doc: Obj, rec: SourceRecord, emit: Emit): void {
    const u = isObj(doc.usage) ? doc.usage : null;
    if (!u) return;
    const input = num(u, 'promptTokens');
    const output = num(u, 'completionTokens');
    const cost = num(u, 'totalCost');
    const write = num(u.promptTokensDetails, 'cacheWriteTokens');
    const usage: UsageDraft = { source: 'totals', input, output, cacheWrite: write || null, costUsd: cost };
    // The session's cost is its one model's when every step names the same one (Continue records no split).
    const [only] = this.models;
    if (cost !== null && this.models.size === 1 && only) usage.byModel = { [only]: { costUsd: cost } };
    const where = at(rec, '"totalCost"', ...keyed('usage', '{'));
    this.unrecorded(input, output, only && this.models.size === 1 ? only : null, where, emit);
    emit({ kind: 'usage', category: 'other', group: this.group, parentIndex: this.session, tokensIn: input, tokensOut: output, usage,
      label: label('session usage', formatTokens(input, output), cost !== null ? `$${cost.toFixed(4)}` : null) }, where);
    if (input !== null) this.total.inputTokens = input;
    if (output !== null) this.total.outputTokens = output;
    if (cost !== null) this.total.costUsd = cost;
  }
}

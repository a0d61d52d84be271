import type { EventDraft } from '../../model';
import { argsSummary, formatCount, formatTokens, isObj, label, num, Obj, parseTime, short, str, toolCallLabel, type ToolStep } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';
import { contentBlocks, messageText, piUsage, responseFailed, resultLabel, toolCalls } from './piRecords';

/** One event waiting for the end of the file; `displayParent` and `parentIndex` are positions in the same list. */
interface Pending {
  draft: EventDraft;
  place: SourceRecord;
  /** The session entry it belongs to (a tool call: its assistant message's), to mark entries off the active branch. */
  entry: string | null;
}

/**
 * Reads a pi session file (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`): a `session` header, then entries
 * `{type, id, parentId, timestamp}` whose `parentId`s form a TREE (pi's SessionManager appends each entry under the
 * current leaf; `/tree` and forks move the leaf to an earlier entry, so the next entry starts a second child there,
 * a branch, in the same file). The links stay each entry's recorded fact; the rows nest by the session model
 * (`EventDraft.displayParent`):
 *
 * - the header is the session row; a **turn** is a user message, under it;
 * - a **model step** is an assistant message, under its turn, with its `usage` (pi's `input` leaves out the cache
 *   reads and writes: the input the model read is the three added up) and pi's own cost (`usage.cost.total`);
 *   each `toolCall` block is a **tool call** row under the step;
 * - a **tool result** (`toolResult` message) goes under its call (`toolCallId`); `isError` marks the call failed;
 * - a compaction, a branch summary and the first entry of a branch that is no user message are rows of the session
 *   that what follows goes under until the next prompt; every other entry (model and thinking-level changes,
 *   extension entries, labels, session info, an entry type pi may add later) goes under the current turn.
 *
 * An entry whose parent is not the entry written before it starts a branch: its label says where from. pi resumes a
 * session at its last entry (the leaf), so the entries that are not on the leaf's path are labelled off the active
 * branch; for that the events are emitted once the file is read (`finish`), as Gemini CLI's rewinds are. A resumed
 * session (`--continue`) appends its prompts to the file: each is a turn of its own.
 */
export class SessionBuilder implements EventBuilder {
  private readonly pending: Pending[] = [];
  private header = -1;
  private turn = -1;
  /** Each entry's recorded parent (null: a root), to walk the leaf's path. */
  private readonly parentOf = new Map<string, string | null>();
  private last: string | null = null;
  private readonly calls = new Map<string, number>();
  /** What each call asks and when, by call id: its result's row says it (common.ts toolResultLabel). */
  private readonly steps = new Map<string, ToolStep & { time: number | null }>();
  private readonly failed = new Set<string>();
  private toolCalls = 0;
  private failedResponses = 0;
  private branches = 0;

  add(rec: SourceRecord): void {
    const v = rec.value;
    const place: SourceRecord = { value: null, line: rec.line, offset: rec.offset, length: rec.length };
    if (!isObj(v)) {
      this.push({ kind: 'record', category: 'other', displayParent: this.under(), label: label('record', short(jsonPreview(v, 60), 60)) }, place, null);
      return;
    }
    const type = str(v, 'type') ?? 'record';
    if (type === 'session' && this.header < 0 && this.pending.length === 0) {
      const id = str(v, 'id');
      this.header = this.push({ kind: 'session', category: 'session', id, group: id, time: parseTime(v.timestamp), displayParent: -1,
        label: label('session', id?.slice(0, 8), str(v, 'cwd'), num(v, 'version') !== null && `v${num(v, 'version')}`, str(v, 'parentSession') && `forked from ${str(v, 'parentSession')}`) }, place, null);
      return;
    }
    const id = str(v, 'id');
    const parentId = typeof v.parentId === 'string' ? v.parentId : null;
    // A branch: the entry hangs under another entry than the one written before it.
    const branch = id !== null && this.last !== null && parentId !== this.last;
    if (id !== null) {
      this.parentOf.set(id, parentId);
      this.last = id;
    }
    if (branch) this.branches++;
    const from = branch ? `branch from ${parentId ?? 'the start'}:` : null;
    const base: EventDraft = { kind: type, label: '', id, parentId, time: parseTime(v.timestamp), group: this.group() };
    if (type === 'message') return this.message(v, base, from, place);
    const at = (opens: boolean): number => (opens || branch ? this.under() : this.turnOrBase());
    switch (type) {
      case 'compaction': {
        const before = num(v, 'tokensBefore');
        this.turn = this.push({ ...base, category: 'other', displayParent: at(true), usage: { compaction: { preTokens: before, trigger: v.fromHook === true ? 'extension' : null } },
          label: label(from, 'compaction', before !== null && `${formatCount(before)} tokens before`, short(str(v, 'summary') ?? '', 60)) }, place, id);
        return;
      }
      case 'branch_summary':
        this.turn = this.push({ ...base, category: 'other', displayParent: at(true), mentions: str(v, 'fromId') ? [{ field: 'fromId', id: str(v, 'fromId')! }] : [],
          label: label(from, 'branch summary', str(v, 'fromId') && `of ${str(v, 'fromId')}`, short(str(v, 'summary') ?? '', 60)) }, place, id);
        return;
      case 'model_change':
        return this.other(base, at(false), label(from, 'model', [str(v, 'provider'), str(v, 'modelId')].filter(Boolean).join('/')), place, branch);
      case 'thinking_level_change':
        return this.other(base, at(false), label(from, 'thinking level', str(v, 'thinkingLevel')), place, branch);
      case 'custom':
        return this.other(base, at(false), label(from, 'custom', str(v, 'customType')), place, branch);
      case 'custom_message': {
        const text = messageText({ content: v.content });
        this.push({ ...base, category: 'message', displayParent: at(false), label: label(from, 'custom message', str(v, 'customType'), short(text, 60)) }, place, id);
        if (branch) this.turn = this.pending.length - 1;
        return;
      }
      case 'label': {
        const target = str(v, 'targetId');
        const mentions = target ? [{ field: 'targetId', id: target }] : [];
        this.push({ ...base, category: 'other', displayParent: at(false), mentions, label: label(from, 'label', target, str(v, 'label') ?? '(cleared)') }, place, id);
        if (branch) this.turn = this.pending.length - 1;
        return;
      }
      case 'session_info':
        return this.other(base, at(false), label(from, 'session name', str(v, 'name')), place, branch);
      default:
        return this.other(base, at(false), label(from, type, short(jsonPreview(v, 60), 60)), place, branch);
    }
  }

  finish(emit: Emit): [] {
    const off = this.offBranch();
    const index: number[] = [];
    for (const p of this.pending) {
      const d = p.draft;
      const marked = p.entry !== null && off.has(p.entry) ? { label: `${d.label} (off the active branch)` } : {};
      const displayParent = d.displayParent === undefined || d.displayParent < 0 ? d.displayParent : index[d.displayParent];
      const parentIndex = typeof d.parentIndex === 'number' ? index[d.parentIndex] : d.parentIndex;
      index.push(emit({ ...d, ...marked, displayParent, ...(parentIndex !== undefined ? { parentIndex } : {}) }, p.place));
    }
    this.pending.length = 0;
    return [];
  }

  totals(): FormatTotals {
    return { toolCalls: this.toolCalls, errors: this.failed.size + this.failedResponses, ...(this.branches > 0 ? { branches: this.branches } : {}) };
  }

  /**
   * The entries off the leaf's path (the leaf: the last entry, where pi resumes). Empty when the file has no branch,
   * or when the path is broken (an entry names a parent the file does not hold: the tree findings say so, and
   * which side of the break is active is not known).
   */
  private offBranch(): Set<string> {
    const off = new Set<string>();
    if (this.branches === 0 || this.last === null) return off;
    const path = new Set<string>();
    let at: string | null = this.last;
    while (at !== null && !path.has(at)) {
      if (!this.parentOf.has(at)) return off;
      path.add(at);
      at = this.parentOf.get(at)!;
    }
    for (const id of this.parentOf.keys()) if (!path.has(id)) off.add(id);
    return off;
  }

  private message(v: Obj, base: EventDraft, from: string | null, place: SourceRecord): void {
    const m = isObj(v.message) ? v.message : null;
    const role = str(m, 'role');
    const id = base.id ?? null;
    switch (role) {
      case 'user':
        this.turn = this.push({ ...base, kind: 'user', category: 'turn', displayParent: this.under(), label: label(from, 'user:', short(messageText(m), 80)) }, place, id);
        return;
      case 'assistant': {
        const u = piUsage(m);
        const calls = toolCalls(m);
        const failed = responseFailed(m);
        if (failed) this.failedResponses++;
        const text = messageText(m) || contentBlocks(m).filter((b) => b.type === 'thinking').map((b) => (typeof b.thinking === 'string' ? b.thinking : '')).join('');
        const step = this.push({
          ...base, kind: 'assistant', category: 'inference', model: str(m, 'model'), status: failed ? 'error' : 'ok', displayParent: from ? this.under() : this.turnOrBase(),
          tokensIn: u?.tokensIn ?? null, tokensOut: u?.tokensOut ?? null, ...(u ? { usage: u.usage } : {}),
          label: label(from, 'pi:', short(failed ? str(m, 'errorMessage') ?? str(m, 'stopReason') ?? '' : text, 70), calls.length ? `(${calls.length} tool call${calls.length > 1 ? 's' : ''})` : null, u && formatTokens(u.tokensIn, u.tokensOut)),
        }, place, id);
        if (from) this.turn = step;
        for (const c of calls) {
          const callId = str(c, 'id');
          const name = str(c, 'name') ?? 'tool';
          const arg = argsSummary(c.arguments);
          const idx = this.push({ kind: 'tool_call', category: 'tool', id: callId, tool: name, time: base.time, group: base.group, parentIndex: step, label: toolCallLabel({ tool: name, arg }) }, place, id);
          this.toolCalls++;
          if (callId) {
        this.calls.set(callId, idx);
        this.steps.set(callId, { tool: name, arg, time: base.time ?? null });
      }
        }
        return;
      }
      case 'toolResult': {
        const callId = str(m, 'toolCallId');
        const call = callId !== null ? this.calls.get(callId) : undefined;
        const failed = m?.isError === true;
        if (failed && callId !== null && call !== undefined) {
          this.failed.add(callId);
          this.pending[call].draft.status = 'error';
        }
        const mentions = callId ? [{ field: 'toolCallId', id: callId }] : [];
        this.push({ ...base, kind: 'tool_result', category: 'message', status: failed ? 'error' : 'ok', mentions, displayParent: call ?? this.turnOrBase(),
          label: label(from, resultLabel(callId !== null ? this.steps.get(callId) : undefined, failed, base.time ?? null, messageText(m)) ?? label('tool result', str(m, 'toolName'), failed ? 'error' : null, short(messageText(m), 60))) }, place, id);
        return;
      }
      case 'bashExecution': {
        // The user's own `!` command, not the model's: a row of the session with its exit code.
        const exit = num(m, 'exitCode');
        this.push({ ...base, kind: 'bash_execution', category: 'message', displayParent: from ? this.under() : this.turnOrBase(),
          label: label(from, '!', short(str(m, 'command') ?? '', 60), exit !== null && `exit ${exit}`, m?.cancelled === true && 'cancelled') }, place, id);
        if (from) this.turn = this.pending.length - 1;
        return;
      }
      default: {
        // custom, branchSummary and compactionSummary messages, or a role pi may add later.
        const text = messageText(m) || (str(m, 'summary') ?? '');
        this.push({ ...base, kind: role ? `message:${role}` : 'message', category: 'message', displayParent: from ? this.under() : this.turnOrBase(),
          label: label(from, role ?? 'message', str(m, 'customType'), short(text, 60)) }, place, id);
        if (from) this.turn = this.pending.length - 1;
      }
    }
  }

  private other(base: EventDraft, displayParent: number, text: string, place: SourceRecord, branch: boolean): void {
    this.push({ ...base, category: 'other', displayParent, label: text }, place, base.id ?? null);
    if (branch) this.turn = this.pending.length - 1;
  }

  private push(draft: EventDraft, place: SourceRecord, entry: string | null): number {
    this.pending.push({ draft, place, entry });
    return this.pending.length - 1;
  }

  /** Where a row of the session goes: under the header (a root when the file has none). */
  private under(): number {
    return this.header;
  }

  private turnOrBase(): number {
    return this.turn >= 0 ? this.turn : this.header;
  }

  private group(): string | null {
    return this.header >= 0 ? this.pending[this.header].draft.group ?? null : null;
  }
}

import { isObj, obj, Obj, str } from '../common';
import { contentBlocks, isInterruption, messageText, toolResults, toolUses } from './claudeContent';

/**
 * What a user line that is neither a prompt nor a tool result starts with: the output of a local command or of
 * the `!` shell, which Claude Code writes as user lines after the command's own line.
 */
const COMMAND_OUTPUT = /^\s*<(local-command-(stdout|stderr)|bash-(stdout|stderr))>/;

/** One conversation a file holds: the main thread, a transcript's sidechain, or a subagent of a stream-json run. */
interface Thread {
  /** Where its turns hang: -1 (a transcript's roots), the stream-json run's init, or the subagent's tool call. */
  base: number;
  /** Its current turn: the prompt that opened it, or a compaction boundary; -1 before the first. */
  turn: number;
  /** The first line of each response of the current turn, by `message.id`. */
  steps: Map<string, number>;
}

/** What the line being placed opens, recorded once its event index is known. */
type Opens = { turn: Thread } | { step: Thread; messageId: string | null; toolUseIds: string[] } | null;

/**
 * The session shape of a Claude Code transcript or stream-json file, given to each line as its display parent
 * (`EventDraft.displayParent`; its `parentUuid` stays its recorded link):
 *
 * - a **turn** is a prompt (the user's, or a task notification Claude Code queues as one) and everything it caused:
 *   a root of a transcript, a child of its run in stream-json. A tool_result, meta, compact-summary or interruption
 *   line, or a command's output, is no prompt;
 * - a **model step** is one API response, under its turn: Claude Code writes one line per content block of a
 *   response, with the same `message.id`; the lines after the first go under the first;
 * - a **tool result** goes under the line holding its `tool_use` (matched by `tool_use_id`, parallel calls too);
 * - a **compaction** (`system`/`compact_boundary`) is a root (in stream-json: under its run), and what follows it,
 *   its compact summary first, goes under it until the next prompt;
 * - everything else (attachments, `queue-operation`, `file-history-snapshot`, `progress`, `system` lines, …) goes
 *   under the current turn (a progress line that names a tool call: under that call); before the first turn it is
 *   a root.
 *
 * A transcript's sidechain lines (`isSidechain`) are a thread of their own; in stream-json, a subagent's messages
 * (`parent_tool_use_id`) are one under the tool call that started it, and task reports go under that call.
 * So the tree is a few levels deep however long the session, and a line deleted or added changes the place of the
 * lines that name it only.
 */
export class ClaudeSessionShape {
  private readonly main: Thread = { base: -1, turn: -1, steps: new Map() };
  private side: Thread | null = null;
  /** The thread of the last line that said which one it is on (`isSidechain`); lines that do not say stay on it. */
  private current: Thread = this.main;
  /** stream-json: the threads of subagents, by the tool_use id that started each. */
  private readonly subagents = new Map<string, Thread>();
  /** Every tool_use id seen and not yet answered, to the line holding it. */
  private readonly toolUseLine = new Map<string, number>();
  private opens: Opens = null;
  /** stream-json: the line is an init, which opens a run. */
  private opensRun = false;

  /**
   * The display parent of a transcript line (or of any line, when `stream` is absent); for a stream-json line,
   * `stream` is where the run structure puts it (its run, its tool call, or for a result the run it ends).
   */
  place(v: unknown, stream?: { parent: number; run: number }): number {
    this.opens = null;
    this.opensRun = false;
    if (!isObj(v)) return container(this.current);
    if (stream) return this.placeStream(v, stream);
    if (v.isSidechain === true) this.current = this.side ??= { base: -1, turn: -1, steps: new Map() };
    else if (v.isSidechain === false) this.current = this.main;
    return this.placeLine(v, this.current);
  }

  /** Records what the line just placed opens, now that its event index is known. */
  emitted(index: number): void {
    const o = this.opens;
    this.opens = null;
    if (this.opensRun) {
      this.opensRun = false;
      Object.assign(this.main, { base: index, turn: -1 });
      this.main.steps.clear();
    }
    if (o === null) return;
    if ('turn' in o) {
      o.turn.turn = index;
      o.turn.steps.clear();
      return;
    }
    if (o.messageId !== null && !o.step.steps.has(o.messageId)) o.step.steps.set(o.messageId, index);
    for (const id of o.toolUseIds) if (!this.toolUseLine.has(id)) this.toolUseLine.set(id, index);
  }

  private placeStream(v: Obj, s: { parent: number; run: number }): number {
    if (v.type === 'system' && v.subtype === 'init') {
      this.opensRun = true;
      return -1;
    }
    if (v.type === 'result') return s.parent;
    if (v.type === 'user' || v.type === 'assistant' || (v.type === 'system' && v.subtype === 'compact_boundary')) {
      const ptu = str(v, 'parent_tool_use_id');
      let thread = this.main;
      if (ptu !== null) {
        thread = this.subagents.get(ptu) ?? { base: s.parent, turn: -1, steps: new Map() };
        this.subagents.set(ptu, thread);
      }
      return this.placeLine(v, thread);
    }
    // Task reports and tool progress name their tool call: the run structure has put them under it.
    return s.parent !== s.run ? s.parent : container(this.main);
  }

  private placeLine(v: Obj, thread: Thread): number {
    const type = str(v, 'type');
    if (type === 'assistant') return this.placeAssistant(v, thread);
    if (type === 'user') return this.placeUser(v, thread);
    if (type === 'system' && v.subtype === 'compact_boundary') {
      this.opens = { turn: thread };
      return thread.base;
    }
    if (type === 'progress') {
      const call = this.toolUseLine.get(str(v, 'parentToolUseID') ?? str(v, 'toolUseID') ?? '');
      if (call !== undefined) return call;
    }
    return container(thread);
  }

  private placeAssistant(v: Obj, thread: Thread): number {
    const msg = obj(v, 'message');
    const messageId = str(msg, 'id');
    const toolUseIds = toolUses(contentBlocks(msg)).flatMap((u) => (u.id ? [u.id] : []));
    this.opens = { step: thread, messageId, toolUseIds };
    const first = messageId === null ? undefined : thread.steps.get(messageId);
    return first ?? container(thread);
  }

  private placeUser(v: Obj, thread: Thread): number {
    const msg = obj(v, 'message');
    const blocks = contentBlocks(msg);
    const results = toolResults(blocks);
    if (results.length > 0) {
      // A call has one result: its id is dropped once matched, so the map holds the calls still running.
      let call: number | undefined;
      for (const r of results) {
        const line = r.toolUseId === null ? undefined : this.toolUseLine.get(r.toolUseId);
        if (line === undefined) continue;
        call ??= line;
        this.toolUseLine.delete(r.toolUseId!);
      }
      return call ?? container(thread);
    }
    if (v.isMeta === true || v.isCompactSummary === true || v.isVisibleInTranscriptOnly === true) return container(thread);
    const text = messageText(blocks) || (typeof msg?.content === 'string' ? msg.content : '');
    if (isInterruption(text) || COMMAND_OUTPUT.test(text)) return container(thread);
    this.opens = { turn: thread };
    return thread.base;
  }
}

/** Where a line that opens nothing goes in a thread: under its turn, else where its turns go. */
function container(t: Thread): number {
  return t.turn >= 0 ? t.turn : t.base;
}

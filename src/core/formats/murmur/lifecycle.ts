import { num, Obj } from '../common';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { CheckEvent, Placement, Segment } from './segments';

/** TraceWriter counters, as the writer keeps them (§4.4): per session from open, per task from task_start. */
interface Counts {
  inferences: number;
  okInferences: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  shellCalls: number;
  fromLine: number;
}

const zero = (fromLine: number): Counts => ({ inferences: 0, okInferences: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0, shellCalls: 0, fromLine });

/** Per-segment state of the lifecycle checks. */
interface SegState {
  seg: Segment;
  session: Counts;
  task: Counts;
  openTask: { taskId: string | null; line: number } | null;
  roots: number;
  /** Reference session id: the session_start's, else the first line's. */
  sessionId: string | null;
  /** Lines read before the reference session id was known. */
  early: { line: number; sessionId: string | null; eventId: string | null }[];
}

/**
 * Lifecycle and counter rules per session segment: session-start-first, single-root, session-end-once,
 * after-session-end, session-id-constant, task-nesting, total-* and task-end-counters.
 */
export class LifecycleCheck {
  private readonly out: Finding[] = [];
  private state: SegState | null = null;

  add(ev: CheckEvent, o: Obj, at: Placement): void {
    if (!this.state || this.state.seg !== at.seg) {
      this.close();
      this.state = { seg: at.seg, session: zero(ev.line), task: zero(ev.line), openTask: null, roots: 0, sessionId: null, early: [] };
    }
    const st = this.state;
    if (at.fresh && ev.type !== 'session_start') this.push('murmur/session-start-first', ev, `The session segment starts with ${ev.type || 'an event'}, not session_start (a line written before the session frame).`);
    this.trackSessionId(st, ev);
    this.trackRoots(st, ev);
    if (at.afterEnd && ev.type !== 'session_end') this.push('murmur/after-session-end', ev, `${ev.type} is written after the session_end on line ${st.seg.endLine}; only appender events, shell_lost or a torn fragment follow it.`);
    this.count(st, ev, o);
    if (ev.type === 'task_start') this.taskStart(st, ev);
    else if (ev.type === 'task_end') this.taskEnd(st, ev, o);
    else if (ev.type === 'session_end') this.sessionEnd(st, ev, o, at);
  }

  finish(): Finding[] {
    this.close();
    return this.out;
  }

  private close(): void {
    const st = this.state;
    if (!st) return;
    if (st.roots === 0) {
      this.out.push(MURMUR_CATALOG.finding('murmur/single-root', st.seg.firstLine,
        `The session segment starting on line ${st.seg.firstLine} has no session_start with a null parent_id (expected exactly one root).`));
    }
    if (st.sessionId === null && st.early.length > 0) this.settleEarly(st, st.early[0].sessionId);
    this.state = null;
  }

  private trackSessionId(st: SegState, ev: CheckEvent): void {
    if (st.sessionId === null && ev.type === 'session_start' && ev.sessionId !== null) this.settleEarly(st, ev.sessionId);
    if (st.sessionId === null) st.early.push({ line: ev.line, sessionId: ev.sessionId, eventId: ev.id });
    else this.compareSession(st, ev.line, ev.sessionId, ev.id);
  }

  private settleEarly(st: SegState, sessionId: string | null): void {
    st.sessionId = sessionId;
    for (const e of st.early) this.compareSession(st, e.line, e.sessionId, e.eventId);
    st.early = [];
  }

  private compareSession(st: SegState, line: number, sessionId: string | null, eventId: string | null): void {
    if (sessionId === null || sessionId === st.sessionId) return;
    this.out.push(MURMUR_CATALOG.finding('murmur/session-id-constant', line,
      `session_id is ${sessionId}, but this session segment (from line ${st.seg.firstLine}) belongs to ${st.sessionId}.`, eventId ? { eventId } : undefined));
  }

  private trackRoots(st: SegState, ev: CheckEvent): void {
    if (!ev.nullParent || ev.writer === 'prior') return;
    if (ev.type === 'session_start' && (st.roots === 0 || ev.id === st.seg.sessionEventId)) {
      // A repeated session_start of one writer carries the same id (§7.3): still one root.
      if (st.roots === 0) st.roots = 1;
      return;
    }
    st.roots++;
    const why = ev.type === 'session_start' ? 'a second session_start' : `${ev.type || 'an event'} written before session_start`;
    this.push('murmur/single-root', ev, `parent_id is null on ${why}; a session segment has exactly one root, its session_start${st.seg.sessionStartLine ? ` (line ${st.seg.sessionStartLine})` : ''}.`);
  }

  private count(st: SegState, ev: CheckEvent, o: Obj): void {
    for (const c of [st.session, st.task]) {
      if (ev.type === 'inference') {
        c.inferences++;
        if (o.error_code === undefined) c.okInferences++;
        c.inputTokens += num(o, 'input_tokens') ?? 0;
        c.outputTokens += num(o, 'output_tokens') ?? 0;
      } else if (ev.type === 'tool_call') c.toolCalls++;
      else if (ev.type === 'shell' || ev.type === 'shell_detached') c.shellCalls++;
    }
  }

  private taskStart(st: SegState, ev: CheckEvent): void {
    if (st.openTask) this.push('murmur/task-nesting', ev, `task_start ${ev.taskId ?? '?'} while task ${st.openTask.taskId ?? '?'} from line ${st.openTask.line} has no task_end; tasks do not nest.`);
    st.openTask = { taskId: ev.taskId ?? null, line: ev.line };
    st.task = zero(ev.line);
  }

  private taskEnd(st: SegState, ev: CheckEvent, o: Obj): void {
    if (!st.openTask) this.push('murmur/task-nesting', ev, `task_end ${ev.taskId ?? '?'} without an open task_start (a second task_end, or its task_start is missing).`);
    else if (st.openTask.taskId !== (ev.taskId ?? null)) this.push('murmur/task-nesting', ev, `task_end names task ${ev.taskId ?? '?'}, but the open task is ${st.openTask.taskId ?? '?'} (line ${st.openTask.line}).`);
    st.openTask = null;
    const c = st.task;
    const span = `lines ${c.fromLine}–${ev.line}`;
    this.exact('murmur/task-end-counters', ev, 'task_end.input_tokens', o.input_tokens, c.inputTokens, `the inference input_tokens over ${span}`);
    this.exact('murmur/task-end-counters', ev, 'task_end.output_tokens', o.output_tokens, c.outputTokens, `the inference output_tokens over ${span}`);
    this.exact('murmur/task-end-counters', ev, 'task_end.tool_calls', o.tool_calls, c.toolCalls, `the tool_call lines over ${span}`);
    this.exact('murmur/task-end-counters', ev, 'task_end.shell_calls', o.shell_calls, c.shellCalls, `the shell and shell_detached lines over ${span}`);
    this.range('murmur/task-end-counters', ev, 'task_end.turns', o.turns, c, span);
  }

  private sessionEnd(st: SegState, ev: CheckEvent, o: Obj, at: Placement): void {
    if (at.afterEnd) {
      this.push('murmur/session-end-once', ev, `A second session_end in this session segment (the first is on line ${st.seg.endLine}).`);
      return;
    }
    if (st.seg.sessionStartLine === null || st.seg.sessionStartLine > ev.line) {
      this.push('murmur/session-end-once', ev, 'session_end without a session_start before it in this session segment.');
    }
    const c = st.session;
    const span = `lines ${c.fromLine}–${ev.line}`;
    this.exact('murmur/total-tool-calls', ev, 'session_end.total_tool_calls', o.total_tool_calls, c.toolCalls, `the tool_call lines over ${span} (skill_call excluded)`);
    this.exact('murmur/total-shell-calls', ev, 'session_end.total_shell_calls', o.total_shell_calls, c.shellCalls, `the shell and shell_detached lines over ${span}`);
    this.exact('murmur/total-tokens', ev, 'session_end.total_input_tokens', o.total_input_tokens, c.inputTokens, `the inference input_tokens over ${span}`);
    this.exact('murmur/total-tokens', ev, 'session_end.total_output_tokens', o.total_output_tokens, c.outputTokens, `the inference output_tokens over ${span}`);
    this.range('murmur/total-turns', ev, 'session_end.total_turns', o.total_turns, c, span);
  }

  private exact(rule: MurmurRuleId, ev: CheckEvent, field: string, actual: unknown, expected: number, what: string): void {
    if (typeof actual !== 'number' || actual === expected) return; // a missing or mistyped counter is a required-fields / field-type finding
    this.push(rule, ev, `${field} is ${actual}, but ${what} add up to ${expected}.`);
  }

  /** Failed inferences count only when they reported spend, invisible on disk (§7.5): a range, not an equation. */
  private range(rule: MurmurRuleId, ev: CheckEvent, field: string, actual: unknown, c: Counts, span: string): void {
    if (typeof actual !== 'number' || (actual >= c.okInferences && actual <= c.inferences)) return;
    const expected = c.okInferences === c.inferences ? `${c.inferences}` : `between ${c.okInferences} and ${c.inferences}`;
    this.push(rule, ev, `${field} is ${actual}, expected ${expected}: the inference lines over ${span} (${c.inferences - c.okInferences} failed).`);
  }

  private push(rule: MurmurRuleId, ev: CheckEvent, message: string): void {
    this.out.push(MURMUR_CATALOG.finding(rule, ev.line, message, ev.id ? { eventId: ev.id } : undefined));
  }
}

import { Obj } from '../common';
import { murmurEventType } from './catalog';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { CheckEvent, Placement, Segment } from './segments';

/** What the parent rules keep per event. */
interface Node {
  ev: CheckEvent;
  planId: string | null;
  /** For TraceWriter events: the parent the writer's cursors give (§3.2); undefined when not replayed. */
  expected?: string | null;
}

/** Event types carrying the active task's id (§2.9); task_rejected names a task that never started, so it is not one. */
const TASK_SCOPED = new Set(['T', 'U', 'inference']);
/** Events whose task_id is the caller's argument, not the writer's active task: nothing to compare outside a task. */
const CALLER_TASK_ID = new Set(['task_end', 'task_canceled', 'task_reopened', 'task_continued']);

/**
 * parent-type, task-id-consistent and turn-consistent. Replays TraceWriter's cursors per session segment
 * (session_parent / task_parent / turn_parent) to know the exact parent each TraceWriter line must name;
 * appender and plan lines are checked by the parent's type. Parents that are missing, or written after a
 * TraceWriter child, are parent-exists findings and are skipped here.
 */
export class ParentRulesCheck {
  private readonly nodes: Node[] = [];
  private readonly byId = new Map<string, Node>();
  private seg: Segment | null = null;
  private session: string | null = null;
  private task: string | null = null;
  private turn: string | null = null;
  private readonly out: Finding[] = [];

  add(ev: CheckEvent, o: Obj, at: Placement): void {
    if (at.seg !== this.seg) {
      this.seg = at.seg;
      this.session = this.task = this.turn = null;
    }
    const node: Node = { ev, planId: typeof o.plan_id === 'string' ? o.plan_id : null };
    if (ev.writer === 'trace') node.expected = this.replay(ev);
    this.nodes.push(node);
    if (ev.id !== null && !this.byId.has(ev.id)) this.byId.set(ev.id, node);
  }

  finish(): Finding[] {
    for (const n of this.nodes) {
      const parent = n.ev.parent !== null ? this.byId.get(n.ev.parent) : undefined;
      if (!parent || (parent.ev.line > n.ev.line && n.ev.writer === 'trace')) continue;
      if (!this.checkType(n, parent)) continue;
      this.checkTask(n);
      this.checkTurn(n, parent);
    }
    return this.out;
  }

  /** The parent TraceWriter gives this event, then the cursor moves the event makes. */
  private replay(ev: CheckEvent): string | null {
    const rule = murmurEventType(ev.type)!.parent;
    const kind = rule === 'inference' ? (ev.hook ? 'U' : 'T') : rule;
    const expected = kind === 'root' ? null : kind === 'S' ? this.session : kind === 'T' ? this.task ?? this.session : this.turn ?? this.task ?? this.session;
    if (ev.type === 'session_start') this.session = ev.id;
    else if (ev.type === 'task_start') (this.task = ev.id), (this.turn = null);
    else if (ev.type === 'task_end') this.task = this.turn = null;
    else if (ev.type === 'inference' && !ev.hook) this.turn = ev.id;
    return expected;
  }

  /** Returns false when a finding was made, so the follow-on rules do not pile up on one broken link. */
  private checkType(n: Node, parent: Node): boolean {
    const ev = n.ev;
    const found = `${parent.ev.type || 'event'} on line ${parent.ev.line}`;
    if (n.expected !== undefined) {
      if (n.expected === ev.parent) return true;
      const want = n.expected === null ? 'null (no session frame was open)' : this.describe(n.expected);
      return this.push('murmur/parent-type', ev, `${ev.type}${ev.hook ? ' (hook origin)' : ''} should hang off ${want} by the writer's cursor rules, but parent_id names the ${found}.`);
    }
    const rule = murmurEventType(ev.type)?.parent;
    const ok = (types: string[], samePlan = false) =>
      types.includes(parent.ev.type) && (!samePlan || parent.ev.type !== 'plan_start' || parent.planId === n.planId);
    let want: string | null = null;
    if (rule === 'A' || rule === 'lost') want = ok(['session_start']) ? null : 'the session_start';
    else if (rule === 'P' && ev.type === 'plan_end') want = ok(['plan_start', 'session_start'], true) ? null : `plan ${n.planId ?? '?'}'s plan_start or the session_start`;
    else if (rule === 'P') want = ok(['plan_start'], true) ? null : `plan ${n.planId ?? '?'}'s plan_start`;
    if (want === null) return true;
    return this.push('murmur/parent-type', ev, `${ev.type} should hang off ${want}, but parent_id names the ${found}${parent.ev.type === 'plan_start' ? ` of plan ${parent.planId ?? '?'}` : ''}.`);
  }

  private checkTask(n: Node): void {
    const ev = n.ev;
    const rule = murmurEventType(ev.type)?.parent;
    if (!rule || !TASK_SCOPED.has(rule) || (ev.taskId === undefined && ev.type !== 'task_failed')) return;
    if (ev.type === 'task_rejected' || ev.type === 'task_start') return;
    // Walk up to the enclosing task_start; a broken chain is another rule's finding.
    let cur = ev.parent !== null ? this.byId.get(ev.parent) : undefined;
    for (let hops = 0; cur && cur.ev.type !== 'task_start' && hops < 4; hops++) cur = cur.ev.parent !== null ? this.byId.get(cur.ev.parent) : undefined;
    if (cur && cur.ev.type === 'task_start') {
      if (ev.taskId !== cur.ev.taskId) this.push('murmur/task-id-consistent', ev, `task_id is ${JSON.stringify(ev.taskId ?? null)}, but the enclosing task_start (line ${cur.ev.line}) is task ${JSON.stringify(cur.ev.taskId ?? null)}.`);
    } else if (ev.taskId !== null && ev.taskId !== undefined && !CALLER_TASK_ID.has(ev.type) && this.reachesRoot(ev)) {
      this.push('murmur/task-id-consistent', ev, `task_id is "${ev.taskId}", but the event is outside any task (no task_start above it); the writer writes null there.`);
    }
  }

  private reachesRoot(ev: CheckEvent): boolean {
    let cur: CheckEvent | undefined = ev;
    for (let hops = 0; cur && cur.parent !== null && hops < 5; hops++) cur = this.byId.get(cur.parent)?.ev;
    return cur !== undefined && cur.parent === null;
  }

  private checkTurn(n: Node, parent: Node): void {
    const ev = n.ev;
    const rule = murmurEventType(ev.type)?.parent;
    if (!(rule === 'U' || ev.hook) || parent.ev.type !== 'inference' || ev.turn === null || parent.ev.turn === null) return;
    if (ev.turn !== parent.ev.turn) this.push('murmur/turn-consistent', ev, `turn is ${ev.turn}, but its parent inference (line ${parent.ev.line}) is turn ${parent.ev.turn}.`);
  }

  private describe(id: string): string {
    const n = this.byId.get(id);
    return n ? `the ${n.ev.type} on line ${n.ev.line}` : id;
  }

  private push(rule: MurmurRuleId, ev: CheckEvent, message: string): false {
    this.out.push(MURMUR_CATALOG.finding(rule, ev.line, message, ev.id ? { eventId: ev.id } : undefined));
    return false;
  }
}

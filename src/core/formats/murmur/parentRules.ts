import { Obj } from '../common';
import { murmurEventType } from './catalog';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { CheckEvent, Placement, Segment } from './segments';
import { MurmurEventStore } from './eventStore';
import { NumberColumn } from '../../numberColumn';

/** Event types carrying the active task's id (§2.9); task_rejected names a task that never started, so it is not one. */
const TASK_SCOPED = new Set(['T', 'U', 'inference']);
/** Events whose task_id is the caller's argument, not the writer's active task: nothing to compare outside a task. */
const CALLER_TASK_ID = new Set(['task_end', 'task_canceled', 'task_reopened', 'task_continued']);

/**
 * parent-type, task-id-consistent and turn-consistent. Replays TraceWriter's cursors per session segment
 * (session_parent / task_parent / turn_parent) to know the exact parent each TraceWriter line must name;
 * appender and plan lines are checked by the parent's type. Parents that are missing, or written after a
 * TraceWriter child, are parent-exists findings and are skipped here. Events are the link check's store's
 * (its numbers, ids and parents); what this adds per event is a few small numbers in columns.
 */
export class ParentRulesCheck {
  /** For TraceWriter events: the event whose id the writer's cursors give as parent (§3.2), -1 for none; null when not replayed. */
  private readonly expected = new NumberColumn();
  /** task_id: -1 absent, 0 null, else 1 + its index in `tasks`. */
  private readonly taskCol = new NumberColumn();
  private readonly tasks: string[] = [];
  private readonly taskCodes = new Map<string, number>();
  private readonly turns = new NumberColumn();
  /** Turns that are numbers but not finite (1e999), which the column would keep as null. */
  private readonly oddTurns = new Map<number, number>();
  private readonly hooks = new NumberColumn();
  private readonly planIds = new Map<number, string>();
  private seg: Segment | null = null;
  /** The writer's cursors: the event whose id each holds, -1 for none. */
  private session = -1;
  private task = -1;
  private turn = -1;
  private readonly out: Finding[] = [];

  constructor(private readonly store: MurmurEventStore) {}

  /** Event `k` of the store, read from `ev` (its line) and `o`. */
  add(k: number, ev: CheckEvent, o: Obj, at: Placement): void {
    if (at.seg !== this.seg) {
      this.seg = at.seg;
      this.session = this.task = this.turn = -1;
    }
    if (typeof o.plan_id === 'string') this.planIds.set(k, o.plan_id);
    this.taskCol.set(k, ev.taskId === undefined ? -1 : ev.taskId === null ? 0 : this.taskCode(ev.taskId));
    this.turns.set(k, ev.turn);
    if (ev.turn !== null && !Number.isFinite(ev.turn)) this.oddTurns.set(k, ev.turn);
    this.hooks.set(k, ev.hook ? 1 : 0);
    this.expected.set(k, ev.writer === 'trace' ? this.replay(k, ev) : null);
  }

  finish(): Finding[] {
    const store = this.store;
    for (let k = 0; k < store.size; k++) {
      const parent = store.parentOf(k);
      if (parent === undefined || (parent > k && this.writer(k) === 'trace')) continue;
      if (!this.checkType(k, parent)) continue;
      this.checkTask(k);
      this.checkTurn(k, parent);
    }
    return this.out;
  }

  private writer(k: number) {
    return murmurEventType(this.store.type(k))?.writer ?? null;
  }

  private hook(k: number): boolean {
    return this.hooks.get(k) === 1;
  }

  private taskCode(taskId: string): number {
    let code = this.taskCodes.get(taskId);
    if (code === undefined) this.taskCodes.set(taskId, (code = this.tasks.push(taskId)));
    return code;
  }

  private taskId(k: number): string | null | undefined {
    const code = this.taskCol.get(k) ?? -1;
    return code === -1 ? undefined : code === 0 ? null : this.tasks[code - 1];
  }

  private turnOf(k: number): number | null {
    return this.oddTurns.get(k) ?? this.turns.get(k);
  }

  /** The parent TraceWriter gives this event, then the cursor moves the event makes. */
  private replay(k: number, ev: CheckEvent): number {
    const rule = murmurEventType(ev.type)!.parent;
    const kind = rule === 'inference' ? (ev.hook ? 'U' : 'T') : rule;
    const or = (a: number, b: number) => (a !== -1 ? a : b);
    const expected = kind === 'root' ? -1 : kind === 'S' ? this.session : kind === 'T' ? or(this.task, this.session) : or(this.turn, or(this.task, this.session));
    const self = ev.id === null ? -1 : k;
    if (ev.type === 'session_start') this.session = self;
    else if (ev.type === 'task_start') (this.task = self), (this.turn = -1);
    else if (ev.type === 'task_end') this.task = this.turn = -1;
    else if (ev.type === 'inference' && !ev.hook) this.turn = self;
    return expected;
  }

  /** Returns false when a finding was made, so the follow-on rules do not pile up on one broken link. */
  private checkType(k: number, parent: number): boolean {
    const store = this.store;
    const type = store.type(k);
    const parentType = store.type(parent);
    const found = () => `${parentType || 'event'} on line ${store.line(parent)}`;
    const expected = this.expected.get(k);
    if (expected !== null) {
      if (expected === -1 ? store.parent(k) === null : store.parentIsIdOf(k, expected)) return true;
      const want = expected === -1 ? 'null (no session frame was open)' : this.describe(store.id(expected)!);
      return this.push('murmur/parent-type', k, `${type}${this.hook(k) ? ' (hook origin)' : ''} should hang off ${want} by the writer's cursor rules, but parent_id names the ${found()}.`);
    }
    const rule = murmurEventType(type)?.parent;
    const planId = this.planIds.get(k) ?? null;
    const parentPlan = this.planIds.get(parent) ?? null;
    const ok = (types: string[], samePlan = false) =>
      types.includes(parentType) && (!samePlan || parentType !== 'plan_start' || parentPlan === planId);
    let want: string | null = null;
    if (rule === 'A' || rule === 'lost') want = ok(['session_start']) ? null : 'the session_start';
    else if (rule === 'P' && type === 'plan_end') want = ok(['plan_start', 'session_start'], true) ? null : `plan ${planId ?? '?'}'s plan_start or the session_start`;
    else if (rule === 'P') want = ok(['plan_start'], true) ? null : `plan ${planId ?? '?'}'s plan_start`;
    if (want === null) return true;
    return this.push('murmur/parent-type', k, `${type} should hang off ${want}, but parent_id names the ${found()}${parentType === 'plan_start' ? ` of plan ${parentPlan ?? '?'}` : ''}.`);
  }

  private checkTask(k: number): void {
    const store = this.store;
    const type = store.type(k);
    const taskId = this.taskId(k);
    const rule = murmurEventType(type)?.parent;
    if (!rule || !TASK_SCOPED.has(rule) || (taskId === undefined && type !== 'task_failed')) return;
    if (type === 'task_rejected' || type === 'task_start') return;
    // Walk up to the enclosing task_start; a broken chain is another rule's finding.
    let cur = store.parentOf(k);
    for (let hops = 0; cur !== undefined && store.type(cur) !== 'task_start' && hops < 4; hops++) cur = store.parentOf(cur);
    if (cur !== undefined && store.type(cur) === 'task_start') {
      const enclosing = this.taskId(cur);
      if (taskId !== enclosing) this.push('murmur/task-id-consistent', k, `task_id is ${JSON.stringify(taskId ?? null)}, but the enclosing task_start (line ${store.line(cur)}) is task ${JSON.stringify(enclosing ?? null)}.`);
    } else if (taskId !== null && taskId !== undefined && !CALLER_TASK_ID.has(type) && this.reachesRoot(k)) {
      this.push('murmur/task-id-consistent', k, `task_id is "${taskId}", but the event is outside any task (no task_start above it); the writer writes null there.`);
    }
  }

  private reachesRoot(k: number): boolean {
    const store = this.store;
    let cur: number | undefined = k;
    for (let hops = 0; cur !== undefined && store.parent(cur) !== null && hops < 5; hops++) cur = store.parentOf(cur);
    return cur !== undefined && store.parent(cur) === null;
  }

  private checkTurn(k: number, parent: number): void {
    const store = this.store;
    const rule = murmurEventType(store.type(k))?.parent;
    const turn = this.turnOf(k);
    const parentTurn = this.turnOf(parent);
    if (!(rule === 'U' || this.hook(k)) || store.type(parent) !== 'inference' || turn === null || parentTurn === null) return;
    if (turn !== parentTurn) this.push('murmur/turn-consistent', k, `turn is ${turn}, but its parent inference (line ${store.line(parent)}) is turn ${parentTurn}.`);
  }

  private describe(id: string): string {
    const first = this.store.first(id);
    return first !== undefined ? `the ${this.store.type(first)} on line ${this.store.line(first)}` : id;
  }

  private push(rule: MurmurRuleId, k: number, message: string): false {
    const { line, id } = this.store.at(k);
    this.out.push(MURMUR_CATALOG.finding(rule, line, message, id ? { eventId: id } : undefined));
    return false;
  }
}

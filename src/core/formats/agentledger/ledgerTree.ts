/**
 * The derived AgentLedger tree (format doc §5.5): the format has no parent field, so structure comes from
 * run → step (`step_id`) → attempt (each `step_claimed`) → tool-call group (`tool_call_requested` plus the
 * events sharing its causal token and tool) → events. The run, step, attempt and group nodes are the events
 * that open them (`run_created`, `step_created`, `step_claimed`, `tool_call_requested`).
 */
import { ATTEMPT_CLOSING_TYPES, CALL_MEMBER_TYPES, EXTRA_SPAN_NAMES, RUN_LEVEL_TYPES } from './vocab';
import { LedgerRow } from './rows';

/** What the tree needs from a row's payload. */
export interface PlaceFacts {
  /** `payload.tool` / `payload.tool_name`. */
  tool: string | null;
  /** `cost_recorded` category and name (the tool for tool costs). */
  costCategory: string | null;
  costName: string | null;
}

interface CallGroup {
  head: number;
  token: string | null;
  tool: string | null;
}

interface StepState {
  /** The step's node, or the run's when the file lacks the `step_created` line. */
  node: number | null;
  attempt: number | null;
  attemptOpen: boolean;
  group: CallGroup | null;
}

interface RunState {
  node: number | null;
  steps: Map<string, StepState>;
}

/** Where a row goes: its parent, the tool of its call group, and a callback to record its index once emitted. */
export interface Placement {
  parent: number | null;
  groupTool: string | null;
  commit(index: number): void;
}

/** Builds parent links for the rows of one file, in file order. */
export class LedgerTreeBuilder {
  private readonly runs = new Map<string, RunState>();

  /** Decides the parent of a row about to be emitted; call `commit` with the new event's index. */
  place(row: LedgerRow, facts: PlaceFacts): Placement {
    const type = row.type ?? '';
    const runKey = row.runId ?? '';
    let run = this.runs.get(runKey);
    if (type === 'run_created' && !run) {
      const fresh: RunState = { node: null, steps: new Map() };
      this.runs.set(runKey, fresh);
      return { parent: null, groupTool: null, commit: (i) => (fresh.node = i) };
    }
    if (!run) {
      run = { node: null, steps: new Map() };
      this.runs.set(runKey, run);
    }
    const stepKey = this.stepKey(row, type);
    if (stepKey === null) return { parent: run.node, groupTool: null, commit: () => undefined };
    let step = run.steps.get(stepKey);
    if (!step) {
      const created: StepState = { node: run.node, attempt: null, attemptOpen: false, group: null };
      run.steps.set(stepKey, created);
      step = created;
      if (type === 'step_created') return { parent: run.node, groupTool: null, commit: (i) => (created.node = i) };
    }
    return this.placeInStep(step, row, type, facts);
  }

  /** The step a row belongs to; null for run-level rows. Rust spans name no step, and Rust runs have one. */
  private stepKey(row: LedgerRow, type: string): string | null {
    if (!row.stepKnown) return RUN_LEVEL_TYPES.has(type) || EXTRA_SPAN_NAMES.has(type) || row.spanKind !== 'evt' ? null : '';
    return row.stepId;
  }

  private placeInStep(step: StepState, row: LedgerRow, type: string, facts: PlaceFacts): Placement {
    const closes = ATTEMPT_CLOSING_TYPES.has(type);
    const done = (parent: number | null, groupTool: string | null, commit: (i: number) => void = () => undefined): Placement => ({
      parent,
      groupTool,
      commit: (i) => {
        commit(i);
        if (closes) step.attemptOpen = false;
      },
    });
    if (type === 'step_claimed') {
      step.group = null;
      return done(step.node, null, (i) => {
        step.attempt = i;
        step.attemptOpen = true;
      });
    }
    const base = step.attemptOpen ? step.attempt : step.node;
    if (type === 'tool_call_requested') {
      const group: CallGroup = { head: -1, token: row.causalToken, tool: facts.tool };
      step.group = null;
      return done(base, facts.tool, (i) => {
        group.head = i;
        step.group = group;
      });
    }
    const g = step.group;
    if (g && CALL_MEMBER_TYPES.has(type) && sameCall(g, row.causalToken, facts.tool)) {
      // Span heads carry no payload: the first member that names the tool names the group.
      g.tool ??= facts.tool;
      return done(g.head, g.tool);
    }
    if (g && type === 'cost_recorded' && isToolCost(facts) && (facts.costName === null || g.tool === null || facts.costName === g.tool)) {
      // cost_recorded carries no causal token; it belongs to the call it directly follows (§5.4).
      step.group = null;
      return done(g.head, g.tool ?? facts.costName);
    }
    step.group = null;
    return done(base, null);
  }
}

function sameCall(g: CallGroup, token: string | null, tool: string | null): boolean {
  return (token === null || g.token === null || token === g.token) && (tool === null || g.tool === null || tool === g.tool);
}

function isToolCost(f: PlaceFacts): boolean {
  return f.costCategory === null || f.costCategory === 'tool' || f.costCategory === 'tool_shadow';
}

import { EventCategory, EventStatus } from '../../model';
import { formatCount, formatDuration, formatTokens, isObj, label, num, Obj, short, str } from '../common';

/** What the adapter knows about a call when describing one of its events. */
export interface CallFacts {
  tool: string | null;
  effect: string | null;
}

/** The readable part of a harness event: label, category, status and measured values. */
export interface HarnessDescription {
  category: EventCategory;
  label: string;
  status: EventStatus;
  tokensIn?: number | null;
  tokensOut?: number | null;
  tool?: string | null;
}

/** `: reason` appended to a label, shortened. */
function tail(s: string | null): string {
  return s ? `: ${short(s, 60)}` : '';
}

/** Σ `fragments[].estimated_tokens` of a `ContextPack`, or null when it has none. */
export function contextTokens(context: unknown): number | null {
  if (!isObj(context) || !Array.isArray(context.fragments)) return null;
  let used = 0;
  for (const f of context.fragments) used += num(f, 'estimated_tokens') ?? 0;
  return used;
}

function describeContext(e: Obj): HarnessDescription {
  const ctx = isObj(e.context) ? e.context : null;
  const used = contextTokens(ctx);
  const budget = num(ctx, 'token_budget');
  const n = ctx && Array.isArray(ctx.fragments) ? ctx.fragments.length : null;
  const over = used !== null && budget !== null && used > budget;
  return {
    category: 'turn',
    status: over ? 'error' : 'ok',
    label: label('turn', str(e, 'turn_id'), used !== null && `context ${formatCount(used)}${budget !== null ? '/' + formatCount(budget) : ''} tokens`,
      n !== null && `${n} fragment${n === 1 ? '' : 's'}`),
  };
}

function describeResponse(e: Obj, model: string | null, durationMs: number | null): HarnessDescription {
  const usage = isObj(e.usage) ? e.usage : null;
  const tokensIn = num(usage, 'input_tokens');
  const tokensOut = num(usage, 'output_tokens');
  const proposals = Array.isArray(e.proposed_calls) ? e.proposed_calls : [];
  const tools = proposals.map((p) => str(p, 'tool')).filter((t): t is string => t !== null);
  const text = str(e.output, 'content');
  return {
    category: 'inference',
    status: 'ok',
    tokensIn,
    tokensOut,
    label: label('inference', str(e, 'served_model') ?? model, formatTokens(tokensIn, tokensOut), formatDuration(durationMs),
      tools.length > 0 ? `→ ${tools.join(', ')}` : text ? `“${short(text, 40)}”` : ''),
  };
}

function describeDecision(e: Obj, call: CallFacts | null): HarnessDescription {
  const d = isObj(e.decision) ? e.decision : null;
  const kind = str(d, 'decision') ?? '?';
  const reason = str(d, 'reason');
  return {
    category: 'policy',
    status: kind === 'deny' ? 'warning' : 'ok',
    tool: call?.tool ?? null,
    label: label('policy', kind, call?.tool) + tail(reason),
  };
}

/** Describes one event; `call` is what its call id resolves to, `durationMs` the paired span when known. */
export function describeHarnessEvent(name: string, e: Obj, ctx: { call: CallFacts | null; model: string | null; durationMs: number | null }): HarnessDescription {
  const tool = ctx.call?.tool ?? null;
  const reason = str(e, 'reason');
  const dur = formatDuration(ctx.durationMs);
  switch (name) {
    case 'run_started': {
      const who = str(e, 'agent_id') ?? (str(e, 'profile_id') ? `${str(e, 'profile_id')}@${num(e, 'profile_revision') ?? '?'}` : null);
      return { category: 'run', status: 'ok', label: label('run', str(e, 'run_id'), who && `agent ${who}`) };
    }
    case 'context_built': return describeContext(e);
    case 'context_compacted':
      return { category: 'turn', status: 'ok', label: label('context_compacted', str(e, 'turn_id'),
        `${num(e, 'estimated_tokens_before') ?? '?'}→${num(e, 'estimated_tokens_after') ?? '?'} tokens`,
        `dropped turns ${num(e, 'dropped_turn_start') ?? '?'}..${num(e, 'dropped_turn_end_exclusive') ?? '?'}`) };
    case 'model_requested':
      return { category: 'inference', status: 'ok', label: label('model_requested', str(e, 'model'), `step ${num(e, 'step') ?? '?'}`) };
    case 'model_responded': return describeResponse(e, ctx.model, ctx.durationMs);
    case 'model_failed':
      return { category: 'inference', status: 'error', label: label('model_failed', ctx.model, dur) + tail(reason) };
    case 'tool_call_proposed': {
      const call = isObj(e.call) ? e.call : null;
      return { category: 'tool', status: 'ok', tool: str(call, 'tool'), label: label('tool_call', str(call, 'tool'), str(call, 'effect') && `(${str(call, 'effect')})`) };
    }
    case 'tool_proposals_rejected':
      return { category: 'tool', status: 'warning', label: label('tool_proposals_rejected') + tail(reason) };
    case 'policy_evaluated': return describeDecision(e, ctx.call);
    case 'approval_granted':
      return { category: 'approval', status: 'ok', tool, label: label('approval granted', tool, str(e, 'actor_id') && `by ${str(e, 'actor_id')}`) };
    case 'approval_denied':
      return { category: 'approval', status: 'warning', tool, label: label('approval denied', tool, str(e, 'actor_id') && `by ${str(e, 'actor_id')}`) + tail(reason) };
    case 'tool_started': return { category: 'tool', status: 'ok', tool, label: label('tool_started', tool) };
    case 'tool_finished': {
      const summary = str(e.result, 'summary');
      return { category: 'tool', status: 'ok', tool, label: label('tool_finished', tool, dur) + tail(summary) };
    }
    case 'tool_failed': return { category: 'tool', status: 'error', tool, label: label('tool_failed', tool, dur) + tail(reason) };
    case 'run_finished': return { category: 'run', status: 'ok', label: label('run_finished', dur) };
    case 'run_failed': {
      const canceled = reason !== null && /cancel/i.test(reason);
      return { category: 'run', status: canceled ? 'warning' : 'error', label: label(canceled ? 'run canceled' : 'run_failed', dur) + tail(reason) };
    }
    default: return { category: 'other', status: 'ok', label: label(name, tool) };
  }
}

import { EventDraft, EventStatus } from '../../model';
import { argsSummary, formatTokens, isObj, label, Obj, short, toolCallLabel, toolResultLabel, type ToolStep } from '../common';
import { contentText, functionResponses, messageTokens, shellExitCode } from './geminiRecords';


/**
 * A recorded tool call. `status` is the CLI's (`success`, `error`, `cancelled`); a shell command that exits
 * non-zero is still `success` in the file, yet it is a failed call, as every other agent's is (Claude Code's
 * `is_error`, Codex's and Copilot CLI's exit codes): an error, with its exit code in the label.
 */

/**
 * What a recorded call did (its record holds its result): name, main argument, exit code, failure, and its duration
 * from the message that asked for it (`askedAt`) to the call's own time, when it finished.
 */
export function toolStepOf(tc: Obj, askedAt: number | null): ToolStep {
  const st = typeof tc.status === 'string' ? tc.status : null;
  const exit = st === 'success' || st === null ? shellExitCode(tc) : null;
  const done = typeof tc.timestamp === 'string' ? Date.parse(tc.timestamp) || null : null;
  return {
    tool: typeof tc.name === 'string' ? tc.name : 'tool', arg: argsSummary(tc.args), exitCode: exit, failed: st === 'error' || st === 'cancelled',
    durationMs: done !== null && askedAt !== null && done >= askedAt ? done - askedAt : null,
  };
}

export function describeToolCall(tc: Obj, askedAt: number | null = null): EventDraft {
  const name = typeof tc.name === 'string' ? tc.name : 'tool';
  const st = typeof tc.status === 'string' ? tc.status : null;
  const exit = st === 'success' || st === null ? shellExitCode(tc) : null;
  const status: EventStatus = st === 'error' || exit !== null ? 'error' : st === 'cancelled' ? 'warning' : 'ok';
  // The record holds the call's result: its row says what came of it (common.ts toolResultLabel); a call with no
  // status yet says only what it asks.
  const step = toolStepOf(tc, askedAt);
  return {
    kind: 'tool_call',
    category: 'tool',
    id: typeof tc.id === 'string' ? tc.id : null,
    status,
    tool: name,
    label: st === null && exit === null ? toolCallLabel(step) : `${toolResultLabel(step)}${st === 'cancelled' ? ' (cancelled)' : ''}`,
    time: typeof tc.timestamp === 'string' ? Date.parse(tc.timestamp) || null : null,
  };
}

/** A recorded message: a user turn, a tool result (a `user` message of `functionResponse` parts), or a model/CLI message. */
export function describeMessage(m: Obj, role: 'turn' | 'tool_result' | 'other'): EventDraft {
  const type = typeof m.type === 'string' ? m.type : 'message';
  const text = contentText(m.content);
  if (role === 'tool_result') {
    const names = functionResponses(m.content).map((r) => (typeof r.name === 'string' ? r.name : 'tool'));
    return { kind: 'tool_result', category: 'message', label: label('tool result', short(names.join(', '), 60)) };
  }
  if (role === 'turn') return { kind: 'user', category: 'turn', label: label('user:', short(text, 80)) };
  if (type === 'gemini') {
    const t = messageTokens(m);
    const calls = Array.isArray(m.toolCalls) ? m.toolCalls.length : 0;
    return {
      kind: 'gemini', category: 'inference', model: typeof m.model === 'string' ? m.model : null, tokensIn: t.input, tokensOut: t.output,
      usage: { cacheRead: t.cached, reasoning: t.thoughts, reasoningApart: true },
      label: label('gemini:', short(text, 70), calls ? `(${calls} tool call${calls > 1 ? 's' : ''})` : null, formatTokens(t.input, t.output)),
    };
  }
  const status: EventStatus = type === 'error' ? 'error' : type === 'warning' ? 'warning' : 'ok';
  return { kind: type, category: type === 'error' ? 'error' : 'message', status, label: label(`${type}:`, short(text, 80)) };
}

import { EventDraft, EventStatus } from '../../model';
import { argsSummary, formatTokens, isObj, label, Obj, short } from '../common';
import { contentText, functionResponses, messageTokens, shellExitCode } from './geminiRecords';


/**
 * A recorded tool call. `status` is the CLI's (`success`, `error`, `cancelled`); a shell command that exits
 * non-zero is still `success` in the file, yet it is a failed call, as every other agent's is (Claude Code's
 * `is_error`, Codex's and Copilot CLI's exit codes): an error, with its exit code in the label.
 */
/** The arguments' summary, cut to 60 characters. */
function shortArgs(args: unknown): string | null {
  const a = argsSummary(args);
  return a === null ? null : short(a, 60);
}

export function describeToolCall(tc: Obj): EventDraft {
  const name = typeof tc.name === 'string' ? tc.name : 'tool';
  const st = typeof tc.status === 'string' ? tc.status : null;
  const exit = st === 'success' || st === null ? shellExitCode(tc) : null;
  const status: EventStatus = st === 'error' || exit !== null ? 'error' : st === 'cancelled' ? 'warning' : 'ok';
  return {
    kind: 'tool_call',
    category: 'tool',
    id: typeof tc.id === 'string' ? tc.id : null,
    status,
    tool: name,
    label: label(name, shortArgs(tc.args), st && st !== 'success' ? st : null, exit !== null ? `exit ${exit}` : null),
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

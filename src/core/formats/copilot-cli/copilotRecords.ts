import { isObj, Obj } from '../common';

/**
 * The dialects GitHub Copilot CLI writes: the session file `~/.copilot/session-state/<id>/events.jsonl`, and the
 * `--output-format json` stdout (the same events without the session's start, system prompt and usage records, plus
 * ephemeral ones and a last `result` line).
 */
export type CopilotDialect = 'session-state' | 'output-json';

/** Event types only Copilot CLI writes (1.0.x): any one of them in a file of Copilot-shaped events vouches for it. */
export const COPILOT_TYPES: ReadonlySet<string> = new Set([
  'session.start', 'session.resume', 'session.shutdown', 'session.usage_record', 'session.model_change', 'session.skills_loaded',
  'session.mcp_servers_loaded', 'session.tools_updated', 'session.background_tasks_changed', 'system.message', 'user.message',
  'assistant.turn_start', 'assistant.turn_end', 'assistant.message', 'assistant.message_start', 'assistant.message_delta',
  'assistant.tool_call_delta', 'assistant.idle', 'tool.execution_start', 'tool.execution_complete', 'tool.execution_partial_result',
  'tool.shell_output', 'subagent.started', 'subagent.configured', 'subagent.completed', 'subagent.failed', 'model.call_start',
  'model.call_finished', 'model.call_final_result',
]);

/** True for one Copilot CLI event: `{type: "<area>.<name>", data: {…}, id, timestamp, parentId}`. */
export function isCopilotEvent(v: unknown): v is Obj {
  return isObj(v) && typeof v.type === 'string' && /^[a-z]+\.[a-z_]+$/.test(v.type) && isObj(v.data) && typeof v.id === 'string'
    && typeof v.timestamp === 'string' && 'parentId' in v && (v.parentId === null || typeof v.parentId === 'string');
}

/** True for the last line of `--output-format json`: `{type: "result", sessionId, exitCode, usage}`. */
export function isCopilotResult(v: unknown): v is Obj {
  return isObj(v) && v.type === 'result' && typeof v.sessionId === 'string' && typeof v.exitCode === 'number';
}

/** True for a line that only the stdout stream holds: an ephemeral event or the `result` line. */
export function isStdoutOnly(v: unknown): boolean {
  return isCopilotResult(v) || (isCopilotEvent(v) && v.ephemeral === true);
}


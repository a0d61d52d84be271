// Codex CLI rollout (the other-formats specification, other-formats.md §2): `{timestamp, type, payload}` lines starting with
// `session_meta`; `function_call` ↔ `function_call_output` and `custom_tool_call` ↔ `custom_tool_call_output`
// paired by `call_id`. A `cat` that fails, `npm test` red then green via apply_patch, and an escalated
// `git push` the user rejects. File name: rollout-<local time>-<session id>.jsonl.
import { BASE_MS, Clock, Json, SampleFile, SeededIds, isoMs, jsonl } from './common';
import * as S from './story';

const MODEL = 'gpt-5.2-codex';

interface Shell {
  thought: string;
  command: string;
  exitCode: number;
  output: string;
  seconds: number;
  /** Asks for escalated permissions; in this story the user rejects it. */
  escalate?: boolean;
}

/** apply_patch input replacing the whole function body. */
function patchText(): string {
  const minus = S.SRC_BEFORE.replace(/\n$/, '').split('\n').map((l) => `-${l}`);
  const plus = S.SRC_AFTER.replace(/\n$/, '').split('\n').map((l) => `+${l}`);
  return ['*** Begin Patch', `*** Update File: ${S.SRC_PATH}`, '@@', ...minus, ...plus, '*** End Patch'].join('\n');
}

/** Writes rollout lines with a clock that moves forward. */
class Rollout {
  readonly lines: string[] = [];
  readonly ids = new SeededIds('codex');
  readonly sessionId = this.ids.uuid7(BASE_MS, 'dashed');
  readonly clock = new Clock(BASE_MS);

  add(type: string, payload: Json, delta: number): void {
    this.lines.push(JSON.stringify({ timestamp: isoMs(this.clock.tick(delta)), type, payload }));
  }

  item(payload: Json, delta = 1): void {
    this.add('response_item', payload, delta);
  }

  reasoning(text: string, delta: number): void {
    this.item({ type: 'reasoning', summary: [{ type: 'summary_text', text }], content: null, encrypted_content: `gAAAAAB${Buffer.from(this.ids.hex(96), 'hex').toString('base64')}` }, delta);
  }

  shell(s: Shell): void {
    this.reasoning(`**${s.thought}**`, 1900);
    const callId = `call_${this.ids.base62(24)}`;
    const args: Record<string, Json> = { command: ['bash', '-lc', s.command], workdir: S.CWD, timeout_ms: 120000 };
    if (s.escalate) Object.assign(args, { with_escalated_permissions: true, justification: 'Push the fix branch so CI can run' });
    this.item({ type: 'function_call', name: 'shell', arguments: JSON.stringify(args), call_id: callId });
    const output = s.escalate ? 'exec command rejected by user' : JSON.stringify({ output: s.output, metadata: { exit_code: s.exitCode, duration_seconds: s.seconds } });
    this.item({ type: 'function_call_output', call_id: callId, output }, s.escalate ? 7400 : Math.round(s.seconds * 1000) + 20);
  }
}

/** The codex sample: `codex/rollout-2026-01-01T10-00-00-<session id>.jsonl`. */
export function generateCodex(): SampleFile[] {
  const r = new Rollout();
  r.add('session_meta', { id: r.sessionId, timestamp: isoMs(BASE_MS), cwd: S.CWD, originator: 'codex_cli_rs', cli_version: '0.77.0', source: 'cli', model_provider: 'openai' }, 11);
  r.add('event_msg', { type: 'user_message', message: S.PROMPT, images: [] }, 3200);
  r.add('turn_context', { cwd: S.CWD, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false }, model: MODEL, summary: 'auto' }, 1);
  r.item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: S.PROMPT }] });
  r.shell({ thought: 'Reading the failing test', command: `cat ${S.TEST_PATH}`, exitCode: 0, output: S.TEST_SOURCE, seconds: 0.1 });
  r.shell({ thought: 'Opening the greeting module', command: `cat ${S.MISSING_PATH}`, exitCode: 1, output: `cat: ${S.MISSING_PATH}: No such file or directory\n`, seconds: 0.1 });
  r.shell({ thought: 'Trying the JavaScript source', command: `cat ${S.SRC_PATH}`, exitCode: 0, output: S.SRC_BEFORE, seconds: 0.1 });
  r.shell({ thought: 'Reproducing the failure', command: S.TEST_COMMAND, exitCode: 1, output: S.TEST_OUTPUT_FAIL, seconds: 0.9 });
  r.reasoning('**Escaping the name before interpolation**', 3100);
  const patchId = `call_${r.ids.base62(24)}`;
  r.item({ type: 'custom_tool_call', status: 'completed', call_id: patchId, name: 'apply_patch', input: patchText() });
  r.item({ type: 'custom_tool_call_output', call_id: patchId, output: JSON.stringify({ output: `Success. Updated the following files:\nM ${S.SRC_PATH}\n`, metadata: { exit_code: 0, duration_seconds: 0.1 } }) }, 60);
  r.shell({ thought: 'Re-running the tests', command: S.TEST_COMMAND, exitCode: 0, output: S.TEST_OUTPUT_PASS, seconds: 0.8 });
  r.shell({ thought: 'Pushing the branch', command: S.PUSH_COMMAND, exitCode: 0, output: '', seconds: 0, escalate: true });
  r.add('event_msg', { type: 'agent_message', message: S.FINAL_ANSWER }, 2600);
  r.item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: S.FINAL_ANSWER }] });
  return [{ path: `codex/rollout-2026-01-01T10-00-00-${r.sessionId}.jsonl`, data: jsonl(r.lines) }];
}

import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';

/** Deterministic murmur event id (`evt_` + 32 hex) for event number `n`. */
function evt(n: number): string {
  return 'evt_' + n.toString(16).padStart(32, '0');
}

const SES = 'ses_' + 'b'.repeat(32);
const T0 = 1767225600000;

/**
 * Writes a murmur trace of about `events` events in the writer's shape (meta capture: no blobs):
 * session_start, then tasks of `turns` turns (an inference deciding a tool call, the tool call), a final
 * inference and task_end with its counters, and session_end with the totals; about 300 bytes an event.
 */
export async function generateMurmurTrace(path: string, events: number, turnsPerTask = 20): Promise<void> {
  const out = createWriteStream(path);
  let n = 0;
  const write = async (line: object) => {
    if (!out.write(JSON.stringify(line) + '\n')) await once(out, 'drain');
  };
  const base = (type: string, parent: string | null) => ({ event_type: type, event_id: evt(n), parent_id: parent, session_id: SES, timestamp: T0 + n });
  const session = evt(0);
  await write({
    ...base('session_start', null), capsule_name: 'bench', capsule_version: '1.0.0', model: 'claude-sonnet-4-5', max_turns: 1_000_000_000,
    max_session_tokens: 1e15, machine_tokens_per_day: null, capabilities: ['shell'], tools_declared: ['bash'], containment_declared: 'scoped',
    containment_achieved: 'scoped', workdir_exec: false, userns_grant: null,
    effective_grants: { network_allow: [], state_stores: [], configured_artifacts: [], preopens: [], interpreter_runtime_grants: [], userns_grant: null },
    system_prompt_source: 'manifest', system_prompt_sha256: null, credential_source: 'none', gateways: [], tool_refresh: null,
    runtime_artifacts: [], resumed_from: null, context_id: null,
  });
  n++;
  const totals = { turns: 0, input: 0, output: 0, tools: 0 };
  let task = 0;
  while (n < events - 1) {
    task++;
    const taskId = `tsk_${task}`;
    const taskEvt = evt(n);
    const taskStart = n;
    await write({ ...base('task_start', session), task_id: taskId, context_id: `ctx_${task}`, source: 'a2a', origin: 'user', trust: 'trusted', lane: 'user', message_parts_bytes: 120 });
    n++;
    const t = { turns: 0, input: 0, output: 0, tools: 0 };
    for (let turn = 0; turn <= turnsPerTask && n < events - 2; turn++) {
      const last = turn === turnsPerTask || n >= events - 4;
      const input = 800 + (n % 50);
      const output = 60 + (n % 9);
      const inf = evt(n);
      await write({
        ...base('inference', taskEvt), turn, task_id: taskId, input_tokens: input, output_tokens: output,
        decision: last ? 'end_turn' : 'tool_call', stop_reason: last ? 'end_turn' : 'tool_call', tool_name: last ? null : 'bash',
        input_tokens_actual: input, output_tokens_actual: output, cached_tokens: 0, message_ids: [`msg_${n.toString(16).padStart(32, '0')}`],
      });
      n++;
      t.turns++;
      t.input += input;
      t.output += output;
      if (last) break;
      // Meta capture: tool input is kept, output only as its size.
      await write({
        ...base('tool_call', inf), turn, task_id: taskId, tool_name: 'bash', tool_call_id: `toolu_${n}`,
        input: { command: `ls -la src/module_${n % 997}/ && cat README.md | head -n 20` }, input_bytes: 48, output_bytes: 120 + (n % 300), duration_ms: n % 40, status: 'ok',
      });
      n++;
      t.tools++;
    }
    await write({
      ...base('task_end', taskEvt), task_id: taskId, exit_status: 'ok', duration_ms: n - taskStart, turns: t.turns,
      input_tokens: t.input, output_tokens: t.output, tool_calls: t.tools, shell_calls: 0, reopen_count: 0,
    });
    n++;
    totals.turns += t.turns;
    totals.input += t.input;
    totals.output += t.output;
    totals.tools += t.tools;
  }
  await write({
    ...base('session_end', session), total_turns: totals.turns, total_input_tokens: totals.input, total_output_tokens: totals.output,
    total_tool_calls: totals.tools, total_shell_calls: 0, duration_ms: n, exit_status: 'ok',
  });
  out.end();
  await once(out, 'finish');
}

/**
 * Writes B: A (a generated murmur trace) with 1% of its lines edited, spread evenly, in turn: a tool call's command changed, a tool call
 * inserted after one (a fresh event id), a tool call deleted (a leaf, so no event loses its parent).
 */
export function editedMurmurCopy(a: string, b: string): { changed: number; inserted: number; deleted: number } {
  const lines = readFileSync(a, 'utf8').split('\n').filter((l) => l.length > 0);
  const out: string[] = [];
  const counts = { changed: 0, inserted: 0, deleted: 0 };
  let edits = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i % 46 !== 23 || !line.includes('"event_type":"tool_call"')) {
      out.push(line);
      continue;
    }
    const kind = edits++ % 3;
    if (kind === 0) {
      out.push(line.replace('cat README.md', 'cat CHANGES.md'));
      counts.changed++;
    } else if (kind === 1) {
      out.push(line, line.replace(/"event_id":"evt_([0-9a-f]+)"/, (_m, hex: string) => `"event_id":"evt_${'e'.repeat(8)}${hex.slice(8)}"`));
      counts.inserted++;
    } else counts.deleted++;
  }
  writeFileSync(b, out.join('\n') + '\n');
  return counts;
}

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** Deterministic murmur-style event id (`evt_` + 32 hex) for event number `n`. */
function evt(n: number): string {
  return 'evt_' + n.toString(16).padStart(32, '0');
}

/**
 * Writes a murmur-shaped trace of `events` events (session → tasks → inferences → tool calls), about
 * `bytesPerEvent` bytes each, for benchmarks. Parents always precede children, as murmur writes them.
 */
export async function generateMurmurTrace(path: string, events: number, bytesPerEvent = 300): Promise<void> {
  const out = createWriteStream(path);
  const ses = 'ses_' + 'b'.repeat(32);
  const t0 = 1767225600000;
  const session = evt(0);
  let task = session;
  let inference = session;
  const pad = (s: string) => (s.length >= bytesPerEvent ? s : s.slice(0, -1) + `,"pad":"${'x'.repeat(Math.max(0, bytesPerEvent - s.length - 10))}"}`);
  for (let n = 0; n < events; n++) {
    let line: string;
    const base = `"event_id":"${evt(n)}","session_id":"${ses}","timestamp":${t0 + n}`;
    if (n === 0) line = `{"event_type":"session_start",${base},"parent_id":null,"model":"claude-sonnet-4-5"}`;
    else if (n % 100 === 1) {
      task = evt(n);
      line = `{"event_type":"task_start",${base},"parent_id":"${session}","task_id":"tsk_${n}"}`;
    } else if (n % 3 === 0) {
      inference = evt(n);
      line = `{"event_type":"inference",${base},"parent_id":"${task}","turn":${n % 100},"input_tokens":${800 + (n % 50)},"output_tokens":${60 + (n % 9)},"decision":"tool_call","tool_name":"bash"}`;
    } else {
      line = `{"event_type":"tool_call",${base},"parent_id":"${inference}","tool_name":"bash","tool_call_id":"toolu_${n}","input":{"command":"ls"},"output":"README.md","duration_ms":${n % 40},"status":"ok"}`;
    }
    if (!out.write(pad(line) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

// Lumen run (the lumen specification, lumen.md): `lumen run fix_greeting.lm --trace-dir .lumen` writes
// `.lumen/trace/<run_id>.jsonl`, a hash chain over the 14-field pre-image of §6.1 (canonical JSON, §6.2),
// prev_hash from `sha256:genesis`, seq from 1. The source file is written next to it, so doc_hash resolves.
// Hashed fields hold only strings, integers, booleans and null: no float layout questions (§6.5).
import { BASE_MS, Json, SampleFile, SeededIds, isoNs, jsonl, sha256Hex, sortedJson } from './common';
import * as S from './story';

/** The Lumen program whose run the trace records. */
export const LUMEN_SOURCE = `# Fix the failing greeting test: read, ask the model for a patch, apply it after approval, re-test.
use tool fs.read as ReadFile
use tool fs.write as WriteFile
use tool llm.chat as Chat
use tool human.approve as Approve
use tool shell.exec as Run

record Patch
  path: String
  content: String
  reason: String
end

cell read_context() -> String
  let test = ReadFile(path: "${S.TEST_PATH}")
  let src = ReadFile(path: "${S.MISSING_PATH}") ?? ReadFile(path: "${S.SRC_PATH}")
  return "{test}\\n{src}"
end

cell propose_fix(context: String) -> Patch
  let answer = Chat(model: "claude-sonnet-4-5", prompt: "Make this test pass; the name may be ${S.HOSTILE_NAME.replace(/"/g, '\\"')}.\\n{context}")
  return answer as Patch
end

cell apply_fix(patch: Patch) -> Null
  Approve(action: "write {patch.path}", reason: patch.reason)
  WriteFile(path: patch.path, content: patch.content)
  return null
end

cell main() -> String
  let patch = propose_fix(read_context())
  apply_fix(patch)
  return Run(command: "${S.TEST_COMMAND}")
end
`;

/** The 14 pre-image keys of §6.1; absent optional fields are null in the pre-image. */
const PREIMAGE_KEYS = ['seq', 'kind', 'prev_hash', 'doc_hash', 'cell', 'tool_id', 'tool_version', 'inputs_hash', 'outputs_hash', 'policy_hash', 'latency_ms', 'cached', 'details', 'message'] as const;

/** The optional fields an event may carry, in serialization order (§3). */
interface Payload {
  kind: string;
  cell?: string;
  tool_id?: string;
  tool_version?: string;
  latency_ms?: number;
  cached?: boolean;
  details?: Json;
  message?: string;
}

/** `sha256:` + SHA-256 of the canonical pre-image: the line's `hash`. */
export function lumenEventHash(line: Record<string, Json>): string {
  const pre: Record<string, Json> = {};
  for (const k of PREIMAGE_KEYS) pre[k] = line[k] ?? null;
  return `sha256:${sha256Hex(sortedJson(pre))}`;
}

const tool = (cell: string, toolId: string, version: string, latency: number, success: boolean, message?: string): Payload => ({
  kind: 'tool_call', cell, tool_id: toolId, tool_version: version, latency_ms: latency, cached: false, details: { success }, ...(message ? { message } : {}),
});
const step = (cell: string, ip: number, opcode: string): Payload => ({ kind: 'vm_step', cell, details: { ip, opcode } });

/** The run in writer order: entry cell `main`, nested calls, tool calls (one fails), a schema check. */
const EVENTS: [delayMs: number, payload: Payload][] = [
  [0, { kind: 'run_start' }],
  [1, { kind: 'cell_start', cell: 'main' }],
  [0, step('main', 0, 'Call')],
  [0, { kind: 'call_enter', cell: 'read_context' }],
  [0, step('read_context', 2, 'ToolCall')],
  [3, tool('read_context', 'fs.read', '1.2.0', 3, true)],
  [0, step('read_context', 6, 'ToolCall')],
  [1, tool('read_context', 'fs.read', '1.2.0', 1, false, `file not found: ${S.MISSING_PATH}`)],
  [0, step('read_context', 9, 'ToolCall')],
  [2, tool('read_context', 'fs.read', '1.2.0', 2, true)],
  [0, { kind: 'call_exit', cell: 'read_context', details: { result_type: 'String' } }],
  [0, { kind: 'call_enter', cell: 'propose_fix' }],
  [0, step('propose_fix', 4, 'ToolCall')],
  [2870, tool('propose_fix', 'llm.chat', '2.0.1', 2868, true)],
  [1, { kind: 'schema_validate', cell: 'propose_fix', details: { schema: 'Patch', valid: true } }],
  [0, { kind: 'call_exit', cell: 'propose_fix', details: { result_type: 'Patch' } }],
  [0, { kind: 'call_enter', cell: 'apply_fix' }],
  [0, step('apply_fix', 3, 'ToolCall')],
  [5214, tool('apply_fix', 'human.approve', '0.3.0', 5213, true)],
  [0, step('apply_fix', 8, 'ToolCall')],
  [2, tool('apply_fix', 'fs.write', '1.2.0', 2, true)],
  [0, { kind: 'call_exit', cell: 'apply_fix', details: { result_type: 'Null' } }],
  [0, step('main', 7, 'ToolCall')],
  [903, tool('main', 'shell.exec', '1.0.4', 902, true)],
  [0, step('main', 9, 'Return')],
  [0, { kind: 'call_exit', cell: 'main', details: { result_type: 'String' } }],
  [1, { kind: 'cell_end', cell: 'main' }],
  [0, { kind: 'run_end' }],
];

/** The lumen sample: `lumen/.lumen/trace/<run_id>.jsonl` and the `.lm` source its doc_hash names. */
export function generateLumen(): SampleFile[] {
  const ids = new SeededIds('lumen');
  const runId = ids.uuid4();
  const docHash = `sha256:${sha256Hex(LUMEN_SOURCE)}`;
  let prev = 'sha256:genesis';
  let ms = BASE_MS;
  const lines = EVENTS.map(([delay, payload], i) => {
    ms += delay;
    const nanos = (i * 7919 + 104729) % 1000000; // sub-millisecond digits that vary like a real clock's
    const { kind, ...rest } = payload;
    const line: Record<string, Json> = { seq: i + 1, kind, prev_hash: prev, hash: '', timestamp: isoNs(ms, nanos), doc_hash: docHash, ...(rest as Record<string, Json>) };
    line.hash = lumenEventHash(line);
    prev = line.hash as string;
    return JSON.stringify(line);
  });
  return [
    { path: 'lumen/fix_greeting.lm', data: LUMEN_SOURCE },
    { path: `lumen/.lumen/trace/${runId}.jsonl`, data: jsonl(lines) },
  ];
}

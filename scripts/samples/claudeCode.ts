// Claude Code transcript (the other-formats specification, other-formats.md §1): one JSON object per line, `uuid` /
// `parentUuid` chain, assistant responses split into one line per content block (same `message.id` and
// `requestId`), `tool_use.id` ↔ `tool_result.tool_use_id`. A failing Read and a Bash call the user rejects.
import { BASE_MS, Clock, Json, SampleFile, SeededIds, isoMs, jsonl } from './common';
import * as S from './story';

const VERSION = '2.0.46';
const BRANCH = 'fix/escape-greeting';
const MODEL = 'claude-sonnet-4-5-20250929';
const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** `cat -n`-style numbering, as the Read tool returns file contents. */
function numbered(text: string): string {
  return text.replace(/\n$/, '').split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
}

const lines = (text: string): number => text.replace(/\n$/, '').split('\n').length;

interface Step {
  thought: string;
  tool: string;
  input: Json;
  result: string;
  isError: boolean;
  toolUseResult: Json;
}

const abs = (p: string): string => `${S.CWD}/${p}`;
const STEPS: Step[] = [
  { thought: S.THOUGHTS.readTest, tool: 'Read', input: { file_path: abs(S.TEST_PATH) }, result: numbered(S.TEST_SOURCE), isError: false, toolUseResult: { type: 'text', file: { filePath: abs(S.TEST_PATH), content: S.TEST_SOURCE, numLines: lines(S.TEST_SOURCE), startLine: 1, totalLines: lines(S.TEST_SOURCE) } } },
  { thought: S.THOUGHTS.readMissing, tool: 'Read', input: { file_path: abs(S.MISSING_PATH) }, result: '<tool_use_error>File does not exist.</tool_use_error>', isError: true, toolUseResult: 'Error: File does not exist.' },
  { thought: S.THOUGHTS.readSource, tool: 'Read', input: { file_path: abs(S.SRC_PATH) }, result: numbered(S.SRC_BEFORE), isError: false, toolUseResult: { type: 'text', file: { filePath: abs(S.SRC_PATH), content: S.SRC_BEFORE, numLines: lines(S.SRC_BEFORE), startLine: 1, totalLines: lines(S.SRC_BEFORE) } } },
  { thought: S.THOUGHTS.runTests, tool: 'Bash', input: { command: S.TEST_COMMAND, description: 'Run the test suite' }, result: `Error: Exit code 1\n${S.TEST_OUTPUT_FAIL}`, isError: true, toolUseResult: `Error: Exit code 1\n${S.TEST_OUTPUT_FAIL}` },
  { thought: S.THOUGHTS.edit, tool: 'Edit', input: { file_path: abs(S.SRC_PATH), old_string: S.SRC_BEFORE, new_string: S.SRC_AFTER }, result: `The file ${abs(S.SRC_PATH)} has been updated.`, isError: false, toolUseResult: { filePath: abs(S.SRC_PATH), oldString: S.SRC_BEFORE, newString: S.SRC_AFTER, replaceAll: false } },
  { thought: S.THOUGHTS.rerun, tool: 'Bash', input: { command: S.TEST_COMMAND, description: 'Run the test suite' }, result: S.TEST_OUTPUT_PASS.trim(), isError: false, toolUseResult: { stdout: S.TEST_OUTPUT_PASS.trim(), stderr: '', interrupted: false, isImage: false } },
  { thought: S.THOUGHTS.push, tool: 'Bash', input: { command: S.PUSH_COMMAND, description: 'Push the fix branch' }, result: REJECTED, isError: true, toolUseResult: `Error: ${REJECTED}` },
];

/** Writes lines chained by parentUuid, each with the common envelope keys in Claude Code's order. */
class Transcript {
  readonly lines: string[] = [];
  readonly ids = new SeededIds('claude-code');
  readonly sessionId = this.ids.uuid4();
  readonly clock = new Clock(BASE_MS);
  private parent: string | null = null;

  add(type: 'user' | 'assistant', message: Json, delta: number, extra: Record<string, Json> = {}): void {
    const uuid = this.ids.uuid4();
    const line = {
      parentUuid: this.parent, isSidechain: false, userType: 'external', cwd: S.CWD, sessionId: this.sessionId, version: VERSION,
      gitBranch: BRANCH, type, message, ...(type === 'assistant' ? { requestId: extra.requestId } : {}), uuid,
      timestamp: isoMs(this.clock.tick(delta)), ...(type === 'user' && extra.toolUseResult !== undefined ? { toolUseResult: extra.toolUseResult } : {}),
    };
    this.lines.push(JSON.stringify(line));
    this.parent = uuid;
  }

  /** One API response, split into one line per content block. */
  response(blocks: Json[], stop: string, usage: [number, number], delta: number): void {
    const id = `msg_01${this.ids.base62(22)}`;
    const requestId = `req_011C${this.ids.base62(20)}`;
    blocks.forEach((block, i) => {
      const last = i === blocks.length - 1;
      const message = {
        model: MODEL, id, type: 'message', role: 'assistant', content: [block], stop_reason: last ? stop : null, stop_sequence: null,
        usage: { input_tokens: 4, cache_creation_input_tokens: usage[0] - 4 - 12000, cache_read_input_tokens: 12000, output_tokens: usage[1], service_tier: 'standard' },
      };
      this.add('assistant', message, i === 0 ? delta : 180, { requestId });
    });
  }
}

/** The claude-code sample: `claude-code/<session_id>.jsonl`. */
export function generateClaudeCode(): SampleFile[] {
  const t = new Transcript();
  t.add('user', { role: 'user', content: S.PROMPT }, 0);
  STEPS.forEach((s, i) => {
    const toolUseId = `toolu_01${t.ids.base62(22)}`;
    t.response([{ type: 'text', text: s.thought }, { type: 'tool_use', id: toolUseId, name: s.tool, input: s.input }], 'tool_use', [14210 + 900 * i, 60 + 25 * i], 1700 + 90 * i);
    const result: Record<string, Json> = { tool_use_id: toolUseId, type: 'tool_result', content: s.result };
    if (s.isError) result.is_error = true;
    t.add('user', { role: 'user', content: [result] }, s.tool === 'Bash' ? 920 : 40, { toolUseResult: s.toolUseResult });
  });
  t.add('user', { role: 'user', content: [{ type: 'text', text: "Don't push. I'll push after review." }] }, 9400);
  t.response([{ type: 'text', text: S.FINAL_ANSWER }], 'end_turn', [21410, 148], 2300);
  return [{ path: `claude-code/${t.sessionId}.jsonl`, data: jsonl(t.lines) }];
}

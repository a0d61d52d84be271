import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../src/core/loadTrace';
import { claudeLineLabel } from '../../src/core/formats/claude-code/claudeDescribe';
import { short } from '../../src/core/formats/common';
import { CLAUDE_SHELL_FAIL, corpusFile } from '../helpers/treeCorpus';

describe('tree labels: terminal escapes', () => {
  it('a label drops terminal escape sequences and control characters instead of showing them', () => {
    assert.equal(short('\u001b[?2026h\u001b[31mError:\u001b[0m build failed\u001b[?2026l', 48), 'Error: build failed');
    assert.equal(short('\u001b]0;npm test\u0007> agent@1.0.0 test', 48), '> agent@1.0.0 test');
    assert.equal(short('a\u0000b\u0008c', 48), 'a b c');
    assert.equal(short('plain label', 48), 'plain label');
  });

  it("a Claude Code tool result whose output holds a terminal's escapes (a real corpus line, its output coloured) is labelled with the text", async () => {
    const file = corpusFile(CLAUDE_SHELL_FAIL);
    const model = await loadTrace(file);
    const lines = readFileSync(file, 'utf8').split('\n');
    const result = Array.from({ length: model.events.size }, (_, k) => k).find((k) => model.events.kindOf(k) === 'user' && model.events.categoryOf(k) === 'tool')!;
    assert.ok(result !== undefined, 'the corpus file has a tool result');
    const v = JSON.parse(lines[model.events.lineOf(result) - 1]);
    const block = v.message.content.find((b: { type: string }) => b.type === 'tool_result');
    const text = typeof block.content === 'string' ? block.content : block.content[0].text;
    const coloured = `\u001b[?2026h\u001b[31m${text}\u001b[0m\u001b[?2026l`;
    if (typeof block.content === 'string') block.content = coloured;
    else block.content[0].text = coloured;
    const label = claudeLineLabel(v, { kind: 'user', tool: 'Bash', durationMs: 65 })!;
    assert.doesNotMatch(label, /[\u0000-\u001f]|\[\?2026/, label);
    assert.equal(label, claudeLineLabel(JSON.parse(lines[model.events.lineOf(result) - 1]), { kind: 'user', tool: 'Bash', durationMs: 65 }));
  });
});

describe('tree labels: the model is not repeated on every row', () => {
  it('Claude Code assistant and tool_use rows of a real transcript do not carry the model name', async () => {
    const model = await loadTrace(corpusFile(CLAUDE_SHELL_FAIL));
    const labels = Array.from({ length: model.events.size }, (_, k) => model.events.labelOf(k));
    const steps = labels.filter((l) => /^(assistant|Bash)/.test(l));
    assert.ok(steps.length >= 3, labels.join('\n'));
    for (const l of steps) assert.doesNotMatch(l, /claude-opus/, l);
    assert.ok(steps.includes('Bash: ls /nonexistent'), steps.join('\n'));
  });
});

/** Every label of a corpus file (test/corpus: real writers' files), in file order. */
async function labelsOf(file: string): Promise<string[]> {
  const model = await loadTrace(file);
  return Array.from({ length: model.events.size }, (_, k) => model.events.labelOf(k));
}

const CORPUS = 'test/corpus';

describe('tree labels: a row says what happened (issue 40), the same words for every format', () => {
  // Per format, the rows of a real writer's files: a call says its tool and argument, its result (or the call's own
  // record when it holds the result) the outcome: exit code, error or ok, lines read, and the time from the call.
  const cases: [string, string, string[]][] = [
    ['claude-code transcript', 'claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl', ['Bash: ls /nonexistent', 'Bash: ls /nonexistent → exit 2, 65 ms']],
    ['claude-code stream-json', 'claude-code-2.1.332/shell-fail/stream-json.jsonl', ['Bash: ls /nonexistent', 'Bash: ls /nonexistent → exit 2, 65 ms']],
    ['claude-code Read, Write and Edit, paths under the run\'s folder relative', 'claude-code-2.1.332/edit/projects/-home-user-project/3a0f5824-90dc-4f0a-a2a7-3eb9a81ceaa3.jsonl',
      ['Read: README.md', 'Read: README.md (4 lines) → ok, 439 ms', 'Write: notes.txt', 'Edit: notes.txt → ok, 468 ms', 'Read: missing.txt → error, 26 ms: File does not exist. Note: your current working directory is /h…']],
    ['codex rollout', 'codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl',
      ['exec_command: ls /nonexistent', 'exec_command: ls /nonexistent → exit 2, 0 ms', 'model gpt-5.5: 9,153 in / 68 out (thread 9.2k→68 tokens)']],
    ['codex rollout, a patch said by its files', 'codex-0.171.0/edit/sessions/2026/12/07/rollout-2026-12-07T04-48-42-01a24ed5-29f7-7c82-b5ef-5952ae0b6871.jsonl',
      ['apply_patch: notes.txt', 'apply_patch: notes.txt → exit 0, 0 ms', 'apply_patch: missing.txt → error, 13 ms: apply_patch verification failed: Failed to read file to update …']],
    ['codex exec --json', 'codex-0.171.0/shell-fail/exec.jsonl', ["command_execution: /bin/bash -lc 'ls /nonexistent'", "command_execution: /bin/bash -lc 'ls /nonexistent' → exit 2"]],
    ['gemini-cli chat', 'gemini-cli-0.61.0/shell-fail/tmp/project/chats/session-2026-12-01T16-25-95d457d6.jsonl', ['run_shell_command: ls /nonexistent → exit 2, 119 ms']],
    ['gemini-cli stream-json', 'gemini-cli-0.61.0/shell-fail/stream-json.jsonl', ['run_shell_command: ls /nonexistent', 'run_shell_command: ls /nonexistent → ok, 141 ms']],
    ['copilot-cli events', 'copilot-cli-1.0.102/shell-fail/.copilot/session-state/b5ac196c-55e9-4d6d-b3a5-48f5ff2770c1/events.jsonl', ['bash: ls /nonexistent']],
    ['pi session', 'pi-0.73.1/shell-fail/.pi/agent/sessions/--home-user-project--/2026-12-07T02-02-52-827Z_01a24e3d-5819-75af-b274-d6ab33aa2b48.jsonl', ['bash: ls /nonexistent', 'bash: ls /nonexistent → exit 2, 112 ms']],
    ['pi --mode json', 'pi-0.73.1/shell-fail/mode-json.jsonl', ['bash: ls /nonexistent', 'bash: ls /nonexistent → exit 2, 187 ms']],
    ['opencode run', 'opencode-1.18.33/shell-fail/run.jsonl', ['bash: ls /nonexistent', 'bash: ls /nonexistent → exit 2, 2.1 s']],
    ['qwen-code stream-json', 'qwen-code-0.24.4/shell-fail/stream-json.jsonl', ['run_shell_command: ls /nonexistent', 'run_shell_command: ls /nonexistent → exit 2']],
    ['continue session', 'continue-1.5.47/shell-fail/.continue/sessions/b3aa9327-b19b-47af-8950-8cf0c3d8838e.json', ['Bash: ls /nonexistent (errored)', 'Bash: ls /nonexistent → exit 2']],
    // OpenTelemetry GenAI spans (execute_tool, chat): the tool's arguments or process.command_line, the exit code its
    // process.exit.code or its result's text states.
    ['otlp (JS SDK) execute_tool and chat spans', 'otel-js-2.12.1/otlp-traces.json', ['shell: echo hello → exit 0, 60 ms', 'shell: ls /nonexistent → exit 2, 100 ms', 'model gpt-5-2025-08-07: 1,840 in / 64 out']],
    ['otlp JSON Lines, arguments and result in the span', 'otel-js-2.12.1/otlp-traces-messages.jsonl', ['shell: find src -name "*.ts" | wc -l → ok, 80 ms', 'shell: npm run build → exit 2, 80 ms', 'model gpt-5-2025-08-07: 1,010 in / 27 out']],
  ];
  for (const [name, file, expected] of cases) {
    it(`${name}: ${expected[expected.length - 1]}`, async () => {
      const labels = await labelsOf(`${CORPUS}/${file}`);
      for (const want of expected) assert.ok(labels.includes(want), `${want}\nnot among:\n${labels.join('\n')}`);
      // No row of a tool step keeps the writer's record type as its head.
      assert.deepEqual(labels.filter((l) => /^(tool_use|tool_result|function_call|tool result(?! start)) /.test(l)), []);
    });
  }
});

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
    const result = Array.from({ length: model.events.size }, (_, k) => k).find((k) => model.events.labelOf(k).startsWith('tool_result'))!;
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
    const steps = labels.filter((l) => /^(assistant|tool_use)/.test(l));
    assert.ok(steps.length >= 3, labels.join('\n'));
    for (const l of steps) assert.doesNotMatch(l, /claude-opus/, l);
    assert.ok(steps.includes('tool_use Bash (cont.): ls /nonexistent'), steps.join('\n'));
  });
});

import { strict as assert } from 'node:assert';
import { claudeCodeAdapter } from '../../../../src/core/formats/claude-code/adapter';
import { loadTrace } from '../../../../src/core/loadTrace';
import { readFileSync } from 'node:fs';
import { LocateBudget } from '../../../../src/core/formats/locateBudget';
import { tempFile } from '../../../helpers/tmp';
import { corpus, corpusFiles, findingsOf, fixture, linkLines, nodes, parentLines } from '../../../fixtures/other/harness';
import { summarize } from '../../../../src/core/summary';

const SESSION_JSONL = corpus('other/claude-code/sample_session.jsonl');
const SESSION_JSON = corpus('other/claude-code/sample_session.json');
const SIDECHAIN = fixture('claude-sidechain.jsonl');

describe('claude-code adapter: corpus', () => {
  it('reads sample_session.jsonl: 8 roots of its links (the fixture omits parentUuid) shown as 2 turns, labels from content', async () => {
    const m = await loadTrace(SESSION_JSONL);
    assert.equal(m.format, 'claude-code');
    assert.ok(m.detection.confidence >= 0.9, `confidence ${m.detection.confidence}`);
    assert.equal(m.events.size, 8);
    assert.equal(summarize(m).roots, 8);
    assert.deepEqual(linkLines(m), [null, null, null, null, null, null, null, null]);
    // The summary line, then each prompt with its steps, each tool result under its call.
    assert.deepEqual(parentLines(m), [null, null, 2, 3, 2, 5, null, 7]);
    const n = nodes(m);
    assert.deepEqual(n.map((x) => x.kind), ['summary', 'user', 'assistant', 'user', 'assistant', 'user', 'user', 'assistant']);
    assert.deepEqual(n.map((x) => x.id), [null, 'msg-001', 'msg-002', 'msg-003', 'msg-004', 'msg-005', 'msg-006', 'msg-007']);
    assert.equal(n[0].label, 'summary: Test session for JSONL parsing');
    assert.equal(n[1].label, 'user: Create a hello world function');
    // A call says its tool and argument, its result the call with what came of it (issue 40).
    assert.equal(n[2].label, 'Write: /project/hello.py');
    assert.equal(n[3].label, 'Write: /project/hello.py → ok, 5.0 s');
    assert.equal(n[4].label, "Bash: git add . && git commit -m 'Add hello function'");
    const result = m.events.get(3);
    assert.equal(result.category, 'tool');
    assert.equal(result.tool, 'Write');
    assert.equal(result.durationMs, 5000);
    assert.equal(result.status, 'ok');
    assert.deepEqual(result.mentions, [{ field: 'message.content[0].tool_use_id', id: 'toolu_001' }]);
    assert.deepEqual(m.events.get(2).mentions, [{ field: 'message.content[1].id', id: 'toolu_001' }]);
    assert.deepEqual(m.events.get(0).mentions, [{ field: 'leafUuid', id: 'test-leaf-uuid' }]);
    assert.equal(m.events.get(1).group, 'test-session-id');
    assert.equal(m.events.get(1).time, Date.parse('2025-12-24T10:00:00.000Z'));
    assert.deepEqual(m.formatTotals, { toolCalls: 2, errors: 0 });
  });

  it('verify reports only the summary leaf that is in no file; check is clean', async () => {
    assert.deepEqual(await findingsOf(SESSION_JSONL, 'verify'), ['claude/summary-leaf@1']);
    assert.deepEqual(await findingsOf(SESSION_JSONL, 'check'), []);
  });

  it('reads the loglines document sample_session.json: 33 records, each at its own line', async () => {
    const m = await loadTrace(SESSION_JSON);
    assert.equal(m.format, 'claude-code');
    assert.equal(m.document, true);
    assert.ok(m.detection.confidence >= 0.8);
    assert.equal(m.events.size, 33);
    assert.equal(summarize(m).roots, 33);
    assert.deepEqual([...m.tree.roots].map((i) => m.events.labelOf(i)), [
      'user: Create a simple Python function to add two numbers', 'user: Now edit the file to add a subtract function', 'user: Run the tests again',
      'user: Fix the issue and commit', 'user: Add a multiply function too',
    ]);
    assert.deepEqual(nodes(m).map((x) => x.line), [5, 13, 39, 54, 76, 91, 118, 133, 151, 166, 188, 203, 211, 229, 244, 263, 278, 301, 316, 324, 342, 357, 370, 378, 398, 413, 431, 446, 460, 468, 476, 495, 510]);
    const failed = m.events.get(20);
    assert.equal(failed.status, 'error', 'the tool_result with is_error true');
    assert.equal(failed.tool, 'Bash');
    assert.equal(failed.label, 'Bash: python -m pytest tests/ -v → exit 1, 5.0 s');
    assert.equal(m.events.get(28).label.startsWith('compact summary: '), true);
    assert.deepEqual(m.formatTotals, { toolCalls: 12, errors: 1 });
    assert.deepEqual(await findingsOf(SESSION_JSON, 'verify'), []);
    assert.deepEqual(await findingsOf(SESSION_JSON, 'check'), []);
  });
});

describe('claude-code adapter: a pretty-printed JSON array of transcript lines', () => {
  it('places every element at its own line and checks it like the JSONL', async () => {
    const values = readFileSync(SESSION_JSONL, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const text = JSON.stringify(values, null, 2);
    const file = tempFile('session.json', text);
    const m = await loadTrace(file);
    assert.equal(m.format, 'claude-code');
    assert.equal(m.document, true);
    assert.equal(m.events.size, 8);
    const lines = text.split('\n');
    const n = nodes(m);
    for (let i = 1; i < n.length; i++) assert.ok(n[i].line > n[i - 1].line, 'lines increase');
    for (const x of n.slice(1)) assert.ok(lines[x.line - 1].includes(`"uuid": "${x.id}"`) || lines[x.line - 1].includes('"timestamp"'), `line ${x.line} belongs to ${x.id}`);
    assert.deepEqual(await findingsOf(file, 'verify'), [`claude/summary-leaf@${n[0].line}`]);
    assert.deepEqual(await findingsOf(file, 'check'), []);
  });

  it('bounds locate work on huge documents', () => {
    const budget = new LocateBudget(100);
    const rec = { value: null, line: 1, offset: 0, length: 60, locate: () => 7 };
    assert.equal(budget.locate(rec, 'x'), 7);
    assert.equal(budget.locate(rec, 'x'), null);
  });
});

describe('claude-code adapter: a real sidechain session (claude-code-log sidechain_integrated, cwd sanitized)', () => {
  it('links by uuid: sidechain roots have parentUuid null; truncated parents link nowhere; results under their calls', async () => {
    const m = await loadTrace(SIDECHAIN);
    assert.equal(m.format, 'claude-code');
    assert.ok(m.detection.confidence >= 0.95);
    assert.deepEqual(linkLines(m), [null, 1, null, 3, null, 2]);
    // The file starts mid-turn (no prompt): steps are roots, the sidechain's continuation under its first line, and
    // the result whose call is cut off a root.
    assert.deepEqual(parentLines(m), [null, 1, null, 3, null, null]);
    assert.equal(m.events.get(0).label, 'Task: Research data-border-color usage and CSS class mat...');
    assert.equal(m.events.get(0).tokensIn, 141275, 'input counts cache writes and reads');
    assert.equal(m.events.get(0).model, 'claude-sonnet-4-5-20250929');
    assert.equal(m.events.get(3).tokensIn, null, 'a split response shows its usage once');
    // A call on a line that continues a response says the call alone: its tokens are the response's first line's.
    assert.equal(m.events.get(3).label, 'Grep: data-border-color');
    assert.equal(m.events.get(2).group, '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358/sidechain');
    assert.deepEqual(m.events.get(1).mentions.map((x) => x.id), ['e1c84ba5', 'toolu_01JA2mLseQCAW3MdwPE4qWEk']);
    assert.deepEqual(m.formatTotals, { toolCalls: 2, errors: 0, inputTokens: 305335, outputTokens: 738, cacheReadTokens: 141272, cacheCreationTokens: 164054 });
  });

  it('verify: dangling parents of the truncated file; check: split response, unanswered call, unpaired result', async () => {
    assert.deepEqual(await findingsOf(SIDECHAIN, 'verify'), ['claude/parent-exists@1', 'claude/parent-exists@5']);
    assert.deepEqual(await findingsOf(SIDECHAIN, 'check'), ['claude/split-message@4', 'claude/unanswered-tool-use@4', 'claude/tool-result-pairing@5']);
  });
});

describe('claude-code detection', () => {
  it('claims only Claude Code files of the corpus: the other/claude-code samples and the outside Claude Code CLI files (stream-json included)', async () => {
    for (const file of corpusFiles()) {
      const m = await loadTrace(file);
      const mine = m.detection.candidates.find((c) => c.format === 'claude-code');
      const expected = file.includes('/other/claude-code/') || file.includes('/outside/claude-code-');
      assert.equal((mine?.confidence ?? 0) >= 0.5, expected, `${file}: ${JSON.stringify(m.detection.candidates)}`);
      // A file of the real CLI is claimed with confidence and wins, not merely passes the threshold.
      if (file.includes('/outside/claude-code-')) assert.equal(m.format, 'claude-code');
      if (file.includes('/outside/claude-code-')) assert.ok(m.detection.confidence >= 0.9, `${file}: ${m.detection.confidence}`);
    }
  });

  it('stream-json lines: system/init first, snake_case session_id, parent_tool_use_id on messages', () => {
    const sniff = (values: unknown[]) => claudeCodeAdapter.sniff({ values, fileName: 'out.jsonl', path: 'out.jsonl', document: false });
    const init = { type: 'system', subtype: 'init', session_id: 's', tools: [], model: 'm' };
    const msg = { type: 'assistant', message: { role: 'assistant', content: [] }, parent_tool_use_id: null, session_id: 's', uuid: 'u' };
    assert.ok(sniff([init, msg]).confidence >= 0.9);
    assert.equal(sniff([init, msg]).dialect, 'stream-json');
    const { parent_tool_use_id: _dropped, ...transcriptLike } = msg;
    assert.equal(sniff([transcriptLike]).dialect, 'transcript', 'no parent_tool_use_id key: not stream-json');
  });

  it('does not claim foreign JSON lines', () => {
    const sniff = (values: unknown[]) => claudeCodeAdapter.sniff({ values, fileName: 'x.jsonl', path: 'x.jsonl', document: false }).confidence;
    assert.equal(sniff([{ type: 'run_started', id: 'a' }, { type: 'user', text: 'hi' }]), 0);
    assert.equal(sniff([{ timestamp: 't', type: 'session_meta', payload: {} }]), 0);
    assert.equal(sniff([]), 0);
    assert.ok(sniff([{ type: 'file-history-snapshot', messageId: 'm' }, { type: 'user', uuid: 'u', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'x' } }]) >= 0.9);
  });
});

// opencode's part types (MessageV2.Part in its message-v2.ts): each read as a row of its own, an unknown one as a
// plain row; a message of several steps shows each step, counted once; failures as opencode records them. The files
// are the real corpus export and stream with parts added or changed.
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import type { TraceModel } from '../../../../src/core/traceModel';
import { writerFiles } from '../../../helpers/writerCorpus';
import { tempDir, tempFile } from '../../../helpers/tmp';

const EXPORT = writerFiles('opencode', (p) => p.endsWith('/shell-ok/export.json'))[0];
const STREAM = writerFiles('opencode', (p) => p.endsWith('/shell-ok/run.jsonl'))[0];
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];
const byKind = (m: TraceModel, kind: string) => indices(m).filter((i) => m.events.kindOf(i) === kind);

describe('opencode: every part type, several steps in a message, failures', () => {
  let dir: string;
  beforeEach(() => { dir = tempDir('atv-opencode-parts-'); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a message of two steps (opencode 0.x) shows each step under it with its own usage, counted once; every part type is a row', async () => {
    const doc = JSON.parse(readFileSync(EXPORT, 'utf8'));
    const [user, first, second] = doc.messages;
    // One assistant message holding both steps, as older opencode wrote them; its tokens are their sum.
    const sum = (k: string) => first.info.tokens[k] + second.info.tokens[k];
    const merged = {
      info: { ...first.info, cost: first.info.cost + second.info.cost, tokens: { total: first.info.tokens.total + second.info.tokens.total, input: sum('input'), output: sum('output'), reasoning: 0, cache: { read: first.info.tokens.cache.read + second.info.tokens.cache.read, write: 0 } } },
      parts: [
        ...first.parts,
        ...second.parts.map((p: any) => ({ ...p, messageID: first.info.id })),
        { type: 'patch', hash: 'abcdef0123456789', files: ['/home/user/project/a.txt'], id: 'prt_patch', sessionID: doc.info.id, messageID: first.info.id },
        { type: 'snapshot', snapshot: '0123456789abcdef', id: 'prt_snap', sessionID: doc.info.id, messageID: first.info.id },
        { type: 'retry', attempt: 2, error: { name: 'APIError', data: { message: 'overloaded', isRetryable: true } }, time: { created: 1 }, id: 'prt_retry', sessionID: doc.info.id, messageID: first.info.id },
        { type: 'reasoning', text: 'thinking it over', time: { start: 1, end: 2 }, id: 'prt_reason', sessionID: doc.info.id, messageID: first.info.id },
        { type: 'future-part', stuff: 1, id: 'prt_future', sessionID: doc.info.id, messageID: first.info.id },
      ],
    };
    user.parts.push(
      { type: 'file', mime: 'text/plain', filename: 'README.md', url: 'file:///home/user/project/README.md', id: 'prt_file', sessionID: doc.info.id, messageID: user.info.id },
      { type: 'agent', name: 'general', id: 'prt_agent', sessionID: doc.info.id, messageID: user.info.id },
      { type: 'subtask', prompt: 'p', description: 'look around', agent: 'explore', id: 'prt_subtask', sessionID: doc.info.id, messageID: user.info.id },
      { type: 'compaction', auto: true, id: 'prt_compact', sessionID: doc.info.id, messageID: user.info.id },
    );
    doc.messages = [user, merged];
    const m = await loadTrace(tempFile('export.json', JSON.stringify(doc, null, 2), dir));
    assert.equal(m.format, 'opencode');
    const [assistant] = byKind(m, 'assistant');
    const steps = byKind(m, 'step');
    assert.deepEqual(steps.map((i) => m.events.parent(i)), [assistant, assistant]);
    // The tool call is in the first step, the second step's text in the second.
    assert.equal(m.events.parent(byKind(m, 'tool')[0]), steps[0]);
    assert.equal(m.events.parent(byKind(m, 'text').at(-1)!), steps[1]);
    const s = summarize(m);
    assert.equal(s.usage.total.inputTokens, sum('input') + merged.info.tokens.cache.read, 'each step once, the message not added again');
    assert.equal(s.usage.total.outputTokens, sum('output'));
    assert.equal(s.usage.total.costUsd, doc.info.cost);
    for (const kind of ['patch', 'snapshot', 'retry', 'reasoning', 'future-part', 'file', 'agent', 'subtask', 'compaction']) {
      assert.equal(byKind(m, kind).length, 1, kind);
    }
    assert.match(m.events.labelOf(byKind(m, 'future-part')[0]), /^part future-part/);
    assert.equal(m.events.statusOf(byKind(m, 'retry')[0]), 'warning');
    assert.equal(m.events.parent(byKind(m, 'compaction')[0]), byKind(m, 'user')[0]);
    const loud = (await runChecks(m, 'check')).findings.filter((f) => f.severity !== 'info');
    assert.deepEqual(loud, []);
  });

  it('an assistant message with an error, and a tool still running, are an error and a warning; the running call has no result', async () => {
    const doc = JSON.parse(readFileSync(EXPORT, 'utf8'));
    const [, first, second] = doc.messages;
    second.info.error = { name: 'APIError', data: { message: 'Bad Gateway', isRetryable: false } };
    const tool = first.parts.find((p: any) => p.type === 'tool');
    tool.state = { status: 'running', input: tool.state.input, time: { start: tool.state.time.start } };
    const m = await loadTrace(tempFile('export.json', JSON.stringify(doc, null, 2), dir));
    const [, failed] = byKind(m, 'assistant');
    assert.equal(m.events.statusOf(failed), 'error');
    assert.match(m.events.labelOf(failed), /APIError: Bad Gateway/);
    const [call] = byKind(m, 'tool');
    assert.equal(m.events.statusOf(call), 'warning');
    assert.match(m.events.labelOf(call), /not finished: running/);
    assert.deepEqual(byKind(m, 'tool_result'), []);
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('a stream\'s error line is an error row under its session, counted', async () => {
    const lines = readFileSync(STREAM, 'utf8').split('\n').filter((l) => l !== '');
    const sessionID = JSON.parse(lines[0]).sessionID;
    lines.push(JSON.stringify({ type: 'error', timestamp: 1, sessionID, error: { name: 'UnknownError', data: { message: 'boom' } } }));
    const m = await loadTrace(tempFile('run.jsonl', lines.join('\n') + '\n', dir));
    const [err] = byKind(m, 'error');
    assert.equal(m.events.statusOf(err), 'error');
    assert.equal(m.events.kindOf(m.events.parent(err)), 'session');
    assert.match(m.events.labelOf(err), /UnknownError: boom/);
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('a stream part of a type this reader does not know is a plain row under its message', async () => {
    const lines = readFileSync(STREAM, 'utf8').split('\n').filter((l) => l !== '');
    const first = JSON.parse(lines[0]);
    lines.splice(1, 0, JSON.stringify({ type: 'text', timestamp: 1, sessionID: first.sessionID, part: { id: 'prt_new', messageID: first.part.messageID, sessionID: first.sessionID, type: 'hologram' } }));
    const m = await loadTrace(tempFile('run.jsonl', lines.join('\n') + '\n', dir));
    const [row] = byKind(m, 'hologram');
    assert.equal(m.events.kindOf(m.events.parent(row)), 'assistant');
    assert.match(m.events.labelOf(row), /^part hologram/);
  });

  it('an export with no messages, and a JSON file of another shape, read without a crash (the other not as opencode)', async () => {
    const doc = JSON.parse(readFileSync(EXPORT, 'utf8'));
    doc.messages = [];
    const empty = await loadTrace(tempFile('empty.json', JSON.stringify(doc, null, 2), dir));
    assert.equal(empty.format, 'opencode');
    assert.equal(byKind(empty, 'session').length, 1);
    const other = await loadTrace(tempFile('other.json', JSON.stringify({ info: { id: 1 }, messages: 'no' }, null, 2), dir));
    assert.notEqual(other.format, 'opencode');
  });
});

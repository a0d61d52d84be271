import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import type { DetailMessage, HeaderMessage, HostMessage, InitMessage } from '../../src/protocol';
import { parseViewMessage } from '../../src/protocol/validate';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { recordingHost } from '../helpers/viewerHost';
import { until } from '../helpers/until';
import { sessionFilesFact } from '../../webview/headerFacts';
import { WRITER_CORPUS } from '../helpers/corpus';

/** A Claude Code session whose Agent call started a subagent, with the subagent's transcript in <session>/subagents/. */
const SESSION = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');
const SUBAGENT = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4/subagents/agent-a5c03940d33ae9f06.jsonl');

describe('viewer: a session with a subagent shows the session\'s totals and opens the subagent', () => {
  it('the header is sent again with the subagent counted in, and names it with its own share', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(SESSION));
    const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
    assert.equal(init.header.inputTokens, 23824, 'the file records the session\'s totals (cost-state)');
    const h = await until(() => host.sent.find((m): m is HeaderMessage => m.type === 'header' && (m.header.usage?.files?.length ?? 0) > 1));
    const files = h.header.usage!.files!;
    assert.deepEqual(files.map((f) => [f.role, f.name, f.inputTokens, f.outputTokens]), [
      ['session', '87aba006-238f-4834-a6fa-3396f07d36f4.jsonl', 16067, 94],
      ['subagent', 'agent-a5c03940d33ae9f06.jsonl', 7757, 47],
    ]);
    assert.deepEqual([h.header.inputTokens, h.header.outputTokens, h.header.usage!.costUsd], [23824, 141, 0.0570878], 'the session\'s figures, the cost counted once');
    assert.equal(h.header.toolCalls, 2, 'the Agent call and the subagent\'s Bash call');
    const fact = sessionFilesFact(h.header)!;
    assert.equal(fact.text, 'incl. 1 subagent');
    assert.match(fact.title, /subagent "Say hello via shell" \(agent-a5c03940d33ae9f06\.jsonl\): 7\.8k in, 47 out/);
    assert.match(fact.title, /not added again/);

    await s.handle({ type: 'openSessionFile', index: 1 });
    await until(() => host.opened[0]);
    assert.deepEqual(host.opened, [SUBAGENT]);
    await s.handle({ type: 'openSessionFile', index: 7 });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(host.opened.length, 1, 'an index past the session\'s files opens nothing');
    s.dispose();
  });

  it('a file that is the whole session gets no second header and no session fact', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(SUBAGENT));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(host.sent.filter((m) => m.type === 'header').length, 0);
    const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
    assert.equal(sessionFilesFact(init.header), null);
    s.dispose();
  });

  it('the webview may only name a file by its index in the session, never by path', () => {
    assert.ok(parseViewMessage('viewer', { type: 'openSessionFile', index: 1 }));
    for (const bad of [{ type: 'openSessionFile', index: 0 }, { type: 'openSessionFile', index: 1.5 }, { type: 'openSessionFile', path: '/etc/passwd' }]) {
      assert.equal(parseViewMessage('viewer', bad), null, JSON.stringify(bad));
    }
  });
});

describe('viewer: the Agent call that started a subagent names it in its detail', () => {
  it('the detail of the line holding the Agent tool_use lists the subagent with its usage; other lines none', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    const model = await loadTrace(SESSION);
    s.setModel(model);
    const meta = JSON.parse(readFileSync(SUBAGENT.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
    const lines = readFileSync(SESSION, 'utf8').split('\n');
    const callLine = lines.findIndex((l) => l.includes(`"type":"tool_use","id":"${meta.toolUseId}"`)) + 1;
    assert.ok(callLine > 0, 'the session holds the Agent call');
    const nodeAt = (line: number) => { for (let i = 0; i < model.events.size; i++) if (model.events.lineOf(i) === line) return i; return -1; };
    await s.handle({ type: 'select', node: nodeAt(callLine) });
    const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail' && m.detail.line === callLine));
    assert.deepEqual(d.detail.subagents?.map((x) => [x.index, x.name, x.title, x.inputTokens, x.outputTokens]), [[1, 'agent-a5c03940d33ae9f06.jsonl', 'Say hello via shell', 7757, 47]]);
    await s.handle({ type: 'select', node: nodeAt(1) });
    const first = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail' && m.detail.line === 1));
    assert.equal(first.detail.subagents, undefined);
    s.dispose();
  });
});

describe('viewer: the Statistics tab of a session with a subagent', () => {
  it('answers with the file\'s statistics, then the session\'s: models and tools with the subagent counted in, and each file\'s share', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(SESSION));
    await s.handle({ type: 'requestStatistics' });
    const stats = await until(() => {
      const all = host.sent.filter((m): m is Extract<HostMessage, { type: 'statistics' }> => m.type === 'statistics');
      return all.length >= 2 ? all : undefined;
    });
    assert.equal(stats[0].stats.session, undefined, 'first the file alone, at once');
    const session = stats[1].stats;
    assert.deepEqual(session.byModel.map((m) => [m.model, m.calls, m.inputTokens, m.outputTokens, m.costUsd]), [['claude-opus-5-5', 5, 23824, 141, 0.0570878]]);
    assert.deepEqual(session.byTool.map((t) => [t.tool, t.calls]), [['Agent', 1], ['Bash', 1]]);
    assert.deepEqual(session.session?.files.map((f) => [f.role, f.name, f.records, f.costCoversSession]), [
      ['session', '87aba006-238f-4834-a6fa-3396f07d36f4.jsonl', 3, true],
      ['subagent', 'agent-a5c03940d33ae9f06.jsonl', 2, false],
    ]);
    s.dispose();
  });
});

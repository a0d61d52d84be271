import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import type { HeaderMessage, HostMessage, InitMessage } from '../../src/protocol';
import { headerOf, kindsOf } from '../../src/viewer/sessionModelInfo';
import { filterValuesOf } from '../../src/viewer/sessionFilter';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { recordingHost } from '../helpers/viewerHost';
import { join } from 'node:path';
import { WRITER_CORPUS } from '../helpers/corpus';

/** A Claude Code session with a tool call and token counts, as Claude Code wrote it. */
const CLAUDE = join(WRITER_CORPUS, 'claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');

async function opened(countTotalsAfterRowsAbove: number) {
  const host = recordingHost();
  const s = new ViewerSession(host, { expandAllMaxEvents: 20_000, countTotalsAfterRowsAbove });
  await s.handle({ type: 'ready', state: null });
  const model = await loadTrace(CLAUDE);
  s.setModel(model);
  const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
  return { host, s, model, init };
}

const headers = (host: { sent: HostMessage[] }) => host.sent.filter((m): m is HeaderMessage => m.type === 'header');

describe('viewer session: header totals of a large model follow its first rows', () => {
  it('a model over the limit: init carries the facts that need no summary, the totals follow the first rows drawn', async () => {
    const { host, s, model, init } = await opened(0);
    const full = headerOf(model);
    assert.ok(full.toolCalls > 0 && full.groups > 0, 'the file has tool calls and a session to count');
    assert.equal(init.header.counting, true);
    assert.deepEqual([init.header.events, init.header.lines, init.header.toolCalls, init.header.groups, init.header.inputTokens], [model.events.size, model.lineCount, 0, 0, null]);
    assert.deepEqual([init.header.startTime, init.header.endTime, init.header.columns], [full.startTime, full.endTime, full.columns]);
    assert.equal(headers(host).length, 0, 'nothing counted before rows were asked for');
    await s.handle({ type: 'requestRows', rowsVersion: init.rowsVersion, start: 0, count: 50 });
    const rowsAt = host.sent.findIndex((m) => m.type === 'rows');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(headers(host).length, 0, 'rows posted are not yet rows on screen: nothing is counted while they leave');
    await s.handle({ type: 'rowsShown', modelVersion: init.modelVersion + 1 });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(headers(host).length, 0, 'rows of another model say nothing of this one');
    await s.handle({ type: 'rowsShown', modelVersion: init.modelVersion });
    await new Promise((r) => setTimeout(r, 20));
    const sent = headers(host);
    assert.equal(sent.length, 1);
    assert.ok(host.sent.indexOf(sent[0]) > rowsAt, 'the totals come after the rows');
    assert.deepEqual(sent[0], { type: 'header', modelVersion: init.modelVersion, header: full, kinds: kindsOf(model), filterValues: filterValuesOf(model) });
    assert.equal(sent[0].header.counting, undefined);
  });

  it('a model under the limit: init carries the whole header and nothing follows', async () => {
    const { host, s, model, init } = await opened(100_000);
    assert.deepEqual(init.header, headerOf(model));
    await s.handle({ type: 'requestRows', rowsVersion: init.rowsVersion, start: 0, count: 50 });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(headers(host).length, 0);
  });

  it('a model replaced before its totals were counted: only the new model is counted', async () => {
    const { host, s, model } = await opened(0);
    const newer = await loadTrace(CLAUDE);
    s.setModel(newer);
    const inits = host.sent.filter((m): m is InitMessage => m.type === 'init');
    await s.handle({ type: 'requestRows', rowsVersion: inits[1].rowsVersion, start: 0, count: 50 });
    await s.handle({ type: 'rowsShown', modelVersion: inits[0].modelVersion });
    await s.handle({ type: 'rowsShown', modelVersion: inits[1].modelVersion });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(headers(host).map((h) => h.modelVersion), [inits[1].modelVersion]);
    assert.notEqual(newer, model);
  });

  it('a panel that never draws rows (in the background) gets its totals a second after init anyway', async () => {
    const { host, model, init } = await opened(0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(headers(host).length, 0);
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(headers(host).map((h) => [h.modelVersion, h.header]), [[init.modelVersion, headerOf(model)]]);
  });
});

import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildDetail } from '../../src/viewer/eventDetail';
import { CHILD_LIST_MAX, idInfoOf, idLookupOf, idValuesOf, mentioningEvents, navigationOf } from '../../src/viewer/sessionNavigation';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { recordingHost } from '../helpers/viewerHost';
import type { HostMessage } from '../../src/protocol';
import { tempDir } from '../helpers/tmp';
import { corpusPath } from '../helpers/corpus';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const MURMUR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl');

describe('viewer host: id navigation answers', () => {
  it('builds the id index once per model and answers what an id names', async () => {
    const m = await loadTrace(MURMUR);
    assert.equal(idLookupOf(m), idLookupOf(m), 'one index per model');
    const parent = idInfoOf(m, 'evt_019b76daacb37821b3ab48767734d7c1');
    assert.equal(parent.via, 'id');
    assert.equal(parent.target?.line, 3);
    assert.equal(parent.target?.kind, 'inference');
    assert.equal(parent.target?.time, '2026-01-01T00:00:01.203Z');
    assert.deepEqual(parent.mentionedBy.map((s) => s.line), [4], 'its child names it as parent');
    const task = idInfoOf(m, 'tsk_1');
    assert.equal(task.via, 'mention', 'no event has the task id: the task start that first names it stands for it');
    assert.equal(task.target?.line, 2);
    assert.deepEqual(task.mentionedBy.map((s) => s.line), [3, 4, 5, 6]);
    assert.equal(task.mentionedByTotal, 4);
    assert.deepEqual(idInfoOf(m, 'nope'), { id: 'nope', target: null, via: null, mentionedBy: [], mentionedByTotal: 0 });
  });

  it('a dangling parent id is not in the trace, though the orphan names it', async () => {
    const m = await loadTrace(SAMPLE, { format: 'generic' });
    const info = idInfoOf(m, 'missing-parent');
    assert.equal(info.target, null);
    assert.deepEqual(info.mentionedBy.map((s) => s.line), [11]);
  });

  it('lists children (capped), mentioning events (not itself, not its children) and id values', async () => {
    const m = await loadTrace(MURMUR);
    const d = await buildDetail(m, 1, []);
    const nav = navigationOf(m, 1, d.json);
    assert.deepEqual(nav.children.map((s) => s.line), [3, 5, 6]);
    assert.deepEqual(nav.mentionedBy.map((s) => s.line), [4]);
    assert.equal(nav.mentionedByTotal, 1);
    for (const id of ['evt_019b76daa8047c7fac99108ddb5b5fab', 'evt_019b76daa80078f79da1494c73cf256d', 'tsk_1', 'ctx_1', 'ses_39263059f28c105d1fb17c2390c192cf']) assert.ok(nav.ids.includes(id), id);
    assert.ok(!nav.ids.includes('a2a') && !nav.ids.includes('untrusted'), 'plain values are not ids');
    assert.deepEqual(mentioningEvents(m, 3), [], 'a leaf nobody names');
    assert.deepEqual(navigationOf(m, -1, null), { children: [], mentionedBy: [], mentionedByTotal: 0, ids: [] });
  });

  it('finds id values anywhere in the JSON: known ids, and unknown values under id keys', async () => {
    const m = await loadTrace(SAMPLE, { format: 'generic' });
    const ids = idValuesOf(m, 0, { nested: [{ ref: 'i2' }], call_id: 'unknown-call', text: 'hello', long: 'x'.repeat(600) });
    assert.deepEqual(ids.sort(), ['i2', 'unknown-call', 's1'].sort());
  });

  it('caps the children list', async () => {
    const file = join(tempDir(), 'wide.jsonl');
    const lines = ['{"type":"session_start","id":"root"}'];
    for (let i = 1; i <= 45; i++) lines.push(`{"type":"step","id":"e${i}","parent_id":"root"}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const m = await loadTrace(file, { format: 'generic' });
    const nav = navigationOf(m, 0, null);
    assert.equal(nav.children.length, CHILD_LIST_MAX);
    assert.equal(m.tree.childCount(0), 45);
  });

  it('the session attaches the links to each detail and answers resolveId from the index', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host);
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(MURMUR));
    await s.handle({ type: 'select', node: 1 });
    for (let i = 0; i < 100 && !host.sent.some((x) => x.type === 'detail'); i++) await new Promise((r) => setTimeout(r, 10));
    const detail = host.sent.find((x): x is Extract<HostMessage, { type: 'detail' }> => x.type === 'detail')!;
    assert.deepEqual(detail.detail.nav?.mentionedBy.map((e) => e.line), [4]);
    await s.handle({ type: 'resolveId', requestId: 9, id: 'tsk_1' });
    const info = host.sent.filter((x): x is Extract<HostMessage, { type: 'idInfo' }> => x.type === 'idInfo').pop()!;
    assert.deepEqual([info.requestId, info.target?.line, info.via, info.mentionedByTotal], [9, 2, 'mention', 4]);
  });

  it('answers an id in a large trace quickly once the index exists', async () => {
    const file = join(tempDir(), 'big.jsonl');
    const lines = ['{"type":"session_start","id":"root"}'];
    for (let i = 1; i < 100_000; i++) lines.push(`{"type":"step","id":"e${i}","parent_id":"e${i - 1 || 'root'}"}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const m = await loadTrace(file, { format: 'generic' });
    idLookupOf(m);
    const t0 = performance.now();
    for (let i = 1; i < 1000; i++) idInfoOf(m, `e${i * 97}`);
    assert.ok(performance.now() - t0 < 200, 'a thousand answers well under a second');
  });
});

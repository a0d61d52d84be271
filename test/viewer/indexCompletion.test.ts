import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import type { HostMessage, InitMessage, RowsMessage } from '../../src/protocol';
import { ViewerSession } from '../../src/viewer/viewerSession';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

function session(expandAllMaxEvents: number) {
  const sent: HostMessage[] = [];
  const noop = () => undefined;
  const s = new ViewerSession({ post: (m) => sent.push(m), revealInTextEditor: noop, copy: noop, openExternal: noop, runChecks: noop, openAsText: noop, reload: noop, openBlob: noop }, { expandAllMaxEvents });
  const last = <T extends HostMessage['type']>(type: T) => [...sent].reverse().find((m) => m.type === type) as Extract<HostMessage, { type: T }>;
  const rows = async (): Promise<RowsMessage> => {
    const init = last('init') as InitMessage;
    const st = [...sent].reverse().find((m) => m.type === 'rowsState' || m.type === 'init') as { rowsVersion: number };
    await s.handle({ type: 'requestRows', rowsVersion: st.rowsVersion ?? init.rowsVersion, start: 0, count: 100 });
    return last('rows');
  };
  return { s, sent, last, rows };
}

describe('viewer session: the quick first look replaced by the full index', () => {
  it('keeps the branches the quick look showed open, the selection and the scroll position (by line)', async () => {
    // The full trace is "big" (over the expand-all limit), its first kilobyte is not: as a 356 MB trace and its quick look.
    const quick = await loadTrace(SAMPLE, { format: 'generic', stopAfterBytes: 1100, chunkSize: 1100 });
    const full = await loadTrace(SAMPLE, { format: 'generic' });
    assert.equal(quick.partial, true);
    assert.equal(quick.events.size, 4, 'the quick look holds lines 1-4');
    assert.equal(full.events.size, 11);
    const { s, sent, last, rows } = session(8);
    await s.handle({ type: 'ready', state: null });
    await s.handle({ type: 'setCompactChains', compact: false });
    s.setModel(quick, 'loading', 'Showing the start of the file while the rest is indexed…');
    assert.deepEqual((await rows()).rows.map((r) => r.line), [1, 2, 3, 4], 'the quick look opens every branch');
    await s.handle({ type: 'select', node: 3 });
    await s.handle({ type: 'viewport', topLine: 3 });
    sent.length = 0;
    s.setModel(full);
    const init = last('init');
    assert.equal(init.selectedNode, 3, 'the tool call on line 4 stays selected');
    const after = (await rows()).rows;
    assert.deepEqual(after.slice(0, 4).map((r) => [r.line, r.expanded]), [[1, true], [2, false], [3, true], [4, false]], 'the session and the inference stay open');
    assert.equal(after[init.topRow].line, 3, 'the first row in view is the same line');
    for (let i = 0; i < 100 && !last('detail'); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(last('detail').detail.line, 4, 'the detail pane shows the same event');
  });
});

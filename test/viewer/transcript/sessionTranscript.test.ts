import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { loadTrace, type TraceModel } from '../../../src/core/loadTrace';
import type { HostMessage, TranscriptPageMessage } from '../../../src/protocol';
import { SessionTranscript } from '../../../src/viewer/transcript/sessionTranscript';

const MURMUR = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');

describe('the transcript narrowed by a row filter (issue 15 item 4)', () => {
  let model: TraceModel;
  before(async () => (model = await loadTrace(MURMUR)));

  function session(): { t: SessionTranscript; posted: HostMessage[]; page: () => Promise<TranscriptPageMessage> } {
    const posted: HostMessage[] = [];
    const t = new SessionTranscript({ model: () => model, modelVersion: () => 1, post: (m) => posted.push(m) });
    const page = async () => {
      await t.request({ type: 'requestTranscript', requestId: posted.length + 1, start: 0, count: 200 });
      return posted[posted.length - 1] as TranscriptPageMessage;
    };
    return { t, posted, page };
  }

  it('pages hold only the blocks of events the filter keeps; a change of blocks tells the webview, the same blocks do not', async () => {
    const { t, posted, page } = session();
    const all = await page();
    const shells = all.blocks.filter((b) => b.kind === 'shell').map((b) => b.node);
    assert.equal(shells.length, 2);
    const isShell = (i: number) => model.events.get(i).kind === 'shell';
    t.setFilter(isShell);
    assert.deepEqual(posted.at(-1), { type: 'transcriptReset', modelVersion: 1, filtered: true });
    const narrowed = await page();
    assert.deepEqual(narrowed.blocks.map((b) => b.node), shells);
    assert.deepEqual([narrowed.total, narrowed.filtered, narrowed.blocks.map((b) => b.index)], [2, true, [0, 1]]);
    const count = posted.length;
    t.setFilter((i) => isShell(i));
    assert.equal(posted.length, count, 'another predicate keeping the same blocks: no reset');
    t.setFilter(null);
    assert.deepEqual(posted.at(-1), { type: 'transcriptReset', modelVersion: 1, filtered: false });
    assert.equal((await page()).total, all.total);
  });

  it('before the transcript was ever asked for, a filter posts nothing (the first page comes filtered)', async () => {
    const { t, posted, page } = session();
    t.setFilter((i) => model.events.get(i).kind === 'shell');
    assert.equal(posted.length, 0);
    assert.equal((await page()).total, 2);
  });
});

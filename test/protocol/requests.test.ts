import * as assert from 'node:assert/strict';
import type { IdInfoMessage, TimelineMessage, WebviewMessage } from '../../src/protocol';
import { Requests } from '../../webview/requests';

/** The webview's request/reply helper (webview/requests.ts), in plain Node: it touches no DOM. */
function setup() {
  const posted: WebviewMessage[] = [];
  return { posted, requests: new Requests((m) => posted.push(m)) };
}

const idInfo = (requestId: number, id: string): IdInfoMessage => ({ type: 'idInfo', requestId, id, target: null, via: null, mentionedBy: [], mentionedByTotal: 0 });
const timeline = (requestId: number): TimelineMessage => ({
  type: 'timeline', requestId, modelVersion: 1, focus: null, density: null,
  slice: { total: 0, t0: 0, span: 0, start: 0, nodes: [], starts: [], durations: [], depths: [], status: [], critical: [], labels: [], open: [], kinds: [], lanes: [], sizes: [], collapsed: [], facts: [], hidden: 0, bookkeeping: [], folded: 0, anyCritical: false },
});

describe('webview requests answered by id', () => {
  it('numbers each request and hands each reply to the callback that asked, in whatever order replies come', () => {
    const { posted, requests } = setup();
    const got: string[] = [];
    const a = requests.send({ type: 'resolveId', id: 'A' }, (m) => got.push(`a:${m.id}`));
    const b = requests.send({ type: 'resolveId', id: 'B' }, (m) => got.push(`b:${m.id}`));
    const t = requests.send({ type: 'requestTimeline', start: 0, count: 10, node: null }, (m) => got.push(`t:${m.requestId}`));
    assert.deepEqual(posted, [
      { type: 'resolveId', id: 'A', requestId: a.id },
      { type: 'resolveId', id: 'B', requestId: b.id },
      { type: 'requestTimeline', start: 0, count: 10, node: null, requestId: t.id },
    ]);
    assert.equal(new Set([a.id, b.id, t.id]).size, 3, 'ids are unique across request types');
    assert.equal(requests.pending, 3);
    assert.equal(requests.answer(timeline(t.id)), true);
    assert.equal(requests.answer(idInfo(b.id, 'B')), true);
    assert.equal(requests.answer(idInfo(a.id, 'A')), true);
    assert.deepEqual(got, [`t:${t.id}`, 'b:B', 'a:A']);
    assert.equal(requests.pending, 0);
  });

  it('ignores late, repeated and unknown replies, and a reply of the wrong type', () => {
    const { requests } = setup();
    const got: string[] = [];
    const a = requests.send({ type: 'resolveId', id: 'A' }, (m) => got.push(m.id));
    assert.equal(requests.answer(idInfo(a.id + 100, 'X')), false, 'an id never sent');
    assert.equal(requests.answer(timeline(a.id)), false, 'a timeline slice cannot answer resolveId');
    assert.equal(requests.pending, 1, 'the request still waits for its own reply');
    assert.equal(requests.answer(idInfo(a.id, 'A')), true);
    assert.equal(requests.answer(idInfo(a.id, 'A')), false, 'the same reply again');
    assert.deepEqual(got, ['A']);
  });

  it('drops the reply of a cancelled request, and of every request once disposed', () => {
    const { requests } = setup();
    const got: number[] = [];
    const a = requests.send({ type: 'requestTimeline', start: 0, count: 1 }, (m) => got.push(m.requestId));
    const b = requests.send({ type: 'requestTimeline', start: 1, count: 1 }, (m) => got.push(m.requestId));
    a.cancel();
    assert.equal(requests.answer(timeline(a.id)), false);
    assert.equal(requests.pending, 1);
    const c = requests.send({ type: 'requestEarlierMessages', node: 3 }, () => got.push(-1));
    requests.dispose();
    assert.equal(requests.pending, 0);
    assert.equal(requests.answer(timeline(b.id)), false);
    assert.equal(requests.answer({ type: 'earlierMessages', requestId: c.id, modelVersion: 1, node: 3, messages: [] }), false);
    assert.deepEqual(got, []);
  });
});

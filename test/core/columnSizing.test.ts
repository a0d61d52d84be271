// The loader sizes the event table's columns from the events per byte read so far (EventTable.reserve): about
// once for a file of even lines, after a sixteenth of the file (a denser head's room trimmed at the end), and the model is the same as without it.
import { strict as assert } from 'node:assert';
import { EventTable } from '../../src/core/eventTable';
import { loadTrace } from '../../src/core/loadTrace';
import { tempFile } from '../helpers/tmp';

const line = (k: number, pad = 0) => `${JSON.stringify({ id: `e${k}`, parent_id: k > 0 ? `e${k - 1 - (k % 7 === 0 ? k % 5 : 0)}` : null, kind: k % 3 ? 'step' : 'tool_call', pad: 'x'.repeat(pad) })}\n`;

/** Loads `text` with every reservation recorded; the table's numbers are read from its footprint. */
async function loadRecording(text: string): Promise<{ reserved: number[]; events: number; categoryBytes: number }> {
  const reserved: number[] = [];
  const original = EventTable.prototype.reserve;
  EventTable.prototype.reserve = function (this: EventTable, n: number) {
    reserved.push(n);
    original.call(this, n);
  };
  try {
    const model = await loadTrace(tempFile('events.jsonl', text), { chunkSize: 64 << 10 });
    return { reserved, events: model.events.size, categoryBytes: model.events.footprint().kind };
  } finally {
    EventTable.prototype.reserve = original;
  }
}

describe('column sizing from the events per byte', () => {
  it('reserves about the events of a file of even lines, a few times at most, and keeps no more than a sixteenth spare', async () => {
    const text = Array.from({ length: 60_000 }, (_, k) => line(k, 20)).join('');
    const r = await loadRecording(text);
    assert.equal(r.events, 60_000);
    assert.ok(r.reserved.length >= 1 && r.reserved.length <= 4, `reserved ${r.reserved.join(', ')}`);
    const last = r.reserved[r.reserved.length - 1];
    assert.ok(last >= 60_000 && last <= 60_000 * 1.06 + 1024, `reserved ${r.reserved.join(', ')} for 60,000 events`);
    // The kind column (Int8 here: two kinds) holds its events and at most a sixteenth more.
    assert.ok(r.categoryBytes >= 60_000 && r.categoryBytes <= 60_000 + (60_000 >> 4), `kind column ${r.categoryBytes} bytes`);
  });

  it('waits for a sixteenth of the file, and trims the room a head denser than the rest made', async () => {
    // 40,000 short lines (1.5 MB), then 4,000 of 4 KB: the head's events per byte promise ten times the events.
    const head = Array.from({ length: 40_000 }, (_, k) => line(k)).join('');
    const tail = Array.from({ length: 4_000 }, (_, k) => line(40_000 + k, 4000)).join('');
    const r = await loadRecording(head + tail);
    assert.equal(r.events, 44_000);
    assert.ok(r.reserved.length > 0);
    assert.ok(Math.max(...r.reserved) <= 17 * 44_000, `reserved ${r.reserved.join(', ')} for 44,000 events`);
    assert.ok(r.categoryBytes >= 44_000 && r.categoryBytes <= 44_000 + (44_000 >> 4), `kind column ${r.categoryBytes} bytes`);
  });

  it('sizes the id index for the share of events that have ids: none for a file without ids', async () => {
    const withIds = Array.from({ length: 60_000 }, (_, k) => line(k, 20)).join('');
    const index = (await loadTrace(tempFile('events.jsonl', withIds), { chunkSize: 64 << 10 })).events.footprint().idIndex;
    // 60,000 ids at a load of at most one half: 2^17 slots of 4 bytes, not more.
    assert.equal(index, 4 << 17);
    const noIds = Array.from({ length: 60_000 }, (_, k) => `${JSON.stringify({ kind: k % 3 ? 'step' : 'tool_call', pad: 'x'.repeat(40) })}\n`).join('');
    const none = await loadTrace(tempFile('events.jsonl', noIds), { chunkSize: 64 << 10 });
    assert.equal(none.events.size, 60_000);
    assert.ok(none.events.footprint().idIndex <= 4096, `${none.events.footprint().idIndex} bytes of index for no ids`);
  });

  it('gives the same model as a read that reserves nothing', async () => {
    const text = Array.from({ length: 30_000 }, (_, k) => line(k, 40)).join('');
    const path = tempFile('events.jsonl', text);
    const sized = await loadTrace(path, { chunkSize: 64 << 10 });
    const original = EventTable.prototype.reserve;
    EventTable.prototype.reserve = () => undefined;
    try {
      const plain = await loadTrace(path, { chunkSize: 64 << 10 });
      assert.equal(sized.events.size, plain.events.size);
      for (let i = 0; i < plain.events.size; i++) assert.deepStrictEqual({ ...sized.events.get(i), label: sized.events.labelOf(i) }, { ...plain.events.get(i), label: plain.events.labelOf(i) }, `event ${i}`);
    } finally {
      EventTable.prototype.reserve = original;
    }
  });
});

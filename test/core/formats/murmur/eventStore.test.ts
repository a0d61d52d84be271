import { strict as assert } from 'node:assert';
import { MurmurEventStore } from '../../../../src/core/formats/murmur/eventStore';
import { StringColumn } from '../../../../src/core/stringColumn';
import { LinkCheck } from '../../../../src/core/formats/murmur/links';

const id = (i: number) => `evt_${i.toString(16).padStart(32, '0')}`;

describe('MurmurEventStore: what the cross-line rules keep per event', () => {
  it('gives back each event, the first holder of each id, and parents found before or after their child', () => {
    const store = new MurmurEventStore();
    // 0 root; 1 → 0; 2 names 5, written later; 3 repeats 1's id; 4 → 1 (the first holder); 5; 6 names nothing.
    const rows: [string, string | null, string | null][] = [
      ['session_start', id(0), null], ['task_start', id(1), id(0)], ['inference', id(2), id(5)], ['inference', id(1), id(0)],
      ['tool_call', id(4), id(1)], ['task_start', id(5), id(0)], ['tool_call', null, 'evt_missing'],
    ];
    rows.forEach(([type, eventId, parent], k) => {
      const parentIndex = parent === null ? undefined : store.first(parent);
      // add gives the first holder of the event's id: itself, an earlier event, or none without an id.
      assert.equal(store.add(10 + k, type, eventId, parent, parentIndex), [0, 1, 2, 1, 4, 5, undefined][k]);
    });
    assert.equal(store.size, rows.length);
    rows.forEach(([type, eventId, parent], k) => {
      assert.equal(store.line(k), 10 + k);
      assert.equal(store.type(k), type);
      assert.equal(store.id(k), eventId);
      assert.equal(store.parent(k), parent);
    });
    assert.equal(store.first(id(1)), 1, 'a repeated id stays with its first holder');
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((k) => store.parentOf(k)), [undefined, 0, 5, 0, 1, 0, undefined]);
    assert.ok(store.parentIsIdOf(4, 1) && store.parentIsIdOf(4, 3), 'parent_id compared with an id as bytes');
    assert.ok(!store.parentIsIdOf(4, 0) && !store.parentIsIdOf(0, 1), 'a different id; no parent against an id');
    assert.ok(store.parentIsIdOf(0, 6), 'no parent and no id count as the same');
  });
});

describe('LinkCheck sizes its store once', () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ event_type: 'tool_call', event_id: id(i + 1), parent_id: id(0) }));
  const bytes = lines.reduce((n, l) => n + l.length + 1, 0);
  const feed = (check: LinkCheck, from: number, to: number) => {
    for (let i = from; i < to; i++) check.add({ line: i + 1, text: lines[i], value: JSON.parse(lines[i]), blank: false });
  };

  it('from the file\'s bytes, once a sixteenth of it was read', () => {
    const check = new LinkCheck(false, { lines: 0, bytes });
    feed(check, 0, lines.length / 16 + 10);
    const sized = check.store.indexBytes;
    assert.ok(sized >= lines.length * 2 * 4, `${sized} bytes for ${lines.length} ids`);
    feed(check, lines.length / 16 + 10, lines.length);
    assert.equal(check.store.indexBytes, sized);
  });

  it('from the line count, when a loaded model gives it', () => {
    const check = new LinkCheck(false, { lines: lines.length, bytes: 0 });
    const sized = check.store.indexBytes;
    assert.ok(sized >= lines.length * 2 * 4);
    feed(check, 0, lines.length);
    assert.equal(check.store.indexBytes, sized);
    assert.equal(check.store.first(id(lines.length)), lines.length - 1);
  });
});

describe('StringColumn.sameAs', () => {
  it('compares two entries as the strings they hold, packed or not, null or not', () => {
    const values = [id(7), id(7), id(8), 'plain', 'plain', null, null, '', 'x' + id(7).slice(1), 'ÄÖ', 'ÄÖ'];
    const column = new StringColumn();
    values.forEach((v) => column.push(v));
    for (let a = 0; a < values.length; a++) for (let b = 0; b < values.length; b++) assert.equal(column.sameAs(a, b), values[a] === values[b], `${a} ${b}`);
  });
});

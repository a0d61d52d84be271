import { strict as assert } from 'node:assert';
import { eventSizer } from '../../src/core/eventSizer';

describe('eventSizer: per-event storage sized for the whole file from the bytes read so far', () => {
  it('waits for a sixteenth of the file and 1024 events, adds 3%, sizes again only past a sixteenth more, never at the end', () => {
    const reserved: number[] = [];
    let events = 0;
    const size = eventSizer(1_600_000, () => events, (n) => reserved.push(n));
    events = 5000;
    size(99_999); // under a sixteenth
    assert.deepEqual(reserved, []);
    events = 1000;
    size(100_000); // a sixteenth, but too few events to tell
    assert.deepEqual(reserved, []);
    events = 2000; // 2000 events in 100 kB: 32,000 in the file
    size(100_000);
    assert.deepEqual(reserved, [Math.ceil(32_000 * 1.03) + 1024]);
    events = 2020; // 1% more than estimated: within the room
    size(100_000);
    assert.equal(reserved.length, 1);
    events = 2400; // 20% more: sized again
    size(100_000);
    assert.deepEqual(reserved.slice(1), [Math.ceil(38_400 * 1.03) + 1024]);
    events = 100_000;
    size(1_600_000); // the whole file was read: nothing is left to size for
    assert.equal(reserved.length, 2);
  });

  it('waits for at least `minBytes` of a small file', () => {
    const reserved: number[] = [];
    const size = eventSizer(2_000_000, () => 10_000, (n) => reserved.push(n), 1 << 20);
    size(500_000);
    assert.deepEqual(reserved, []);
    size(1 << 20);
    assert.equal(reserved.length, 1);
  });
});

import { strict as assert } from 'node:assert';
import { makeTimestampReader } from '../../../../src/core/formats/lumen/lumenTime';
import { parseTime } from '../../../../src/core/formats/common';

describe('lumen timestamps', () => {
  it('reads the writer\'s layout with 0 to 9 fraction digits as Date.parse does (to the millisecond)', () => {
    const read = makeTimestampReader();
    for (const day of ['2026-11-29', '2026-11-30', '2024-02-29']) {
      for (const time of ['15:20:28', '00:00:00', '23:59:59']) {
        for (const frac of ['', '.1', '.12', '.123', '.1234', '.219918337', '.000000001', '.999']) {
          const ts = `${day}T${time}${frac}Z`;
          assert.equal(read(ts), Date.parse(ts), ts);
        }
      }
    }
  });

  it('hands anything off the writer\'s layout to the general parser', () => {
    const read = makeTimestampReader();
    for (const ts of ['2026-11-29T15:20:28.1x3Z', '2026-11-29T15:20:28+01:00', '2026-11-29 15:20:28Z', '2026-13-29T15:20:28Z', 'soon']) {
      assert.equal(read(ts), parseTime(ts), ts);
    }
    assert.equal(read(12), null);
  });
});

import { strict as assert } from 'node:assert';
import { makeTimestampReader } from '../../../src/core/formats/isoTime';
import { parseTime } from '../../../src/core/formats/common';

/** The reference: Date.parse, null for NaN. */
function dateParse(ts: string): number | null {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : t;
}

describe('ISO timestamps (lumen, generic JSONL)', () => {
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
      assert.equal(read(ts), dateParse(ts), ts);
    }
    assert.equal(read(12), null);
  });

  it('agrees with Date.parse on near-miss timestamps: an empty fraction, a letter deep in it, hour, minute or second out of range', () => {
    const read = makeTimestampReader();
    const cases = ['2026-11-29T15:20:28.Z', '2026-11-29T15:20:28.1234a6Z', '2026-11-29T15:20:28.123 Z', '2026-11-29T24:00:00Z',
      '2026-11-29T25:20:28Z', '2026-11-29T15:60:28Z', '2026-11-29T15:20:60Z', '2026-11-29T15:20:28.9999999999Z'];
    for (const ts of cases) assert.equal(read(ts), dateParse(ts), ts);
  });

  it('agrees with Date.parse on 5,000 random strings in the writer\'s layout with random characters swapped in', () => {
    const read = makeTimestampReader();
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const alphabet = '0123456789.:TZx ';
    for (let k = 0; k < 5000; k++) {
      const base = `2026-11-${String(1 + rnd(28)).padStart(2, '0')}T${String(rnd(26)).padStart(2, '0')}:${String(rnd(61)).padStart(2, '0')}:${String(rnd(61)).padStart(2, '0')}${rnd(2) ? '.' + '1234567890'.slice(0, rnd(10)) : ''}Z`;
      const chars = base.split('');
      if (rnd(2)) chars[11 + rnd(chars.length - 11)] = alphabet[rnd(alphabet.length)];
      const ts = chars.join('');
      assert.equal(read(ts), dateParse(ts), ts);
    }
  });

  it('agrees with Date.parse when each edited timestamp follows a good one of the same second', () => {
    const read = makeTimestampReader();
    let seed = 11;
    // The generator's high bits (its low bits repeat with a short period).
    const rnd = (n: number): number => Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
    const alphabet = '0123456789.:TZx -';
    for (let k = 0; k < 5000; k++) {
      const sec = `2026-11-${String(1 + rnd(28)).padStart(2, '0')}T${String(rnd(24)).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')}`;
      const good = `${sec}.${String(rnd(1e9)).padStart(9, '0')}Z`;
      assert.equal(read(good), Date.parse(good), good);
      const chars = `${sec}${rnd(3) ? '.' + '1234567890'.slice(0, rnd(11)) : ''}Z`.split('');
      const at = rnd(chars.length);
      if (rnd(4)) chars[at] = alphabet[rnd(alphabet.length)];
      else chars.splice(at, rnd(2)); // a character dropped, or none
      const ts = chars.join('');
      assert.equal(read(ts), dateParse(ts), ts);
    }
  });

  it('reads timestamps of the same second one after another as Date.parse does, good and bad fractions alike', () => {
    const read = makeTimestampReader();
    const tails = ['.219918337Z', '.5Z', 'Z', '.Z', '.12x4Z', '.999999999Z', '.000Z', '.1 Z', '.123456789012Z'];
    for (const sec of ['2026-11-29T15:20:28', '2026-11-29T15:20:29', '2026-11-30T00:00:00', '2026-11-29T15:20:28']) {
      for (const tail of tails) {
        const ts = sec + tail;
        assert.equal(read(ts), dateParse(ts), ts);
      }
    }
    // Never matched against a second that failed its check.
    assert.equal(read('2026-11-29T15:20:60.5Z'), dateParse('2026-11-29T15:20:60.5Z'));
    assert.equal(read('2026-11-29T15:20:60.6Z'), dateParse('2026-11-29T15:20:60.6Z'));
  });

  it('is what parseTime reads strings with (numbers as they are, anything else null)', () => {
    for (const ts of ['2026-11-29T15:20:28.219918337Z', '2026-11-29T15:20:28+01:00', 'soon', '2026-11-29T24:00:00Z']) assert.equal(parseTime(ts), dateParse(ts), ts);
    assert.equal(parseTime(1795963085417), 1795963085417);
    assert.equal(parseTime(null), null);
    assert.equal(parseTime(Number.NaN), null);
  });
});

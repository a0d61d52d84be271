import * as assert from 'node:assert/strict';
import { MAX_COMPARE_PAGE } from '../../src/protocol/compare';
import { parseViewMessage } from '../../src/protocol/validate';

/** Messages the compare view's hand-written check let through (unbounded numbers, an array posing as a message). */
export const COMPARE_GAPS: readonly unknown[] = [
  { type: 'compareSelect', row: 2 ** 40 },
  { type: 'compareOpen', side: 'a', line: Number.MAX_SAFE_INTEGER },
  { type: 'compareRows', generation: 2 ** 52, from: 0, count: 1 },
  { type: 'compareRows', generation: 1, from: 2 ** 50, count: 1 },
  Object.assign([], { type: 'compareReady' }),
  Object.assign([], { type: 'compareSelect', row: 1 }),
];

describe('webview message validation (one entry for every view)', () => {
  it('accepts the compare view\'s known messages, and only their fields', () => {
    assert.deepEqual(parseViewMessage('compare', { type: 'compareReady' }), { type: 'compareReady' });
    assert.deepEqual(parseViewMessage('compare', { type: 'compareSelect', row: 3 }), { type: 'compareSelect', row: 3 });
    assert.deepEqual(parseViewMessage('compare', { type: 'compareOpen', side: 'b', line: 2 }), { type: 'compareOpen', side: 'b', line: 2 });
    assert.deepEqual(parseViewMessage('compare', { type: 'compareRows', generation: 2, from: 400, count: 200 }), { type: 'compareRows', generation: 2, from: 400, count: 200 });
    assert.deepEqual(parseViewMessage('compare', { type: 'compareToggleVolatile', include: false }), { type: 'compareToggleVolatile', include: false });
    // Extra fields are dropped, never handed on.
    assert.deepEqual(parseViewMessage('compare', { type: 'compareSelect', row: 1, html: '<b>' }), { type: 'compareSelect', row: 1 });
  });

  it('rejects malformed compare messages', () => {
    for (const bad of [null, 'x', 7, [], {}, { type: 'compareSelect', row: -1 }, { type: 'compareSelect', row: 1.5 }, { type: 'compareSelect', row: '1' },
      { type: 'compareOpen', side: 'c', line: 1 }, { type: 'compareOpen', side: 'a', line: 0 }, { type: 'compareToggleVolatile', include: 'yes' }, { type: 'openBlob' },
      { type: 'compareRows', generation: 1, from: 0, count: 0 }, { type: 'compareRows', generation: 1, from: 0, count: MAX_COMPARE_PAGE + 1 },
      { type: 'compareRows', generation: -1, from: 0, count: 1 }, { type: 'compareRows', from: 0, count: 1 }, { type: 'compareSelect', row: Number.NaN }]) {
      assert.equal(parseViewMessage('compare', bad), null, JSON.stringify(bad));
    }
  });

  it('rejects what the old hand-written compare check let through: numbers past the bounds a line has, arrays', () => {
    for (const bad of COMPARE_GAPS) assert.equal(parseViewMessage('compare', bad), null, JSON.stringify(bad));
  });

  it('keeps each view to its own messages', () => {
    assert.equal(parseViewMessage('compare', { type: 'ready', state: null }), null);
    assert.equal(parseViewMessage('viewer', { type: 'compareReady' }), null);
    assert.deepEqual(parseViewMessage('viewer', { type: 'ready', state: null }), { type: 'ready', state: null });
    assert.equal(parseViewMessage('viewer', { type: 'select', node: 2 ** 40 }), null);
  });
});

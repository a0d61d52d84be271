// The one set of formatters shared by event labels (and so the CLI), the viewer's host and its webview.
import { strict as assert } from 'node:assert';
import { formatBytes, formatCount, formatDuration, formatInt, formatOffset, formatTokens } from '../../src/core/display';
import { formatDuration as labelDuration, formatTokens as labelTokens } from '../../src/core/formats/common';
import { formatDuration as webviewDuration } from '../../webview/format';

describe('display formatters', () => {
  it('carries rounding into the next unit: never "60 s", "4 min 60 s" or "59 min 60 s"', () => {
    assert.equal(formatDuration(59_500), '1 min 0 s');
    assert.equal(formatDuration(59_499), '59 s');
    assert.equal(formatDuration(299_600), '5 min 0 s');
    assert.equal(formatDuration(299_400), '4 min 59 s');
    assert.equal(formatDuration(3_599_600), '1 h 0 min');
    assert.equal(formatDuration(3_599_400), '59 min 59 s');
    assert.equal(formatDuration(9_960), '10 s');
    assert.equal(formatDuration(999.6), '1.0 s');
    assert.equal(formatDuration(0.996), '1 ms');
  });

  it('prints hours past the hour and keeps minutes under 60', () => {
    assert.equal(formatDuration(3_600_000), '1 h 0 min');
    assert.equal(formatDuration(2 * 3_600_000 + 5 * 60_000 + 29_000), '2 h 5 min');
    assert.equal(formatDuration(2 * 3_600_000 + 59 * 60_000 + 31_000), '3 h 0 min');
    assert.equal(formatDuration(30 * 3_600_000), '30 h 0 min');
  });

  it('keeps the sign of negative deltas and says nothing for NaN, infinities and null', () => {
    assert.equal(formatDuration(-1500), '-1.5 s');
    assert.equal(formatDuration(-59_500), '-1 min 0 s');
    assert.equal(formatDuration(-12), '-12 ms');
    assert.equal(formatOffset(-2000), '-2.000 s');
    assert.equal(formatOffset(2000), '+2.000 s');
    assert.equal(formatOffset(0), '+0 ms');
    assert.equal(formatOffset(-0.2), '+0 ms');
    for (const v of [NaN, Infinity, -Infinity, null, undefined]) assert.equal(formatDuration(v), '', String(v));
    assert.equal(formatOffset(NaN), '');
    assert.equal(formatCount(NaN), '');
    assert.equal(formatInt(NaN), '');
    assert.equal(formatBytes(NaN), '');
  });

  it('formats zero and sub-millisecond values in whole milliseconds, without "-0 ms"', () => {
    assert.equal(formatDuration(0), '0 ms');
    assert.equal(formatDuration(-0), '0 ms');
    assert.equal(formatDuration(0.01), '0 ms');
    assert.equal(formatDuration(-0.3), '0 ms');
    assert.equal(formatDuration(0.6), '1 ms');
    assert.equal(formatDuration(12.4), '12 ms');
  });

  it('counts, tokens, bytes and integers', () => {
    assert.equal(formatCount(340), '340');
    assert.equal(formatCount(1234), '1.2k');
    assert.equal(formatCount(9_960), '10k');
    assert.equal(formatCount(999_600), '1.0M');
    assert.equal(formatCount(-5000), '-5.0k');
    assert.equal(formatTokens(1200, 340), '1.2k→340');
    assert.equal(formatTokens(1200, 340, 'tokens'), '1.2k→340 tokens');
    assert.equal(formatTokens(null, null), '');
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(4096), '4.0 KB');
    assert.equal(formatInt(-1234567), '-1,234,567');
  });

  it('is the same function for event labels, the host and the webview', () => {
    assert.equal(labelDuration, formatDuration);
    assert.equal(webviewDuration, formatDuration);
    assert.equal(labelTokens(1200, 340), '1.2k→340 tokens');
  });
});

import { strict as assert } from 'node:assert';
import { loadTrace } from '../../../src/core/loadTrace';
import { runChecks } from '../../../src/core/formatRules';
import { tempFile } from '../../helpers/tmp';

/** 300 events a second apart, with line `edited` (1-based) at `at` instead. */
function trace(edited: number, at: string): string {
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: `e${i}`, type: 'step', timestamp: i + 1 === edited ? at : new Date(t0 + i * 1000).toISOString() })).join('\n') + '\n';
}

async function backwards(text: string): Promise<number[]> {
  const model = await loadTrace(tempFile('trace.jsonl', text));
  return (await runChecks(model, 'check')).findings.filter((f) => f.rule === 'generic/time-backwards').map((f) => f.line);
}

describe('generic/time-backwards: one edit, one finding', () => {
  it('a timestamp edited into the future is one finding, where time goes back after it (not on every later line)', async () => {
    assert.deepEqual(await backwards(trace(40, '2030-01-01T00:00:00Z')), [41]);
  });
  it('a timestamp edited into the past is one finding at that line', async () => {
    assert.deepEqual(await backwards(trace(40, '2020-01-01T00:00:00Z')), [40]);
  });
  it('a clean trace has none', async () => {
    assert.deepEqual(await backwards(trace(0, '')), []);
  });
});

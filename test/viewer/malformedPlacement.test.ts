import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { RowProjection } from '../../src/viewer/rowModel';
import { buildRows, treeSourceOf } from '../../src/viewer/traceRows';
import { tempFile } from '../helpers/tmp';
import { corpusPath } from '../helpers/corpus';

const MURMUR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl');
const NO_DECO = { badgeOfLine: () => undefined, isMatch: () => false };

/** The real murmur trace with a bad first line, a bad line inside the task and a torn tail. */
async function damagedMurmur() {
  const lines = readFileSync(MURMUR, 'utf8').trimEnd().split('\n');
  const text = ['not json at the start', ...lines.slice(0, 4), '{"event_type": "inference", oops', ...lines.slice(4), '{"event_type":"tool_call","ev'].join('\n');
  return loadTrace(tempFile('trace.jsonl', text), { format: 'murmur' });
}

describe('viewer rows: unparseable lines where they sit in the file', () => {
  it('lists every line in file order, a bad middle line inside the task it interrupts, the torn tail last', async () => {
    const model = await damagedMurmur();
    assert.equal(model.malformed.length, 3);
    const rows = new RowProjection(treeSourceOf(model));
    rows.expandAll();
    const page = buildRows(model, rows, 0, 100, NO_DECO, null);
    assert.deepEqual(page.map((r) => r.line), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(page.map((r) => [r.line, r.depth, r.malformed === true]).filter((r) => r[2]), [[1, 0, true], [6, 2, true], [10, 1, true]]);
    assert.equal(model.events.lineOf(1), 3);
    assert.equal(page[5].parent, 1, 'the bad line 6 is a child of task_start (line 3), like the inference after it');
  });

  it('collapsing the task hides its bad line with it; a filter that keeps bad lines keeps their ancestors', async () => {
    const model = await damagedMurmur();
    const rows = new RowProjection(treeSourceOf(model));
    rows.expandAll();
    rows.toggle(1, false);
    assert.deepEqual(buildRows(model, rows, 0, 100, NO_DECO, null).map((r) => r.line), [1, 2, 3, 9, 10]);
    rows.setFilter(() => false, true);
    assert.deepEqual(buildRows(model, rows, 0, 100, NO_DECO, null).map((r) => [r.line, r.context === true]), [[1, false], [2, true], [3, true], [6, false], [10, false]]);
    assert.equal(rows.reveal(-2), 3, 'revealing the bad line expands its ancestors');
  });
});

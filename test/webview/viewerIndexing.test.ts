import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { tempDir } from '../helpers/tmp';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** 25,050 events (over the 20,000 a viewer opens fully expanded): 50 runs × 250 steps, each step with one call. */
function bigTrace(): string {
  const lines: string[] = [];
  for (let r = 0; r < 50; r++) {
    lines.push(`{"type":"run","id":"r${r}","name":"run ${r}"}`);
    for (let s = 0; s < 250; s++) {
      lines.push(`{"type":"step","id":"r${r}s${s}","parent_id":"r${r}","name":"step ${r}.${s}"}`);
      lines.push(`{"type":"call","id":"r${r}s${s}c","parent_id":"r${r}s${s}","name":"call ${r}.${s}","duration_ms":${s}}`);
    }
  }
  const file = join(tempDir(), 'big.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const firstVisibleLine = () => {
  const rows = [...(globalThis as Any).document.querySelectorAll('.row[data-node]:not([hidden])')];
  const top = (globalThis as Any).document.querySelector('.tree-scroll').getBoundingClientRect().top;
  const inView = rows.filter((r: Any) => r.getBoundingClientRect().bottom > top + 2).sort((a: Any, b: Any) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  return Number(inView[0]?.dataset.line);
};

describe('viewer: the quick first look replaced by the full index (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('keeps the open branches, the scroll position and the selection when indexing finishes', async () => {
    const file = bigTrace();
    const v = await view(file, { format: 'generic', compactChains: false, height: 600 });
    const quick = await loadTrace(file, { format: 'generic', stopAfterBytes: 64 * 1024, chunkSize: 64 * 1024 });
    assert.equal(quick.partial, true);
    await v.replaceModel(quick, 'loading', 'Showing the start of the file while the rest is indexed…');
    assert.equal(await v.page.$eval('.row[data-line="2"]', (r: Any) => r.getAttribute('aria-expanded')), 'true', 'the quick look opens every branch');
    await v.page.$eval('.tree-scroll', (e: Any) => (e.scrollTop = 22 * 200));
    await v.settle();
    const top = await v.page.evaluate(firstVisibleLine);
    const target = top + 5;
    await v.page.click(`.row[data-line="${target}"] .label`);
    await v.waitForHost('detail', (m) => m.detail.line === target);
    await new Promise((r) => setTimeout(r, 400)); // the viewport report is debounced
    const full = await loadTrace(file, { format: 'generic' });
    assert.ok(full.events.size > 20_000);
    await v.replaceModel(full, 'ready', null);
    await v.settle();
    assert.ok(await v.page.$(`.row[data-line="${target}"].selected`), 'the selected event is still selected and in view');
    assert.equal(await v.page.evaluate(firstVisibleLine), top, 'the same line is at the top');
    const collapsed = await v.page.$$eval('.row[data-node]:not([hidden])[aria-expanded="false"]', (rs: Any[]) => rs.map((r) => r.dataset.line));
    assert.deepEqual(collapsed, [], 'the branches the quick look showed open stay open');
    assert.match(await v.page.$eval('.detail-title', (e: Any) => e.textContent), /call|step/);
    await v.screenshot('index-complete-kept');
  });
});

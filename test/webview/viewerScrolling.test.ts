import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** 30,000 flat events: a list long enough that a jump lands far outside the cached pages. */
function longTrace(): string {
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) lines.push(`{"type":"step","id":"s${i}","name":"step ${i}"}`);
  const file = join(tempDir(), 'long.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('viewer: rows while scrolling (Chromium, issue 14 item 5)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('draws the rows of a jump as soon as their page arrives, without waiting for another frame', async () => {
    const v = await view(longTrace(), { format: 'generic', height: 600 });
    // Hold the host's row pages where the harness posts them, so the test decides when they arrive.
    await v.page.evaluate(() => {
      const g = globalThis as Any;
      const post = g.postMessage.bind(g);
      g.__held = [];
      g.__hold = true;
      g.postMessage = (data: Any, origin: string) => (g.__hold && data?.type === 'rows' ? g.__held.push(data) : post(data, origin));
    });
    await v.page.$eval('.tree-scroll', (e: Any) => (e.scrollTop = 22 * 15_000));
    // The jump was drawn with placeholders and its page was sent (and held).
    await v.page.waitForFunction(() => {
      const g = globalThis as Any;
      return g.document.querySelectorAll('.row.placeholder:not([hidden])').length > 10 && g.__held.some((d: Any) => d.start <= 15_000 && d.start + d.rows.length > 15_000);
    });
    // No more animation frames from here: whatever is drawn is drawn when the message is handled.
    const after = await v.page.evaluate(() => {
      const g = globalThis as Any;
      g.requestAnimationFrame = () => 0;
      g.__hold = false;
      for (const data of g.__held.splice(0)) g.dispatchEvent(new MessageEvent('message', { data }));
      const drawn = [...g.document.querySelectorAll('.tree-scroll .row:not([hidden])')];
      return { placeholders: drawn.filter((r: Any) => r.classList.contains('placeholder')).length, lines: drawn.map((r: Any) => Number(r.dataset.line)).filter((n) => n > 0) };
    });
    assert.equal(after.placeholders, 0, 'no placeholder left in view');
    assert.ok(after.lines.length > 20, `${after.lines.length} rows drawn`);
    // The rows drawn are the ones at the jump (row 15,000 holds line 15,001), not the top of the list.
    assert.ok(after.lines[0] >= 14_990 && after.lines[0] <= 15_010, `first line drawn ${after.lines[0]}`);
  });
});

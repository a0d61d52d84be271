import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { withoutOpenTail } from '../../src/core/traceReader';
import { tempDir } from '../helpers/tmp';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');

describe('live tail in the webview (Chromium, issue 40)', function () {
  this.timeout(120_000);
  const suite = viewerSuite();

  it('a growing Claude Code transcript: rows never flash to "…", a half-written line is no red row, the completed line is an event', async () => {
    const lines = readFileSync(CLAUDE, 'utf8').split('\n');
    const file = join(tempDir(), 'session.jsonl');
    writeFileSync(file, lines.slice(0, 23).join('\n') + '\n');
    const v = await suite.view(file);
    const eventsBefore = v.model!.events.size;
    // Every DOM change is looked at before the page paints it: a placeholder row on screen is recorded.
    await v.page.evaluate(() => {
      const w = globalThis as Any;
      w.__placeholders = 0;
      new w.MutationObserver(() => {
        if (w.document.querySelector('.row.placeholder:not([hidden])')) w.__placeholders++;
      }).observe(w.document.querySelector('.tree-scroll'), { subtree: true, attributes: true, childList: true, characterData: true });
    });
    const assistant = lines[23];
    // Half of the assistant's line: the document shows the model without it while the file grows (traceDocument.ts).
    appendFileSync(file, assistant.slice(0, Math.floor(assistant.length / 2)));
    const open = withoutOpenTail(await loadTrace(file));
    assert.ok(open, 'the half-written line is the open tail');
    await v.replaceModel(open.model, 'appended', `0 new events · line ${open.line} is still being written`);
    assert.equal(await v.page.$$eval('.row.malformed', (r: Any[]) => r.length), 0, 'no unparseable row');
    assert.equal(await v.page.$$eval('.row .badge-error', (r: Any[]) => r.length), 0, 'no error badge');
    // The rest of the line: an event.
    appendFileSync(file, assistant.slice(Math.floor(assistant.length / 2)) + '\n');
    const complete = await loadTrace(file);
    assert.equal(withoutOpenTail(complete), null);
    await v.replaceModel(complete, 'appended', '1 new event');
    assert.ok(complete.events.size > eventsBefore);
    assert.ok(await v.page.$('.row[data-line="24"]'), 'the completed line is a row');
    assert.equal(await v.page.$$eval('.row.malformed', (r: Any[]) => r.length), 0);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__placeholders), 0, 'no placeholder row was drawn while the rows were on their way');
  });
});

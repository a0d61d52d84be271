import { strict as assert } from 'node:assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { loadTrace } from '../../src/core/loadTrace';
import { checksSkippedMessage } from '../../src/vscode/commands/checksSkipped';
import { tempDir } from '../helpers/tmp';
import { viewerSuite } from './harness';
import { corpusPath } from '../helpers/corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const MURMUR_DIR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
const DEEPSTRIKE = corpusPath('deepstrike/rust-core/97a2f782-238c-40a6-ae04-c4e2efb8f844.jsonl');
const LUMEN_TAMPERED = corpusPath('lumen/negative/ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl');

const chips = () => [...(globalThis as Any).document.querySelectorAll('.header-checks .check-chip')].map((c: Any) => c.textContent.trim());

describe('viewer header: results by cause, tokens, skipped checks (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('a large trace: the totals are counted once its first rows are drawn, then replace "counting totals…"', async () => {
    // Every model counts as large here (the viewer's limit is 100,000 events).
    const v = await view(DEEPSTRIKE, { countTotalsAfterRowsAbove: 0 });
    const init = v.received.find((m): m is Extract<typeof m, { type: 'init' }> => m.type === 'init')!;
    assert.equal(init.header.counting, true);
    const header = await v.waitForHost('header');
    await v.settle();
    const shown = v.sent.filter((m) => m.type === 'rowsShown');
    assert.deepEqual(shown, [{ type: 'rowsShown', modelVersion: init.modelVersion }], 'said once, for the model shown');
    const firstRows = v.received.findIndex((m) => m.type === 'rows');
    assert.ok(firstRows >= 0 && firstRows < v.received.indexOf(header), 'the rows went out before the totals were counted');
    assert.ok((await v.rowLabels()).length > 0);
    const facts = await v.page.$eval('.header-facts', (e: Any) => e.textContent);
    assert.doesNotMatch(facts, /counting totals/);
    assert.match(facts, /6\.1k tokens total/);
    // A model replaced (an append, a reload) with its header counting again is announced again, once.
    await v.replaceModel(await loadTrace(DEEPSTRIKE), 'ready', null);
    await v.waitForHost('header', () => true, v.received.indexOf(header) + 1);
    const again = v.sent.filter((m) => m.type === 'rowsShown');
    assert.equal(again.length, 2);
    assert.notEqual((again[1] as Any).modelVersion, init.modelVersion);
  });

  it('a tampered murmur blob reads as a mismatched blob, the trace lines intact, no chain', async () => {
    const dir = join(tempDir(), 'ses');
    cpSync(MURMUR_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'blobs', '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f'), 'Be terse!');
    const file = join(dir, 'trace.jsonl');
    const v = await view(file);
    v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
    await v.settle();
    assert.deepEqual(await v.page.evaluate(chips), ['blobs: 6 verified, 1 mismatched', 'lines and links intact: 7 events']);
    await v.page.click('.header-checks .check-chip.bad');
    await v.page.waitForSelector('.checks-panel:not([hidden]) .finding-item');
    const msg = await v.page.$eval('.finding-item.severity-error .finding-message', (e: Any) => e.textContent);
    assert.match(msg, /^Blob content does not match its name/, 'the cause first, the 64-hex name after');
    assert.doesNotMatch(await v.page.$eval('.checks-list', (e: Any) => e.textContent), /broken/);
    const detailWidth = await v.page.$eval('.detail-slot', (e: Any) => e.getBoundingClientRect().width);
    assert.ok(detailWidth > 400, `long findings do not push the detail pane out (${detailWidth} px)`);
    await v.screenshot('header-tampered-blob');
  });

  it('a murmur trace copied without blobs/: the parse error is listed apart from the missing blobs', async () => {
    const dir = tempDir();
    const lines = readFileSync(join(MURMUR_DIR, 'trace.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(dir, 'trace.jsonl'), [...lines.slice(0, 3), '{"event_type": broken', ...lines.slice(3)].join('\n') + '\n');
    const v = await view(join(dir, 'trace.jsonl'));
    v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
    await v.settle();
    assert.deepEqual(await v.page.evaluate(chips), ['blobs: 0 verified, 7 missing', 'lines and links: 1 error from line 4']);
    assert.ok(!(await v.page.evaluate(chips)).some((c: string) => /chain/.test(c)), 'murmur has no chain to call broken');
    await v.page.click('vscode-toolbar-button[label="Show Checks"]');
    const list = await v.page.$$eval('.checks-list > *', (es: Any[]) => es.map((e) => (e.classList.contains('finding-item') ? `item ${e.querySelector('.finding-rule').textContent}` : e.textContent)));
    const verify = list.slice(list.findIndex((t: string) => t.startsWith('Verification')));
    assert.deepEqual(verify.slice(2, 5), ['Lines and links: 1 finding', 'item murmur/line-json', 'Blobs: 11 findings'], verify.join(' | '));
    await v.screenshot('checks-by-cause');
  });

  it('lumen: a tampered line breaks the chain at that line; deepstrike shows its token total without "0 in"', async () => {
    const v = await view(LUMEN_TAMPERED);
    v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
    await v.settle();
    const c = await v.page.evaluate(chips);
    assert.match(c[0], /^chain broken at line \d+$/);
    const d = await view(DEEPSTRIKE);
    const facts = await d.page.$eval('.header-facts', (e: Any) => e.textContent);
    assert.match(facts, /6\.1k tokens total \(226 out\)/);
    assert.doesNotMatch(facts, /0 in/);
    assert.doesNotMatch(facts, /total tokens/);
  });

  it('a trace over the check-on-open limit says checks were skipped and runs them on a click', async () => {
    const v = await view(DEEPSTRIKE);
    v.session.setChecksSkipped(checksSkippedMessage(312 * 1024 * 1024, 50));
    await v.settle();
    const note = await v.page.$eval('.check-chip.skipped', (e: Any) => ({ text: e.textContent, title: e.title }));
    assert.match(note.text, /checks not run/);
    assert.match(note.title, /312 MB, over agentTrace\.checkOnOpenMaxMB \(50 MB\)/);
    await v.page.click('.check-chip.skipped');
    assert.deepEqual(v.hostCalls.slice(-1), ['runChecks:verify']);
    await v.show();
    await v.settle();
    assert.ok(await v.page.$('.check-chip.skipped'), 'the note survives a reload of the webview');
    v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
    await v.settle();
    assert.equal(await v.page.$('.check-chip.skipped'), null, 'results replace the note');
  });
  it('Claude Code: the header shows the run\'s cost once, recorded or computed', async () => {
    const facts = async (file: string): Promise<string[]> => {
      const v = await view(file);
      await v.page.waitForSelector('.header-facts .fact');
      await v.screenshot(`header-cost-${file.split('/').pop()!.replace(/\W+/g, '-')}`);
      return v.page.$$eval('.header-facts .fact', (es: Any[]) => es.map((e) => e.textContent));
    };
    // stream-json records the cost in its result line (total_cost_usd); the transcript's is computed from prices.
    for (const file of [resolve('test/corpus/claude-code-2.1.332/shell-ok/stream-json.jsonl'), resolve('samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl')]) {
      const list = await facts(file);
      const dollars = list.filter((t) => /\$\d/.test(t));
      assert.equal(dollars.length, 1, `one cost fact, got ${JSON.stringify(list)}`);
      assert.equal(list.join(' ').match(/\$\d/g)?.length, 1, 'and one dollar figure in all');
    }
  });
});

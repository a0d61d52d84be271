import { strict as assert } from 'node:assert';
import { compareData, compareHunks, compareInit, compareRowsPage } from '../../src/viewer/compareSession';
import { MAX_COMPARE_PAGE } from '../../src/protocol/compare';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { diffTraces } from '../../src/core/diff/diffTraces';
import { openCompare, selectedRow } from './compareHarness';
import { browserSuite, SCREENSHOTS } from './harness';
import { THEMES } from './themes';
import { agentledger, claudeSession } from '../core/diff/diffPairs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const HOSTILE = [
  `<script>window.__pwned='script'</script>`,
  `<img src=x onerror="window.__pwned='img'">`,
  `"><svg onload="window.__pwned='svg'">`,
  `<iframe src="https://evil.example/frame"></iframe>`,
  '\u202einvoice_fdp.exe',
  '\u001b[31mred\u001b[0m \u001b]0;title\u0007',
];

/** Two generic traces whose labels, kinds, keys and values are markup, bidi and ANSI, differing in every field. */
function hostilePair(): [string, string] {
  const dir = mkdtempSync(join(tmpdir(), 'atv-cmp-xss-'));
  const write = (name: string, side: string): string => {
    const lines: unknown[] = [{ type: 'session_start', id: 'root', name: `XSS ${side}` }];
    HOSTILE.forEach((p, i) => lines.push({ type: i % 2 ? p : 'tool_call', id: `e${i}`, parent_id: 'root', name: p, input: { html: `${p} ${side}` }, [p]: `${side} ${p}` }));
    if (side === 'B') lines.push({ type: HOSTILE[0], id: 'extra', parent_id: 'root', text: HOSTILE[1] });
    const path = join(dir, `${side}.jsonl`);
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return path;
  };
  return [write('a', 'A'), write('b', 'B')];
}

/**
 * Two generic runs with the same events and lines that are not JSON: A's at lines 3 and 5, B's at line 3 with
 * other text (`differ`), or the same lines in both (`same`).
 */
function malformedPair(kind: 'differ' | 'same'): [string, string] {
  const dir = mkdtempSync(join(tmpdir(), 'atv-cmp-malformed-'));
  const ev = (id: string, parent?: string) => JSON.stringify({ type: 'tool_call', id, ...(parent ? { parent_id: parent } : {}), name: `call ${id}` });
  const a = [ev('root'), ev('e1', 'root'), '{"type": "tool_call", "id": "cut', ev('e2', 'root'), 'not json at all'];
  const b = kind === 'same' ? a : [ev('root'), ev('e1', 'root'), '{"type": "tool_call", "id": "other cut', ev('e2', 'root')];
  writeFileSync(join(dir, 'a.jsonl'), a.join('\n') + '\n');
  writeFileSync(join(dir, 'b.jsonl'), b.join('\n') + '\n');
  return [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
}

describe('compare view (webview, Chromium)', () => {
  const suite = browserSuite();

  it('shows approval-granted against approval-denied aligned row for row, the first divergence selected with its field diff; F7 stays on the one change', async () => {
    const diff = await diffTraces(await loadTrace(agentledger('approval-granted', 'events.jsonl')), await loadTrace(agentledger('approval-denied', 'events.jsonl')));
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors);
    // The view's rows: the ledger's bookkeeping (cost_recorded, state_patch_proposed) folded, as in the tree.
    const data = compareData(diff, 1);
    const viewRows = compareRowsPage(data, 0, MAX_COMPARE_PAGE).rows;
    const first = compareInit(data, false).firstDivergence;
    assert.ok(viewRows.length < diff.ops.length);
    // The first divergence is selected: the approval decision at line 12 (the rows before it equal).
    assert.equal(await selectedRow(page), first);
    assert.deepEqual([viewRows[first].op, viewRows[first].a?.line], ['change', 12]);
    await page.waitForSelector('.field-diff');
    const fields = await page.$$eval('.field-diff tbody tr', (rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)));
    assert.deepEqual(fields.find((f) => f[0] === 'payload.status'), ['payload.status', '"APPROVED"', '"DENIED"']);
    const cells = await page.$eval(`.compare-row[data-row="${first}"]`, (r) => Array.from(r.querySelectorAll('.compare-cell .compare-line'), (c) => c.textContent));
    assert.deepEqual(cells, ['12', '12']);
    // A deleted row has an empty B cell; an inserted one an empty A cell.
    const firstDelete = viewRows.findIndex((o: { op: string }) => o.op === 'delete');
    assert.equal(await page.$eval(`.compare-row[data-row="${firstDelete}"] .compare-cell:last-child`, (c) => c.classList.contains('compare-empty')), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-approval.png') });
    // One hunk only (the change and all that follows differ): F7 stays on it, as the diff editor's does.
    await page.focus('.compare-scroll');
    await page.keyboard.press('F7');
    assert.equal(await selectedRow(page), first);
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), []);
    await page.close();
  });

  it('unreadable lines: a notice with counts and lines, and no "equivalent" when they differ; a line opens its run there', async () => {
    const [a, b] = malformedPair('differ');
    const diff = await diffTraces(await loadTrace(a), await loadTrace(b));
    assert.equal(diff.firstDivergence, -1, 'the events are alike');
    assert.deepEqual(diff.malformed.firstDifference, { aLine: 3, bLine: 3 });
    for (const theme of ['dark', 'hc'] as const) {
      const page = await suite.browser().newPage({ viewport: { width: 1400, height: 500 } });
      const errors: string[] = [];
      const { sent } = await openCompare(page, suite.origin(), diff, errors, THEMES[theme]);
      const summary = await page.$eval('.compare-summary', (e: Any) => e.textContent as string);
      assert.ok(summary.startsWith('events equivalent, unreadable lines differ'), summary);
      assert.ok(!summary.includes('equivalent: no differences'), summary);
      const notice = await page.$eval('.compare-malformed', (e: Any) => ({ text: e.textContent as string, role: e.getAttribute('role') }));
      assert.equal(notice.role, 'note');
      assert.equal(notice.text, 'Lines that are not JSON (no row shows them): A: 2 (lines 3, 5) · B: 1 (line 3). They differ: line 3 of A against line 3 of B.');
      await page.screenshot({ path: join(SCREENSHOTS, `compare-malformed-${theme}.png`) });
      if (theme === 'dark') {
        // Keyboard: the line is a button; Enter opens run A at that line.
        await page.focus('.compare-malformed-side[data-side="a"] .compare-malformed-line[data-line="5"]');
        await page.keyboard.press('Enter');
        for (let i = 0; i < 50 && !sent.some((m: Any) => m.type === 'compareOpen'); i++) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(sent.filter((m: Any) => m.type === 'compareOpen'), [{ type: 'compareOpen', side: 'a', line: 5 }]);
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), []);
      await page.close();
    }
  });

  it('the same unreadable lines in both runs: equivalent, and the notice says they are the same', async () => {
    const [a, b] = malformedPair('same');
    const diff = await diffTraces(await loadTrace(a), await loadTrace(b));
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 500 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors);
    assert.ok((await page.$eval('.compare-summary', (e: Any) => e.textContent as string)).startsWith('equivalent: no differences'));
    assert.equal(await page.$eval('.compare-malformed', (e: Any) => e.textContent as string), 'Lines that are not JSON (no row shows them): A: 2 (lines 3, 5) · B: 2 (lines 3, 5). Both runs have the same ones.');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('F7 and Shift+F7 go to the next and previous change of Claude Code runs that differ here and there', async () => {
    const diff = await diffTraces(await loadTrace(claudeSession('shell-ok')), await loadTrace(claudeSession('shell-fail')));
    // Folded, as in the tree, the two runs differ step after step: one place. With the bookkeeping rows shown, the
    // places between equal rows are several, for F7 to go through.
    const folded = compareHunks(compareData(diff, 1)).map((h) => h.row);
    const starts = compareHunks(compareData(diff, 1, true)).map((h) => h.row);
    assert.ok(starts.length >= 3 && folded.length < starts.length, `hunks ${folded} of ${starts}`);
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors);
    assert.equal(await selectedRow(page), folded[0]);
    const summaryText = () => page.$eval('.compare-summary', (e: Any) => e.textContent as string);
    assert.ok((await summaryText()).startsWith(`differ in ${folded.length} place${folded.length === 1 ? '' : 's'} (F7) · `), await summaryText());
    // Bookkeeping rows shown on demand (a checkbox, by keyboard): every place, with the rows the tree folds too.
    assert.match(await page.$eval('.compare-bookkeeping', (e: Any) => e.textContent as string), /Bookkeeping rows \(\d+, \d+ differ\)/);
    await page.focus('#compare-bookkeeping');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.compare-row')].some((r: Any) => (r.textContent as string).includes('queue-operation enqueue')));
    await page.waitForFunction((n) => (globalThis as Any).document.querySelector('.compare-row.selected')?.getAttribute('data-row') === String(n), starts[0]);
    // The places F7 steps through, then the rows: "differ in 5 places (F7) · … · 10 changed", not "5 changes · … · 10 changed".
    const summary = await summaryText();
    assert.ok(summary.startsWith(`differ in ${starts.length} places (F7) · `), summary);
    assert.match(summary, / \d+ changed · /);
    await page.focus('.compare-scroll');
    const waitRow = (r: number) => page.waitForFunction((x) => (globalThis as Any).document.querySelector('.compare-row.selected')?.getAttribute('data-row') === String(x), r);
    await page.keyboard.press('F7');
    await waitRow(starts[1]);
    await page.keyboard.press('F7');
    await waitRow(starts[2]);
    await page.keyboard.press('Shift+F7');
    await waitRow(starts[1]);
    // Shift+F7 from the first change wraps to the last.
    await page.keyboard.press('Shift+F7');
    await waitRow(starts[0]);
    await page.keyboard.press('Shift+F7');
    await waitRow(starts[starts.length - 1]);
    await page.waitForSelector('.compare-detail .compare-json');
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-claude-f7.png') });
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), []);
    await page.close();
  });

  it('keeps hostile labels, kinds, keys and values as text: nothing runs, nothing loads', async () => {
    const [a, b] = hostilePair();
    const diff = await diffTraces(await loadTrace(a), await loadTrace(b));
    assert.ok(diff.firstDivergence >= 0);
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors);
    await page.waitForSelector('.field-diff');
    // Visit every row's detail (a click, then the arrow keys) so every label, field and event JSON is rendered once.
    await page.click('.compare-row[data-row="0"]');
    await page.focus('.compare-scroll');
    for (let i = 0; i < diff.ops.length; i++) {
      if (i > 0) await page.keyboard.press('ArrowDown');
      await page.waitForFunction((t) => {
        const d = (globalThis as Any).document;
        // This row's own detail, not the last row's (dimmed while this one is on its way).
        return d.querySelector('.compare-detail:not(.compare-stale)')?.textContent?.length > 0 && d.querySelector('.compare-row.selected')?.getAttribute('data-row') === String(t);
      }, i);
    }
    const text = await page.evaluate(() => (globalThis as Any).document.body.textContent as string);
    assert.ok(text.includes(`<script>window.__pwned='script'</script>`), 'markup shows as text');
    const found = await page.evaluate(() => {
      const d = (globalThis as Any).document;
      return {
        pwned: (globalThis as Any).__pwned ?? null,
        // The page's own bundle is the one script allowed.
        elements: [...d.body.querySelectorAll('script, img, svg, iframe, object, embed, link, style, meta, base, form')].filter((e: Any) => !(e.tagName === 'SCRIPT' && /\/dist\/compare\.js$/.test(e.src))).map((e: Any) => e.tagName),
        handlers: [...d.body.querySelectorAll('*')].flatMap((e: Any) => [...e.attributes].map((x: Any) => x.name).filter((n: string) => n.startsWith('on'))),
        bidiMarkers: d.querySelectorAll('.invisible-char').length,
      };
    });
    assert.deepEqual(found.elements, []);
    assert.deepEqual(found.handlers, []);
    assert.equal(found.pwned, null);
    assert.ok(found.bidiMarkers > 0, 'bidi and ANSI controls are shown as markers');
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-hostile.png') });
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), []);
    await page.close();
  });
});

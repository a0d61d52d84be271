import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { layOutAgentHome } from '../helpers/agentHome';
import { tempDir } from '../helpers/tmp';
import { agentHomeRoots } from '../../src/core/sessions/agentHomes';
import { listSessions } from '../../src/core/sessions/sessionCatalog';
import type { SessionRecord } from '../../src/core/sessions/sessionCache';
import { parseViewMessage } from '../../src/protocol/validate';
import type { UsageHostMessage } from '../../src/protocol/usage';
import { usageCsvFor, usageMessage } from '../../src/viewer/usageView';
import { renderViewerHtml } from '../../src/viewer/webviewHtml';
import { browserSuite, SCREENSHOTS, stubPage } from './harness';
import { THEME_CLASS, THEMES } from './themes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The usage page in `page`, answered as the extension's panel answers it, from `records` (the view's listing). */
async function openUsage(page: Page, origin: string, records: SessionRecord[], now: number, theme: keyof typeof THEMES, errors: string[]): Promise<{ sent: unknown[] }> {
  const sent: unknown[] = [];
  await stubPage(page, { state: null, vars: THEMES[theme], bodyClass: THEME_CLASS[theme], post: '__usagePost' }, errors);
  const post = (m: UsageHostMessage) => page.evaluate((msg) => (globalThis as Any).postMessage(msg, '*'), m as unknown);
  await page.exposeBinding('__usagePost', async (_src, raw: unknown) => {
    sent.push(raw);
    const m = parseViewMessage('usage', raw);
    if (!m) return void errors.push(`invalid message ${JSON.stringify(raw)}`);
    if (m.type === 'usageReady') {
      await post({ type: 'usageListing', done: null, total: null });
      await post(usageMessage(records, m.query ?? { by: 'day', split: 'model', since: '30d' }, now));
    }
    if (m.type === 'usageQuery') await post(usageMessage(records, m.query, now));
  });
  await page.route(`${origin}/usage.html`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: renderViewerHtml({ cspSource: origin, scriptUri: `${origin}/dist/usage.js`, styleUri: `${origin}/dist/usage.css`, codiconUri: `${origin}/dist/codicon.css` }, { title: 'Agent Usage', label: 'Agent usage over time', role: 'main' }),
  }));
  await page.goto(`${origin}/usage.html`);
  return { sent };
}

/** The table as numbers: each part row's period, key and figures, and the total row. */
async function tableOf(page: Page): Promise<{ rows: { period: string; key: string; sessions: number; input: number | null; cost: number | null; cls: string }[]; total: { input: number | null; cost: number | null } }> {
  return page.evaluate(() => {
    const num = (t: string | null | undefined) => (t === undefined || t === null || t.startsWith('—') ? null : Number(t.replace(/[$,]/g, '').replace(' +?', '')));
    const d = (globalThis as Any).document;
    const rows = [...d.querySelectorAll('.usage-table tbody tr')].map((tr: Any) => ({
      period: tr.dataset.period, key: tr.cells[1].textContent, sessions: Number(tr.cells[2].textContent), input: num(tr.cells[3].textContent),
      cost: tr.cells[7].dataset.cost === '' ? null : Number(tr.cells[7].dataset.cost), cls: tr.className,
    }));
    const t = d.querySelector('.usage-table tfoot tr');
    return { rows, total: { input: num(t.cells[3].textContent), cost: t.cells[7].dataset.cost === '' ? null : Number(t.cells[7].dataset.cost) } };
  });
}

/** Pixels of the chart's canvas that are not the page's background: something was drawn. */
async function inkedPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const c = (globalThis as Any).document.querySelector('.usage-canvas canvas');
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

describe('Agent Usage view (webview, Chromium), over a home laid out from the real-writer corpus', function () {
  this.timeout(300000);
  const suite = browserSuite();
  let records: SessionRecord[];
  let now: number;

  before(async () => {
    const home = tempDir('atv-usage-home-');
    layOutAgentHome(home);
    records = (await listSessions({ roots: agentHomeRoots(home) })).records;
    // "Now" a day after the corpus's last session, so the 30-day range holds every one of them.
    now = Math.max(...records.map((r) => Date.parse(r.entry.endTime ?? r.entry.startTime ?? '') || 0)) + 86400000;
  });

  it('draws the chart and the table of the same numbers; group-by and breakdown switch by keyboard; sums hold; light, dark and High Contrast', async () => {
    // A range keeps the sessions active in it (as `usage --since`): one with no time at all is in none.
    const withUsage = records.filter((r) => r.entry.error === null && !Number.isNaN(Date.parse(r.entry.endTime ?? r.entry.startTime ?? '')));
    assert.ok(withUsage.length >= 20, `${withUsage.length} sessions with a time`);
    const inputTotal = withUsage.reduce((a, r) => a + (r.entry.usage.inputTokens ?? 0), 0);
    const costTotal = withUsage.reduce((a, r) => a + (r.entry.usage.costUsd ?? 0), 0);
    for (const theme of ['dark', 'light', 'hc'] as const) {
      const page = await suite.browser().newPage({ viewport: { width: 1400, height: 820 } });
      const errors: string[] = [];
      const { sent } = await openUsage(page, suite.origin(), records, now, theme, errors);
      await page.waitForSelector('.usage-table tfoot');
      const t = await tableOf(page);
      // The parts add up to the total, which is the sessions' own totals.
      assert.equal(t.total.input, inputTotal);
      assert.equal(t.rows.filter((r) => r.cls === 'usage-part').reduce((a, r) => a + (r.input ?? 0), 0), inputTotal);
      assert.ok(Math.abs(t.total.cost! - costTotal) < 1e-9);
      assert.ok(t.rows.some((r) => r.key === 'qwen3-coder-plus' && r.cost === null), 'an unpriced model has no cost, not 0');
      assert.ok(new Set(t.rows.map((r) => r.period)).size >= 2, 'more than one day');
      assert.ok(await inkedPixels(page) > 5000, 'the chart is drawn');
      // The sessions without a cost are counted and listed.
      const without = await page.$eval('.usage-without-cost summary', (e) => e.textContent);
      const noCost = withUsage.filter((r) => r.entry.usage.costUsd === null && (r.entry.usage.inputTokens ?? 0) > 0).length;
      assert.equal(without, `Sessions without a cost (unpriced models): ${noCost}`);
      await page.screenshot({ path: join(SCREENSHOTS, `usage-${theme}.png`) });
      if (theme === 'dark') {
        // Keyboard: Tab reaches the group-by select first; a key changes it, and the table follows.
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => (globalThis as Any).document.activeElement.id), 'usage-by');
        await page.keyboard.press('End');
        await page.waitForFunction(() => (globalThis as Any).document.querySelector('.usage-table tbody tr')?.dataset.period === '2026-12');
        const month = await tableOf(page);
        assert.deepEqual([...new Set(month.rows.map((r) => r.period))], ['2026-12']);
        assert.equal(month.rows.filter((r) => r.cls === 'usage-part').reduce((a, r) => a + (r.input ?? 0), 0), inputTotal);
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => (globalThis as Any).document.activeElement.id), 'usage-split');
        await page.keyboard.press('End');
        await page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.usage-table tbody tr')].some((tr: Any) => tr.cells[1].textContent === 'claude-code'));
        const agents = await tableOf(page);
        assert.deepEqual(agents.rows.filter((r) => r.cls === 'usage-part').map((r) => r.key).sort(), [...new Set(withUsage.map((r) => r.entry.agent))].sort());
        assert.equal(agents.total.input, inputTotal);
        await page.screenshot({ path: join(SCREENSHOTS, 'usage-dark-month-agent.png') });
        // Export asks the host with the query shown; the host's CSV is the same numbers.
        await page.click('text=Export CSV…');
        await page.waitForFunction(() => true);
        const exp = sent.find((m: Any) => m.type === 'usageExportCsv') as Any;
        assert.deepEqual(exp?.query, { by: 'month', split: 'agent', since: '30d' });
        const csv = usageCsvFor(records, exp.query, now).trimEnd().split('\r\n');
        assert.equal(csv.at(-1)!.split(',')[3], String(inputTotal));
        // A theme change is drawn in the new colours.
        const before = await page.evaluate(() => (globalThis as Any).document.querySelector('.usage-canvas canvas').toDataURL());
        await page.evaluate((vars) => {
          const d = (globalThis as Any).document;
          for (const [k, v] of Object.entries(vars)) d.documentElement.style.setProperty(`--vscode-${k}`, v);
          d.body.classList.replace('vscode-dark', 'vscode-light');
        }, THEMES.light);
        await page.waitForFunction((b) => (globalThis as Any).document.querySelector('.usage-canvas canvas').toDataURL() !== b, before);
      }
      assert.deepEqual(errors, [], theme);
      assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), [], theme);
      await page.close();
    }
  });

  it('with range "all", counts the sessions that record no time under "no date" (last), in the total, and says so', async () => {
    const readable = records.filter((r) => r.entry.error === null);
    const timeless = readable.filter((r) => Number.isNaN(Date.parse(r.entry.endTime ?? r.entry.startTime ?? '')));
    assert.ok(timeless.length > 0, 'the corpus has sessions with no time (Continue documents)');
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 820 } });
    const errors: string[] = [];
    await openUsage(page, suite.origin(), records, now, 'dark', errors);
    await page.waitForSelector('.usage-table tfoot');
    await page.selectOption('#usage-since', 'all');
    await page.waitForFunction(() => /all time/.test((globalThis as Any).document.querySelector('.usage-status')?.textContent ?? ''));
    await page.waitForSelector('.usage-table tfoot');
    const t = await tableOf(page);
    // Every readable session counts in the total, the timeless ones too.
    assert.equal(t.total.input, readable.reduce((a, r) => a + (r.entry.usage.inputTokens ?? 0), 0));
    // Their period is named "no date" (not a day, not "(none)") and comes after the dated ones, in the table and the chart.
    const periods = [...new Set(t.rows.map((r) => r.period))];
    assert.equal(periods.at(-1), 'no date', periods.join(', '));
    assert.ok(!periods.includes('(none)'));
    const noDate = t.rows.filter((r) => r.period === 'no date' && r.cls === 'usage-part');
    assert.equal(noDate.reduce((a, r) => a + (r.input ?? 0), 0), timeless.reduce((a, r) => a + (r.entry.usage.inputTokens ?? 0), 0));
    // The table says what "no date" holds, and the status line counts them.
    const note = await page.$eval('.usage-no-date', (e) => e.textContent ?? '');
    assert.match(note, new RegExp(`^no date: ${timeless.length} sessions record no time`));
    assert.match(await page.$eval('.usage-status', (e) => e.textContent ?? ''), new RegExp(`${timeless.length} of them record no time`));
    await page.screenshot({ path: join(SCREENSHOTS, 'usage-all-no-date.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('says so when there are no sessions', async () => {
    const page = await suite.browser().newPage({ viewport: { width: 900, height: 500 } });
    const errors: string[] = [];
    await openUsage(page, suite.origin(), [], now, 'dark', errors);
    await page.waitForSelector('.usage-status.usage-empty');
    assert.match(await page.$eval('.usage-status', (e) => e.textContent ?? ''), /No agent sessions found/);
    assert.equal(await page.$eval('.usage-body', (e: Any) => e.hidden), true);
    assert.equal(await page.$eval('text=Export CSV…', (e: Any) => e.disabled), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'usage-empty.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });
});

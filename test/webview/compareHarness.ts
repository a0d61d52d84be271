// The compare page in Chromium, answered from a real diff as the extension's panel answers it.
import type { Page } from 'playwright-core';
import type { TraceDiff } from '../../src/core/diff/diffTraces';
import { compareData, compareDetail, compareInit, compareRowsPage } from '../../src/viewer/compareSession';
import type { CompareHostMessage } from '../../src/protocol/compare';
import { parseViewMessage } from '../../src/protocol/validate';
import { renderViewerHtml } from '../../src/viewer/webviewHtml';
import { stubPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Opens the compare page in `page`, answering its messages from a real diff as the extension's panel does. */
export async function openCompare(page: Page, origin: string, diff: TraceDiff, errors: string[], vars: Record<string, string> = {}): Promise<{ sent: unknown[] }> {
  const sent: unknown[] = [];
  let data = compareData(diff, 1);
  // The viewer's VS Code API stub, posting to this page's own binding; the compare view keeps no state.
  await stubPage(page, { state: null, vars, post: '__cmpPost' }, errors);
  const post = (m: CompareHostMessage) => page.evaluate((msg) => (globalThis as Any).postMessage(msg, '*'), m as unknown);
  await page.exposeBinding('__cmpPost', async (_src, raw: unknown) => {
    sent.push(raw);
    const m = parseViewMessage('compare', raw);
    if (!m) return void errors.push(`invalid message ${JSON.stringify(raw)}`);
    if (m.type === 'compareReady') await post(compareInit(data, false));
    if (m.type === 'compareRows' && m.generation === data.generation) await post({ type: 'compareRows', ...compareRowsPage(data, m.from, m.count) });
    if (m.type === 'compareShowBookkeeping') {
      data = compareData(diff, data.generation + 1, m.show);
      await post(compareInit(data, false));
    }
    if (m.type === 'compareSelect') {
      const detail = await compareDetail(data, m.row);
      if (detail) await post({ type: 'compareDetail', detail });
    }
  });
  await page.route(`${origin}/compare.html`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: renderViewerHtml({ cspSource: origin, scriptUri: `${origin}/dist/compare.js`, styleUri: `${origin}/dist/compare.css`, codiconUri: `${origin}/dist/codicon.css` }),
  }));
  await page.goto(`${origin}/compare.html`);
  await page.waitForSelector('.compare-row');
  return { sent };
}

export const selectedRow = (page: Page) => page.$eval('.compare-row.selected', (e) => Number(e.getAttribute('data-row')));


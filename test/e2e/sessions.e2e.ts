// End-to-end: the Agent Traces view in a real VS Code workbench (code-server, Debian Chromium), with a HOME laid out
// from the real-writer corpus (every agent in its own folder). The view lists sessions of several agents with their
// verdict icons and the workspace's own trace files; a click on a session opens it in the viewer. Screenshots in the
// light, dark and High Contrast themes: test-results/e2e/sessions-*.png. Needs `npm run build` and code-server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Frame, Page } from 'playwright-core';
import { makeWorkspace, removeWorkspace, runCommand, startWorkbench, until, Workbench } from './workbench';
import { layOutAgentHome } from '../helpers/agentHome';

/** The rows of the Agent Traces view, by their place in the list: label and tree level. */
async function viewRows(page: Page): Promise<{ index: number; label: string; level: number }[]> {
  return page.evaluate(() => {
    const pane = Array.from(document.querySelectorAll('.pane')).find((p) => p.querySelector('.pane-header')?.textContent?.includes('Sessions'));
    return Array.from(pane?.querySelectorAll('.monaco-list-row') ?? []).map((r) => ({
      index: Number(r.getAttribute('data-index')),
      label: r.querySelector('.label-name')?.textContent ?? '',
      level: Number(r.getAttribute('aria-level')),
    })).sort((a, b) => a.index - b.index);
  });
}

const row = (page: Page, index: number) => page.locator(`.pane .monaco-list-row[data-index="${index}"]`).filter({ has: page.locator('.custom-view-tree-node-item') });

/** Picks a colour theme by name from "Preferences: Color Theme" (its picker stays open after the command). */
async function setTheme(page: Page, theme: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Preferences: Color Theme');
  await widget.locator('.monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  await page.waitForTimeout(500);
  await input.fill(theme);
  await widget.locator('.monaco-list-row', { hasText: theme }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
  // Away from the tree, so no hover covers it in the screenshot.
  await page.mouse.move(800, 600);
  await page.waitForTimeout(500);
}

describe('e2e: Agent Traces view', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let page: Page;
  let home: string;

  before(async function () {
    this.timeout(300_000);
    home = mkdtempSync(join(tmpdir(), 'atv-e2e-home-'));
    layOutAgentHome(home);
    const saved = process.env.HOME;
    // code-server's extension host takes its home folder from the environment it is started with.
    process.env.HOME = home;
    try {
      wb = await startWorkbench(makeWorkspace());
    } finally {
      process.env.HOME = saved;
    }
    page = wb.page;
  });

  after(async () => {
    await wb?.stop();
    if (wb) removeWorkspace(wb.workspace);
    rmSync(home, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      await wb.shot('sessions-failed').catch(() => undefined);
      wb.saveLogs('sessions-failed');
    }
  });

  it('lists the sessions of several agents and the workspace trace files; a click on a session opens the viewer', async () => {
    // The view's own icon in the activity bar.
    await page.locator('.activitybar .action-item a[aria-label^="Agent Traces"]').first().click();
    const agents = ['Claude Code transcript', 'Codex CLI rollout', 'Gemini CLI', 'Qwen Code'];
    const rows = await until(page, 'the agents in the view', async () => {
      const r = await viewRows(page);
      return agents.every((a) => r.some((x) => x.label === a)) ? r : undefined;
    }, 120_000);
    assert.equal(rows[0].label, 'Workspace trace files');
    // The verdict icons are drawn (pass in the testing colour; the tampered samples fail).
    await until(page, 'verdict icons', async () => (await page.locator('.pane .monaco-list-row .codicon-pass').count()) > 0 && (await page.locator('.pane .monaco-list-row .codicon-error').count()) > 0);
    await page.mouse.move(800, 600);
    await page.waitForTimeout(500);
    await wb!.shot('sessions-light');
    await setTheme(page, 'Dark Modern');
    await wb!.shot('sessions-dark');
    await setTheme(page, 'Dark High Contrast');
    await wb!.shot('sessions-hc');

    // Claude Code → its project → its newest day → the first session.
    const claude = rows.find((r) => r.label === 'Claude Code transcript')!;
    for (let step = 1; step <= 2; step++) {
      const r = row(page, claude.index + step);
      await r.click();
      await until(page, `level ${step + 2} under Claude Code`, async () => (await viewRows(page)).find((x) => x.index === claude.index + step + 1 && x.level === step + 2));
    }
    const session = (await viewRows(page)).find((x) => x.index === claude.index + 3)!;
    await row(page, session.index).click();
    const frame = await until(page, 'the viewer with the session', async () => {
      for (const f of page.frames()) {
        const ok = await f.evaluate(() => document.querySelector('.format-chip')?.textContent === 'claude-code' && document.querySelectorAll('.tree-scroll .row[data-node]').length > 0).catch(() => false);
        if (ok) return f;
      }
      return undefined;
    }, 90_000);
    assert.ok((frame as Frame).url().length > 0);
    await wb!.shot('sessions-opened');
  });

  it('searches every session from the view: a prompt found across agents opens at its event (issue 39)', async () => {
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    // The view's title bar button.
    await page.locator('.action-label[aria-label^="Search Agent Sessions"]').first().click();
    await input.waitFor({ state: 'visible' });
    await input.fill('field:prompt README');
    // Hits of several agents, each under its session's separator, with what it is and its line.
    const hits = await until(page, 'search hits of several agents', async () => {
      const r = await widget.evaluate((w) => ({
        separators: Array.from(w.querySelectorAll('.quick-input-list .monaco-list-row .quick-input-list-separator')).map((e) => e.textContent ?? ''),
        descriptions: Array.from(w.querySelectorAll('.quick-input-list .monaco-list-row .label-description')).map((e) => e.textContent ?? ''),
      }));
      const agents = new Set(r.separators.map((t) => t.split(' · ')[0]).filter((a) => a !== ''));
      return agents.size >= 3 && r.descriptions.length > 0 ? { ...r, agents } : undefined;
    }, 120_000);
    assert.ok(hits.descriptions.every((d) => /^prompt · (.+ )?line \d+$/.test(d)), hits.descriptions.join(' | '));
    await page.waitForTimeout(300);
    await wb!.shot('sessions-search');
    const line = Number(/line (\d+)$/.exec(hits.descriptions[0])![1]);
    await page.keyboard.press('Enter');
    // The hit's session opens in the viewer with its event selected: the detail pane shows that line.
    await until(page, `the viewer at line ${line}`, async () => {
      for (const f of page.frames()) {
        const ok = await f.evaluate((n) => new RegExp(`Line\\s*${n}\\b`).test(document.querySelector('.detail-pane')?.textContent ?? '') && document.querySelectorAll('.tree-scroll .row[data-node]').length > 0, line).catch(() => false);
        if (ok) return f;
      }
      return undefined;
    }, 90_000);
    await wb!.shot('sessions-search-opened');
  });
});

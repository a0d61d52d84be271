// End-to-end: the screenshot set of issue 40 in a real VS Code workbench (code-server, Debian Chromium). One
// workbench opens a Claude Code, a Codex, a Gemini CLI, an OTLP and a lumen trace and one compare view, then, for
// each of the themes Light Modern, Dark Modern, High Contrast and High Contrast Light (switched in the user
// settings, the editors kept open), shows each trace's tree with an event's detail, its transcript and its
// timeline, and the compare view. Every shot is checked before it is kept: rows in the tree, text in the detail
// pane, no "Select an event", no U+001B marker of a terminal escape, ink on the timeline's canvas, rows in the
// compare view, and the theme's editor background as the most common colour of the pixels the viewer shows.
// Needs `npm run build` and scripts/install-code-server.sh. Screenshots: test-results/e2e/shots-<theme>-*.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Frame, Page } from 'playwright-core';
import { backdrop, compareFrame, contextMenu, explorerRow, makeWorkspace, openFromExplorer, removeWorkspace, runCommand, startWorkbench, until, viewerFrame, Workbench } from './workbench';
import { claudeSession } from '../core/diff/diffPairs';
import { WRITER_CORPUS } from '../helpers/corpus';

interface Theme {
  /** The theme's name in Preferences: Color Theme. */
  label: string;
  slug: string;
  /** The class the workbench's root element gets. */
  workbenchClass: string;
  /** Only the tree and detail of each trace, and the compare view (the CI budget: one workbench, ≤ 3 minutes). */
  treesOnly?: boolean;
  /** The theme's `editor.background`, which the viewer's page is painted with. */
  background: string;
}

const THEMES: Theme[] = [
  { label: 'Light Modern', slug: 'light', workbenchClass: 'vs', background: '#ffffff' },
  { label: 'Dark Modern', slug: 'dark', workbenchClass: 'vs-dark', background: '#1f1f1f' },
  { label: 'Dark High Contrast', slug: 'hc', workbenchClass: 'hc-black', background: '#000000' },
  { label: 'Light High Contrast', slug: 'hc-light', workbenchClass: 'hc-light', background: '#ffffff', treesOnly: true },
];

interface Trace {
  slug: string;
  /** Workspace-relative path. */
  rel: string;
  /** The viewer's format chip. */
  format: string;
}

const TRACES: Trace[] = [
  { slug: 'claude-code', rel: 'shots/claude-code.trace.jsonl', format: 'claude-code' },
  { slug: 'codex', rel: 'shots/codex.trace.jsonl', format: 'codex' },
  { slug: 'gemini', rel: 'shots/gemini.trace.jsonl', format: 'gemini-cli' },
  { slug: 'otlp', rel: 'shots/otlp.trace.jsonl', format: 'otlp' },
  { slug: 'lumen', rel: 'lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl', format: 'lumen' },
];

const COMPARE_TAB = 'shell-ok.jsonl ↔ shell-fail.jsonl';
const ESC_MARKER = 'U+001B';

/** The corpus file under `dir` of a tool's scenario (one trace file there). */
function corpusFile(...segments: string[]): string {
  return join(WRITER_CORPUS, ...segments);
}

/**
 * Claude Code's failing shell run, its Bash output coloured as a terminal writes it (synchronized-output mode and
 * SGR colours, as real transcripts of TUI commands hold): the tree, detail and transcript must not show the escapes
 * as `U+001B` markers.
 */
function claudeWithEscapes(): string {
  const lines = readFileSync(claudeSession('shell-fail'), 'utf8').split('\n');
  let coloured = 0;
  const out = lines.map((l) => {
    if (!l.includes('"tool_result"')) return l;
    const d = JSON.parse(l) as { message: { content: { type: string; content?: unknown }[] } };
    for (const part of d.message.content) {
      if (part.type === 'tool_result' && typeof part.content === 'string') {
        // After Claude Code's own "Exit code N" line, the command's stderr as the terminal got it.
        part.content = part.content.replace(/^((?:Error: )?Exit code \d+\n)?/, '$1\u001b[?2026h\u001b[31m') + '\u001b[0m\u001b[?2026l';
        coloured++;
      }
    }
    return JSON.stringify(d);
  });
  assert.ok(coloured > 0, 'the corpus run has a tool result to colour');
  return out.join('\n');
}

/** The pixels of `frame`'s canvas `selector` that are drawn, not background: alpha set and unlike `background`. */
async function ink(frame: Frame, selector: string, background: string): Promise<number> {
  return frame.evaluate(
    ([sel, bg]) => {
      const c = document.querySelector(sel) as HTMLCanvasElement | null;
      if (!c || c.width === 0 || c.height === 0) return 0;
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] < 128) continue;
        if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) > 60) n++;
      }
      return n;
    },
    [selector, background] as const,
  );
}

/**
 * Text the viewer draws too faint to read: each visible element with text of its own whose colour has a contrast
 * ratio under 3 (WCAG's minimum for large text) against the background it is painted on (the nearest ancestor's
 * opaque background, semi-transparent ones blended over it). Disabled controls are exempt, as in WCAG.
 */
async function faintText(frame: Frame, scope: string): Promise<string[]> {
  // A script as text: the test's compiler would wrap its inner functions in a helper the page does not have.
  return frame.evaluate(`(${FAINT_TEXT})(${JSON.stringify(scope)})`) as Promise<string[]>;
}

const FAINT_TEXT = String.raw`(sel) => {
    const rgba = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    const backdropOf = (e) => {
      const layers = [];
      for (let x = e; x; x = x.parentElement) {
        const c = rgba(getComputedStyle(x).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let bg = [255, 255, 255, 1];
      if (layers.length && layers[layers.length - 1][3] >= 1) bg = layers.pop();
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
      return bg;
    };
    const lum = (c) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out = [];
    for (const root of Array.from(document.querySelectorAll(sel))) {
      for (const e of [root, ...Array.from(root.querySelectorAll('*'))]) {
        const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
        if (!own || e.closest('[disabled], [aria-disabled="true"], .disabled')) continue;
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight || getComputedStyle(e).visibility === 'hidden') continue;
        const bg = backdropOf(e);
        const fg = over(rgba(getComputedStyle(e).color), bg);
        const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        const ratio = (a + 0.05) / (b + 0.05);
        if (ratio < 3) out.push(e.tagName.toLowerCase() + '.' + e.className + ' "' + (e.textContent ?? '').trim().slice(0, 30) + '" ' + ratio.toFixed(2) + ':1');
      }
    }
    return out;
  }`;

/** The frame's computed `--vscode-editor-background`, as `#rrggbb` (lower case). */
async function editorBackground(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const v = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim().toLowerCase();
    return v.length === 9 && v.endsWith('ff') ? v.slice(0, 7) : v;
  });
}

describe('e2e: the screenshot set (themes × formats × views)', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let page: Page;
  const file = (t: Trace) => join(wb!.workspace, t.rel);
  const tabName = (t: Trace) => t.rel.split('/').pop()!;

  before(async function () {
    this.timeout(300_000);
    const ws = makeWorkspace();
    const put = (rel: string, text: string | Buffer) => {
      mkdirSync(dirname(join(ws, rel)), { recursive: true });
      writeFileSync(join(ws, rel), text);
    };
    put(TRACES[0].rel, claudeWithEscapes());
    put(TRACES[1].rel, readFileSync(corpusFile('codex-0.171.0', 'shell-fail', 'sessions', '2026', '12', '01', 'rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl')));
    put(TRACES[2].rel, readFileSync(corpusFile('gemini-cli-0.61.0', 'shell-fail', 'tmp', 'project', 'chats', 'session-2026-12-01T16-25-95d457d6.jsonl')));
    put(TRACES[3].rel, readFileSync(corpusFile('otel-js-2.12.1', 'otlp-traces.jsonl')));
    mkdirSync(join(ws, 'compare'), { recursive: true });
    copyFileSync(claudeSession('shell-ok'), join(ws, 'compare', 'shell-ok.jsonl'));
    copyFileSync(claudeSession('shell-fail'), join(ws, 'compare', 'shell-fail.jsonl'));
    wb = await startWorkbench(ws, { 'workbench.colorTheme': 'Default Light Modern' });
    page = wb.page;
  });

  after(async () => {
    await wb?.stop();
    if (wb) removeWorkspace(wb.workspace);
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !wb) return;
    const name = `shots-FAILED-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`;
    await wb.shot(name).catch(() => undefined);
    wb.saveLogs(name);
  });

  /** Picks a theme in Preferences: Color Theme (the user settings file is not watched on every machine). */
  async function setTheme(theme: Theme): Promise<void> {
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Preferences: Color Theme');
    await widget.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) }).first().click();
    const row = widget.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${theme.label}$`) }) }).first();
    await until(page, `${theme.label} in the theme picker`, async () => {
      if ((await input.inputValue()) !== theme.label) await input.fill(theme.label);
      return (await row.count()) > 0;
    });
    await row.click();
    await widget.waitFor({ state: 'hidden' });
    await until(page, `the workbench in ${theme.label}`, async () => (await page.locator(`.monaco-workbench.${theme.workbenchClass}`).count()) > 0, 30_000);
  }

  /** Everything the viewer's page shows as text. */
  const pageText = (f: Frame) => f.evaluate(() => document.body.innerText);

  it('opens the five traces, each with an event selected, and one compare view', async () => {
    for (const t of TRACES) {
      await openFromExplorer(page, t.rel.split('/'));
      const f = await viewerFrame(page, file(t), t.format);
      // Issue 40: the first open selected nothing, so half of the editor said "Select an event".
      await until(page, `${t.slug}: an event selected on open`, async () => (await f.locator('.tree-scroll .row.selected').count()) > 0, 30_000).catch(() => undefined);
      const text = await pageText(f);
      assert.doesNotMatch(text, /Select an event/, `${t.slug}: the detail pane on open`);
    }
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'Collapse Folders in Explorer');
    await explorerRow(page, 'compare', 1).click();
    await contextMenu(page, 'shell-ok.jsonl', 'Select Trace for Compare');
    await contextMenu(page, 'shell-fail.jsonl', 'Compare Trace with Selected');
    await compareFrame(page);
    // The shots show the editors, not the Explorer.
    await runCommand(page, 'View: Close Primary Side Bar');
  });

  for (const theme of THEMES) {
    it(`${theme.slug}: tree and detail${theme.treesOnly ? '' : ', transcript and timeline'} of each trace, and the compare view`, async () => {
      await setTheme(theme);
      const shot = (name: string) => wb!.shot(`shots-${theme.slug}-${name}`);

      /** Saves the shot; the viewer's part of it is painted with the theme's editor background. */
      const shotWithBackdrop = async (f: Frame, name: string) => {
        const box = await (await f.frameElement()).boundingBox();
        assert.ok(box && box.width > 200 && box.height > 200, `${name}: the webview is on screen (${JSON.stringify(box)})`);
        const b = await backdrop(page, await shot(name), box);
        assert.equal(b.colour, theme.background, `${theme.slug} ${name}: the most common colour (${Math.round(b.share * 100)} %) is the theme's background`);
      };

      for (const t of TRACES) {
        const what = `${theme.slug} ${t.slug}`;
        await page.locator('.tabs-container .tab').filter({ hasText: tabName(t) }).first().click();
        const f = await viewerFrame(page, file(t), t.format);
        await until(page, `${what}: the webview in the theme`, async () => (await editorBackground(f)) === theme.background, 30_000);

        // Tree and detail: a row with something to show selected (a failed step where there is one).
        await f.locator('#main-tab-tree').click();
        const rows = f.locator('.tree-scroll .row[data-node]');
        await until(page, `${what}: tree rows`, async () => (await rows.count()) > 0);
        const failed = f.locator('.tree-scroll .row[data-node].status-error');
        const target = (await failed.count()) > 0 ? failed.first() : rows.nth(Math.min(2, (await rows.count()) - 1));
        const line = await target.getAttribute('data-line');
        await target.click();
        await f.locator(`.tree-scroll .row.selected[data-line="${line}"]`).waitFor({ state: 'visible' });
        const detail = f.locator('.detail-pane');
        await until(page, `${what}: the detail of line ${line}`, async () => (await detail.innerText()).trim().length > 40 && !/Select an event/.test(await detail.innerText()));
        const treeText = await f.locator('.tree-scroll').innerText();
        assert.ok(!treeText.includes(ESC_MARKER), `${what}: no escape marker in the tree`);
        assert.ok(!(await detail.innerText()).includes(ESC_MARKER), `${what}: no escape marker in the detail pane`);
        assert.deepEqual(await faintText(f, 'body'), [], `${what}: text too faint to read in the tree, detail or header`);
        await shotWithBackdrop(f, `${t.slug}-1-tree`);

        if (theme.treesOnly) continue;

        // Transcript.
        await f.locator('#main-tab-transcript').click();
        const blocks = f.locator('.transcript-block');
        await until(page, `${what}: transcript blocks`, async () => (await blocks.count()) > 0);
        const transcript = await f.locator('.transcript').innerText();
        assert.ok(transcript.trim().length > 0, `${what}: the transcript has text`);
        assert.ok(!transcript.includes(ESC_MARKER), `${what}: no escape marker in the transcript`);
        assert.deepEqual(await faintText(f, '.transcript'), [], `${what}: text too faint to read in the transcript`);
        assert.doesNotMatch(await pageText(f), /Select an event/, `${what}: transcript`);
        await shotWithBackdrop(f, `${t.slug}-2-transcript`);

        // Timeline: bars drawn on the canvas.
        await f.locator('.main-view-tab[data-view="timeline"]').click();
        await f.locator('.timeline-canvas').waitFor({ state: 'visible' });
        const drawn = await until(page, `${what}: ink on the timeline`, async () => {
          const n = await ink(f, '.timeline-canvas', theme.background);
          return n > 500 ? n : undefined;
        }, 30_000);
        assert.ok(drawn > 500, `${what}: timeline pixels ${drawn}`);
        assert.doesNotMatch(await pageText(f), /Select an event/, `${what}: timeline`);
        await shotWithBackdrop(f, `${t.slug}-3-timeline`);
        await f.locator('#main-tab-tree').click();
      }

      // The compare view.
      await page.locator('.tabs-container .tab').filter({ hasText: COMPARE_TAB }).first().click();
      const c = await compareFrame(page);
      await until(page, `${theme.slug} compare: the webview in the theme`, async () => (await editorBackground(c)) === theme.background, 30_000);
      const compareRows = await c.locator('.compare-row').count();
      assert.ok(compareRows > 3, `compare rows: ${compareRows}`);
      const compareText = await c.evaluate(() => document.body.innerText);
      assert.match(compareText, /changed/, 'the compare summary counts changes');
      assert.ok(!compareText.includes(ESC_MARKER), 'no escape marker in the compare view');
      await shotWithBackdrop(c, 'compare');
    });
  }
});

// Issue 40's polish, in Chromium: an empty file's checks, a finding both modes report, the Filter button's focus.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { tempDir } from '../helpers/tmp';
import { corpusPath } from '../helpers/corpus';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const LUMEN = corpusPath('lumen/.lumen/trace/55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');

describe('viewer polish (issue 40, Chromium)', function () {
  this.timeout(240_000);
  const { view } = viewerSuite();

  it('an empty file: its checks read "empty", neutral (not a green "intact: 0 events"), in light, dark and high contrast', async () => {
    const file = join(tempDir(), 'empty.jsonl');
    writeFileSync(file, '');
    for (const theme of ['light', 'dark', 'hc'] as const) {
      const v = await view(file, { theme });
      v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
      await v.settle();
      const chips = await v.page.$$eval('.header-checks .check-chip', (cs: Any[]) => cs.map((c) => `${c.className}: ${c.textContent.trim()}`));
      assert.deepEqual(chips, ['check-chip neutral: empty: no events to check'], theme);
      const colors = await v.page.$eval('.header-checks .check-chip', (c: Any) => {
        const g = (globalThis as Any).getComputedStyle;
        return { chip: g(c).color, icon: g(c.querySelector('.codicon')).color, muted: g((globalThis as Any).document.body).getPropertyValue('--vscode-descriptionForeground').trim() };
      });
      assert.equal(colors.chip, colors.icon, 'the icon is not green');
      assert.ok(colors.muted.length > 0, 'the theme has a description colour');
      await v.screenshot(`polish-empty-checks-${theme}`);
    }
  });

  it('a finding both Verify and Check report (lumen/truncated of a cut file) is listed once in the Checks list', async () => {
    const lines = readFileSync(LUMEN, 'utf8').trimEnd().split('\n');
    const file = join(tempDir(), 'cut.jsonl');
    writeFileSync(file, lines.slice(0, -1).join('\n') + '\n' + lines[lines.length - 1].slice(0, 40));
    const v = await view(file);
    v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
    v.session.setCheckResults('check', await runChecks(v.model!, 'check'));
    await v.settle();
    await v.page.click('vscode-toolbar-button[label="Show Checks"]');
    await v.page.waitForSelector('.checks-panel:not([hidden]) .finding-item');
    const rules = await v.page.$$eval('.checks-list .finding-item .finding-rule', (es: Any[]) => es.map((e) => e.textContent));
    assert.equal(rules.filter((r: string) => r === 'lumen/truncated').length, 1, rules.join(', '));
    assert.ok(rules.includes('lumen/run-id-name'), 'conformance keeps its own findings');
    assert.match(await v.page.$eval('.checks-list', (e: Any) => e.textContent), /2 more listed under Verification\./);
    await v.screenshot('polish-checks-once');
  });

  it('the Filter button opens the filter with the caret in its expression box', async () => {
    const v = await view(LUMEN);
    await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
    await v.page.waitForSelector('.filter-bar:not([hidden])');
    await v.page.waitForFunction(() => (globalThis as Any).document.activeElement?.closest?.('.filter-box') != null);
    await v.page.keyboard.type('kind:');
    assert.equal(await v.page.$eval('.filter-box input', (e: Any) => e.value), 'kind:');
  });

  it('a file that cannot be shown: only Open as Text stays enabled in the toolbar, and a model enables the rest again', async () => {
    const v = await view(LUMEN);
    v.session.setError('Cannot read the trace: EACCES: permission denied', ['reload', 'openAsText']);
    await v.settle();
    const states = () => v.page.$$eval('.toolbar vscode-toolbar-button', (bs: Any[]) => bs.map((b) => `${b.getAttribute('label')}:${b.hasAttribute('disabled') ? 'off' : 'on'}`));
    const off = await states();
    assert.deepEqual(off.filter((x: string) => x.endsWith(':on')), ['Open as Text:on'], off.join(', '));
    await v.screenshot('polish-refusal-toolbar');
    await v.replaceModel(v.model!, 'ready', null);
    assert.ok((await states()).every((x: string) => x.endsWith(':on')));
  });
});

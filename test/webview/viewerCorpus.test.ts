import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { viewerSuite } from './harness';
import { CORPUS_ROOT } from '../helpers/corpus';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const CORPUS = CORPUS_ROOT;

/** Every trace file of the corpus (JSONL and JSON documents, not blobs). */
function corpusTraces(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'blobs') walk(p);
      } else if (/\.(jsonl|json)$/.test(e.name)) out.push(p);
    }
  };
  walk(CORPUS);
  return out.sort();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('trace viewer webview: corpus and themes (Chromium)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  it('opens every corpus trace as a readable tree with details', async () => {
    const files = corpusTraces();
    assert.ok(files.length >= 40, `corpus files found: ${files.length}`);
    const v = await view(SAMPLE, { format: 'generic' });
    const shots = new Set<string>(['murmur', 'deepstrike', 'harness-ledger', 'claude-code', 'otlp', 'lumen', 'agentledger', 'codex']);
    for (const file of files) {
      const model = await loadTrace(file);
      const since = v.received.length;
      await v.replaceModel(model, 'ready', null);
      await v.waitForHost('init', () => true, since);
      await v.settle();
      const header = await v.page.$eval('.header-facts', (e: Any) => e.textContent);
      assert.ok(header.includes(`${model.events.size.toLocaleString('en-US')} event`), `${file}: header counts ${model.events.size} events: ${header}`);
      assert.ok(header.includes(model.format), `${file}: header names the format ${model.format}`);
      const rows = await v.rowLabels();
      assert.ok(rows.length > 0 && rows.every((l) => l.length > 0), `${file}: rows have labels`);
      const last = await v.page.$$eval('.row[data-node]:not([hidden])', (rs: Any[]) => Number(rs[Math.min(rs.length - 1, 3)].dataset.node));
      await v.page.click(`.row[data-node="${last}"] .label`);
      const d = await v.waitForHost('detail', (m) => m.detail.node === last, since);
      await v.settle();
      assert.ok(d.detail.raw.length > 0 || model.document, `${file}: the raw line is shown`);
      assert.ok(d.detail.json !== null || model.document, `${file}: the event is parsed: ${d.detail.jsonError}`);
      assert.ok(await v.page.isVisible('.detail-title'), `${file}: details are shown`);
      const base = file.split('/').pop()!;
      if (shots.delete(model.format)) {
        if (d.detail.messages.length > 0) await v.page.click('vscode-tab-header[data-tab="content"]');
        await v.settle();
        await v.screenshot(`corpus-${model.format}-${base.replace(/\W+/g, '-')}`);
      }
    }
  });

  for (const theme of ['dark', 'light', 'hc'] as const) {
    it(`renders in the ${theme} theme (screenshot)`, async () => {
      const v = await view(SAMPLE, { format: 'generic', theme });
      v.session.setCheckResults('check', { file: SAMPLE, format: 'generic', ok: false, checked: 11, findings: [{ rule: 'generic/unknown-kind', severity: 'warning', line: 11, message: 'orphan is not a known event type' }] });
      await v.page.click('.row[data-line="3"] .label');
      await v.waitForHost('detail', (m) => m.detail.line === 3);
      await v.settle();
      await v.screenshot(`viewer-${theme}`);
      await v.page.click('.row[data-line="5"] .label');
      await v.waitForHost('detail', (m) => m.detail.line === 5);
      await v.page.click('vscode-toolbar-button[label="Show Checks"]');
      await v.page.click('vscode-tab-header[data-tab="json"]');
      await v.settle();
      await v.screenshot(`viewer-${theme}-json-checks`);
      const bg = await v.page.$eval('body', (b: Any) => (globalThis as Any).getComputedStyle(b).backgroundColor);
      assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the theme background applies');
    });
  }
});

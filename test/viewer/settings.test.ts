import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSetting, readSettings, SETTING_NAMES } from '../../src/viewer/settings';

const ROOT = join(__dirname, '..', '..');
const PROPERTIES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown; type: string }> } } }).contributes.configuration.properties;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourcesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('settings: one reader, with the manifest\'s defaults', () => {
  it('reads every agentTrace.* setting of package.json, unset, as its default there', () => {
    assert.deepEqual(SETTING_NAMES.map((n) => `agentTrace.${n}`).sort(), Object.keys(PROPERTIES).sort());
    const unset = readSettings(() => undefined);
    for (const [key, p] of Object.entries(PROPERTIES)) assert.deepEqual(unset[key.slice('agentTrace.'.length) as keyof typeof unset], p.default, key);
  });

  it('takes a value of the declared type and falls back to the default for any other', () => {
    const user: Record<string, unknown> = { maxFileSizeMB: 10, workers: 2.5, liveUpdates: 'no', blobRoots: ['b'], rules: ['x'], otlpEndpoint: 'http://collector:4318' };
    const s = readSettings((n) => user[n]);
    assert.equal(s.maxFileSizeMB, 10);
    assert.equal(s.workers, PROPERTIES['agentTrace.workers'].default, 'workers is an integer');
    assert.equal(s.liveUpdates, PROPERTIES['agentTrace.liveUpdates'].default);
    assert.deepEqual(s.blobRoots, ['b']);
    assert.deepEqual(s.rules, PROPERTIES['agentTrace.rules'].default, 'rules is an object');
    assert.equal(s.otlpEndpoint, 'http://collector:4318');
  });

  it('takes the proxies VS Code hands out for object settings (a clone of one threw and the extension did not activate)', () => {
    const rules = new Proxy({ 'lumen/cell-end': 'off' }, {});
    const pricing = new Proxy({ models: { m: { input: 1, output: 2 } } }, {});
    const roots = new Proxy(['/blobs'], {});
    const user: Record<string, unknown> = { rules, pricing, blobRoots: roots, otlpHeaders: new Proxy({ 'x-a': 'b' }, {}) };
    const s = readSettings((n) => user[n]);
    assert.deepEqual(s.rules, { 'lumen/cell-end': 'off' });
    assert.deepEqual(s.pricing, { models: { m: { input: 1, output: 2 } } });
    assert.deepEqual(s.blobRoots, ['/blobs']);
    assert.deepEqual(s.otlpHeaders, { 'x-a': 'b' });
  });

  it('hands out copies of array and object defaults', () => {
    readSetting(() => undefined, 'blobRoots').push('changed');
    assert.deepEqual(readSetting(() => undefined, 'blobRoots'), PROPERTIES['agentTrace.blobRoots'].default);
  });

  it('is the only reader: no other source asks VS Code for agentTrace settings or restates a default', () => {
    const others = sourcesUnder(join(ROOT, 'src')).filter((f) => !f.endsWith(join('vscode', 'settings.ts')));
    const asking = others.filter((f) => /getConfiguration\(\s*'agentTrace'|get<[^>]*>\('(maxFileSizeMB|workers|liveUpdates|expandAllMaxEvents|blobRoots|pricing|rules|checkOnOpen|checkOnOpenMaxMB|otlpEndpoint|otlpHeaders)'/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(asking.map((f) => f.slice(ROOT.length + 1)), []);
  });
});

// Untrusted workspaces (issue 41 a): a cloned repository's workspace settings must not steer where spans are sent,
// with which headers, where blobs are read from or what models cost while VS Code is in Restricted Mode.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fake, grantTrust, installFakeVscode, Uri } from '../helpers/fakeVscode';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { setting, blobSettings } = require('../../src/vscode/settings') as typeof import('../../src/vscode/settings');
const { watchPricingSetting } = require('../../src/vscode/pricingSetting') as typeof import('../../src/vscode/pricingSetting');
const { viewerPricing, setViewerPricing } = require('../../src/viewer/pricing') as typeof import('../../src/viewer/pricing');
const { RESTRICTED_SETTINGS, SETTING_NAMES } = require('../../src/viewer/settings') as typeof import('../../src/viewer/settings');

const WORKSPACE = { otlpEndpoint: 'https://collector.evil.example', otlpHeaders: { authorization: 'from-the-repo' }, blobRoots: ['/etc'], pricing: { 'repo-model': { input: 1, output: 2 } }, maxFileSizeMB: 7 };

describe('settings in an untrusted workspace', () => {
  const saved = { config: { ...fake.config }, user: { ...fake.userConfig }, trusted: fake.trusted };
  beforeEach(() => {
    Object.assign(fake.config, WORKSPACE);
    fake.userConfig = {};
  });
  afterEach(() => {
    fake.config = { ...saved.config };
    fake.userConfig = { ...saved.user };
    fake.trusted = saved.trusted;
    setViewerPricing({});
  });

  it('a trusted workspace sets every setting', () => {
    fake.trusted = true;
    assert.equal(setting('otlpEndpoint'), 'https://collector.evil.example');
    assert.deepEqual(setting('otlpHeaders'), { authorization: 'from-the-repo' });
    assert.deepEqual(setting('blobRoots'), ['/etc']);
    assert.deepEqual(setting('pricing'), WORKSPACE.pricing);
  });

  it('in Restricted Mode the OTLP endpoint and headers, blob roots and prices come from the user settings or the defaults only', () => {
    fake.trusted = false;
    fake.userConfig = { otlpEndpoint: 'http://my-collector:4318' };
    assert.equal(setting('otlpEndpoint'), 'http://my-collector:4318');
    assert.deepEqual(setting('otlpHeaders'), {});
    assert.deepEqual(setting('blobRoots'), []);
    assert.deepEqual(blobSettings().extraRoots, []);
    assert.deepEqual(setting('pricing'), {});
    // Settings that cannot send or read anything elsewhere still follow the workspace.
    assert.equal(setting('maxFileSizeMB'), 7);
  });

  it('prices a workspace sets count once the workspace is trusted, not before', () => {
    fake.trusted = false;
    fake.userConfig = { pricing: { 'my-model': { input: 3, output: 4 } } };
    const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')) };
    watchPricingSetting(context as never);
    assert.deepEqual(Object.keys(viewerPricing()), ['my-model']);
    grantTrust();
    assert.deepEqual(Object.keys(viewerPricing()), ['repo-model']);
    for (const d of context.subscriptions) d.dispose();
  });

  it("package.json declares limited support and restricts exactly the settings the reader restricts", () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.ok(typeof untrusted.description === 'string' && untrusted.description.length > 0);
    assert.deepEqual([...untrusted.restrictedConfigurations].sort(), RESTRICTED_SETTINGS.map((n) => `agentTrace.${n}`).sort());
    for (const n of RESTRICTED_SETTINGS) assert.ok(SETTING_NAMES.includes(n), n);
  });
});

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { FORMAT_NAMES, FORMATS } from '../../../src/core/formats';
import { summarizeResult } from '../../../src/viewer/findingsState';

describe('what verification can and cannot prove', () => {
  it('is stated for every format, with its limits', () => {
    for (const f of FORMAT_NAMES) assert.match(FORMATS[f].verificationScope, /(Cannot|cannot|not detectable|no hash chain|nothing about|not forgery|verifies)/, f);
    assert.match(FORMATS.lumen.verificationScope, /rewritten from the first line with recomputed hashes verifies/);
  });

  it('goes with verification results to the viewer, not with conformance results', () => {
    const r = { file: 'x', format: 'lumen' as const, ok: true, checked: 3, findings: [] };
    assert.equal(summarizeResult('verify', r).scope, FORMATS.lumen.verificationScope);
    assert.equal(summarizeResult('check', r).scope, undefined);
  });

  it('is printed by agent-trace verify (text output) but not in --json', () => {
    const text = spawnSync(process.execPath, ['dist/cli.js', 'verify', 'samples/murmur'], { encoding: 'utf8' }).stdout;
    assert.ok(text.includes(FORMATS.murmur.verificationScope), text.slice(0, 300));
    const json = spawnSync(process.execPath, ['dist/cli.js', 'verify', '--json', 'samples/murmur'], { encoding: 'utf8' }).stdout;
    assert.ok(!json.includes('parent_id names an earlier event, event ids are unique'));
  });
});

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { VERIFICATION_SCOPE } from '../../../src/core/checks/verificationScope';
import { FORMAT_NAMES } from '../../../src/core/model';
import { summarizeResult } from '../../../src/viewer/findingsState';

describe('what verification can and cannot prove', () => {
  it('is stated for every format, with its limits', () => {
    for (const f of FORMAT_NAMES) assert.match(VERIFICATION_SCOPE[f], /(Cannot|cannot|not detectable|no hash chain|nothing about|not forgery|verifies)/, f);
    assert.match(VERIFICATION_SCOPE.lumen, /rewritten from the first line with recomputed hashes verifies/);
  });

  it('goes with verification results to the viewer, not with conformance results', () => {
    const r = { file: 'x', format: 'lumen' as const, ok: true, checked: 3, findings: [] };
    assert.equal(summarizeResult('verify', r).scope, VERIFICATION_SCOPE.lumen);
    assert.equal(summarizeResult('check', r).scope, undefined);
  });

  it('is printed by agent-trace verify (text output) but not in --json', () => {
    const text = spawnSync(process.execPath, ['dist/cli.js', 'verify', 'samples/murmur'], { encoding: 'utf8' }).stdout;
    assert.ok(text.includes(VERIFICATION_SCOPE.murmur), text.slice(0, 300));
    const json = spawnSync(process.execPath, ['dist/cli.js', 'verify', '--json', 'samples/murmur'], { encoding: 'utf8' }).stdout;
    assert.ok(!json.includes('parent_id names an earlier event, event ids are unique'));
  });
});

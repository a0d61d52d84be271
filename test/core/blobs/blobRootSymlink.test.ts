import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBlob } from '../../../src/core/blobStore/formatBlobs';
import { loadTrace } from '../../../src/core/loadTrace';
import { runChecks } from '../../../src/core/formatRules';
import { HashRef } from '../../../src/core/model';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ref = (digest: string): HashRef => ({ field: 'system_sha', digest, algorithm: 'sha256', raw: digest });

describe('blob roots are realpath-checked like blob files (issue 19 item 7)', () => {
  const base = mkdtempSync(join(tmpdir(), 'blobroot-'));
  const secret = join(base, 'elsewhere');
  const session = join(base, 'session');
  const trace = join(session, 'trace.jsonl');
  const d = sha256('secret text');
  mkdirSync(secret);
  mkdirSync(session);
  writeFileSync(join(secret, d), 'secret text');
  symlinkSync(secret, join(session, 'blobs'));
  writeFileSync(trace, JSON.stringify({ type: 'session', id: 's', system_sha: d, ts: 1 }) + '\n');

  it('refuses a blobs/ folder that is a symbolic link leading outside the trace folder, and says so', async () => {
    const r = await resolveBlob(ref(d), { tracePath: trace, format: 'murmur' });
    assert.equal(r.status, 'rejected');
    assert.match(r.message, /blob folder blobs is a symbolic link leading outside the trace's folder/);
    assert.equal(r.realPath, undefined, 'nothing was read');
  });

  it('the same folder configured as a blob root by the user is trusted', async () => {
    const r = await resolveBlob(ref(d), { tracePath: trace, format: 'murmur', extraRoots: [secret] });
    assert.equal(r.status, 'verified');
  });

  it('verify reports the refusal as a finding at the referencing line', async () => {
    const model = await loadTrace(trace, { format: 'murmur' });
    const result = await runChecks(model, 'verify');
    const f = result.findings.find((x) => /symbolic link leading outside/.test(x.message));
    assert.ok(f, JSON.stringify(result.findings));
    assert.equal(f.line, 1);
  });
});

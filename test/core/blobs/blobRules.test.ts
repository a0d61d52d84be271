import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sharedBlobHashCache } from '../../../src/core/blobs/blobHashing';
import { BLOB_RULES, blobRules } from '../../../src/core/checks/blobRules';
import { runChecks } from '../../../src/core/formatRules';
import { loadTrace } from '../../../src/core/loadTrace';
import { Finding, FormatName } from '../../../src/core/model';
import { corpusPath } from '../../helpers/corpus';

const MURMUR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
const AGENTLEDGER = corpusPath('agentledger');
const SYSTEM = '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f';
const MESSAGE0 = 'a541255ba83f1a60aca6694511e5a9d9711c28557163223a615ebe4ca54863ed';
const RESPONSE1 = '19374ad7febf105acb1c66d185a4378b3eaf0de9d141219481855822330d46e4';
const sha256 = (b: string) => createHash('sha256').update(b).digest('hex');

/** Blob findings of `agent-trace verify` on a file. */
async function blobFindings(path: string, format?: FormatName): Promise<{ findings: Finding[]; ok: boolean; format: string }> {
  const model = await loadTrace(path, format ? { format } : {});
  const result = await runChecks(model, 'verify');
  return { findings: result.findings.filter((f) => f.rule.startsWith('blob/')), ok: result.ok, format: model.format };
}
const brief = (fs: Finding[]) => fs.map((f) => `${f.rule} ${f.severity} ${f.line}`);

/** A writable copy of a corpus folder in a temp dir. */
function copy(from: string, into: string): string {
  cpSync(from, into, { recursive: true });
  const fix = (p: string) => {
    chmodSync(p, 0o755);
    for (const e of readdirSync(p, { withFileTypes: true })) e.isDirectory() ? fix(join(p, e.name)) : chmodSync(join(p, e.name), 0o644);
  };
  fix(into);
  return into;
}

describe('blob rules: catalog', () => {
  it('declares unique blob/* verify rules with explanations', () => {
    const ids = BLOB_RULES.map((r) => r.id);
    assert.deepEqual(ids, ['blob/mismatch', 'blob/missing', 'blob/unreadable', 'blob/rejected-reference', 'blob/unverifiable', 'blob/no-store', 'blob/orphan']);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of BLOB_RULES) assert.ok(r.mode === 'verify' && r.format === 'generic' && r.explanation.length > 40, r.id);
    assert.equal(blobRules.format, 'generic');
  });
});

describe('blob rules: corpus traces are clean', () => {
  it('murmur session: all 7 blobs verify, no blob findings', async () => {
    const r = await blobFindings(join(MURMUR, 'trace.jsonl'));
    assert.equal(r.format, 'murmur');
    assert.deepEqual(r.findings, []);
  });
  it('agentledger OTLP exports: blob:// refs in span attributes verify', async () => {
    for (const run of ['approval-denied', 'approval-granted', 'budget-exceeded', 'cancelled', 'side-effect-idempotency']) {
      const r = await blobFindings(join(AGENTLEDGER, run, 'trace.otlp.json'));
      assert.deepEqual(r.findings, [], run);
    }
  });
});

describe('blob rules: mutations (temp copies)', () => {
  let dir: string;
  let session: string;
  let trace: string;
  beforeEach(() => {
    sharedBlobHashCache.clear();
    dir = mkdtempSync(join(tmpdir(), 'blob-rules-'));
    session = copy(MURMUR, join(dir, 'session'));
    trace = join(session, 'trace.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a tampered blob is a mismatch at the line of EACH event that references it', async () => {
    writeFileSync(join(session, 'blobs', SYSTEM), 'Be terse!');
    const r = await blobFindings(trace);
    // session_start (system_prompt_sha256) and both inferences (system_sha) name the system prompt blob.
    assert.deepEqual(brief(r.findings), ['blob/mismatch error 1', 'blob/mismatch error 3', 'blob/mismatch error 5']);
    assert.equal(r.ok, false);
    for (const f of r.findings) {
      assert.ok(f.message.includes(`expected SHA-256 of the file bytes ${SYSTEM}, actual ${sha256('Be terse!')}`), f.message);
      assert.match(f.eventId ?? '', /^evt_[0-9a-f]{32}$/);
    }
    assert.match(r.findings[0].message, /\(system_prompt_sha256\)/);
    assert.match(r.findings[1].message, /\(system_sha\)/);
  });

  it('a truncated message blob shared by two inferences is reported on both', async () => {
    truncateSync(join(session, 'blobs', MESSAGE0), 10);
    const r = await blobFindings(trace);
    assert.deepEqual(brief(r.findings), ['blob/mismatch error 3', 'blob/mismatch error 5']);
    assert.match(r.findings[0].message, /\(message_shas\[0\]\)/);
  });

  it('a missing blob under content capture is an error at its event', async () => {
    rmSync(join(session, 'blobs', RESPONSE1));
    const r = await blobFindings(trace);
    assert.deepEqual(brief(r.findings), ['blob/missing error 5']);
    // The cause first, the 64-hex name after (Problems and notifications cut long messages).
    assert.match(r.findings[0].message, new RegExp(`^Missing blob \\(response_sha\\): not in blobs/; digest ${RESPONSE1}\\.$`));
  });

  it('meta capture (no blobs/, no tool output): one info, not an error', async () => {
    rmSync(join(session, 'blobs'), { recursive: true });
    const lines = readFileSync(trace, 'utf8').split('\n');
    const call = JSON.parse(lines[3]);
    delete call.output;
    lines[3] = JSON.stringify(call);
    writeFileSync(trace, lines.join('\n'));
    const r = await blobFindings(trace);
    assert.deepEqual(brief(r.findings), ['blob/no-store info 1']);
    assert.match(r.findings[0].message, /^7 referenced blob\(s\) cannot be shown: .*meta or none/);
  });

  it('content capture (tool output) without blobs/: every referenced blob is missing', async () => {
    rmSync(join(session, 'blobs'), { recursive: true });
    const r = await blobFindings(trace);
    const lines = r.findings.map((f) => f.line);
    assert.ok(r.findings.every((f) => f.rule === 'blob/missing' && f.severity === 'error'));
    // line 1: prompt; line 3: system, tools, response, message 0; line 5: system, tools, response, 3 messages.
    assert.deepEqual([lines.filter((l) => l === 1).length, lines.filter((l) => l === 3).length, lines.filter((l) => l === 5).length], [1, 4, 6]);
  });

  it('an orphan blob is reported as info and rehashed', async () => {
    writeFileSync(join(session, 'blobs', sha256('left over')), 'left over');
    writeFileSync(join(session, 'blobs', sha256('other')), 'tampered');
    writeFileSync(join(session, 'blobs', 'not-a-digest.tmp'), 'x');
    const r = await blobFindings(trace);
    assert.deepEqual(brief(r.findings).sort(), ['blob/mismatch error 1', 'blob/orphan info 1', 'blob/orphan info 1']);
  });

  it('a blob that is a symlink outside the store is refused at each referencing event', async () => {
    writeFileSync(join(dir, 'elsewhere'), 'Be terse.');
    rmSync(join(session, 'blobs', SYSTEM));
    symlinkSync(join(dir, 'elsewhere'), join(session, 'blobs', SYSTEM));
    const r = await blobFindings(trace);
    assert.deepEqual(brief(r.findings), ['blob/rejected-reference error 1', 'blob/rejected-reference error 3', 'blob/rejected-reference error 5']);
    assert.match(r.findings[0].message, /leads outside the blob root/);
  });

  it('generic traces: blob:// refs are verified, unsafe ones rejected, unknown names unverifiable', async () => {
    const g = join(dir, 'g');
    mkdirSync(join(g, 'blobs/sha256'), { recursive: true });
    const name = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';
    cpSync(join(AGENTLEDGER, 'side-effect-idempotency/blobs/sha256', `${name}.json`), join(g, 'blobs/sha256', `${name}.json`));
    const path = join(g, 'log.jsonl');
    writeFileSync(path, [
      { type: 'call', ref: `blob://sha256/${name}.json` },
      { type: 'call', ref: 'blob://sha256/../../../etc/passwd.json' },
      { type: 'call', ref: 'blob://sha256/chunk-7.json' },
      { type: 'call', ref: `blob://sha256/${sha256('gone')}.json` },
    ].map((o) => JSON.stringify(o)).join('\n') + '\n');
    const r = await blobFindings(path, 'generic');
    assert.deepEqual(brief(r.findings), ['blob/rejected-reference error 2', 'blob/unverifiable info 3', 'blob/missing warning 4']);
    writeFileSync(join(g, 'blobs/sha256', `${name}.json`), '{"tool": "github.create_issue"}');
    sharedBlobHashCache.clear();
    const t = await blobFindings(path, 'generic');
    assert.deepEqual(brief(t.findings), ['blob/mismatch error 1', 'blob/rejected-reference error 2', 'blob/unverifiable info 3', 'blob/missing warning 4']);
  });

  it('agentledger OTLP document: a tampered blob is reported at the line of the span that names it', async () => {
    const run = copy(join(AGENTLEDGER, 'cancelled'), join(dir, 'cancelled'));
    const name = '753e831518d1c9b9d828a040ca2c6efe3b6baa34fa35add8734f1a5be4927f07';
    writeFileSync(join(run, 'blobs/sha256', `${name}.json`), '{"tampered": true}');
    const r = await blobFindings(join(run, 'trace.otlp.json'));
    // One finding for the span, naming both attributes that hold the digest (payload_hash and payload_ref).
    assert.equal(r.findings.length, 1, JSON.stringify(r.findings));
    const f = r.findings[0];
    assert.equal(f.rule, 'blob/mismatch');
    assert.match(f.message, /^Blob content does not match its name, tampered or truncated \(attributes\.agentledger\.payload_hash, attributes\.agentledger\.payload_ref\): expected SHA-256 of the canonical JSON 753e8315/);
    assert.equal(f.seq, 8);
    const text = readFileSync(join(run, 'trace.otlp.json'), 'utf8').split('\n');
    assert.ok(f.line > 1 && f.line <= text.length);
  });

  it('agentledger event files: the agentledger rules verify their blobs, this module stays out', async () => {
    const run = copy(join(AGENTLEDGER, 'side-effect-idempotency'), join(dir, 'sei'));
    writeFileSync(join(run, 'blobs/sha256/3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9.json'), '{}');
    const r = await blobFindings(join(run, 'events.jsonl'));
    assert.equal(r.format, 'agentledger');
    assert.deepEqual(r.findings, []);
  });
});

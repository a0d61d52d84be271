import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerBlobs } from '../../../../src/core/formats/agentledger/evidence';
import { fnv1a64HexOfText } from '../../../../src/core/digests';
import { agentledgerAdapter } from '../../../../src/core/formats/agentledger/adapter';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { cleanup, editLine, findings, FIXTURES, readLines, writeLines } from './agentledgerTestUtil';

function parents(m: TraceModel): (number | null)[] {
  const t = m.events;
  return Array.from({ length: t.size }, (_, i) => (t.parent(i) >= 0 ? t.lineOf(t.parent(i)) : null));
}

/** A temp copy of a fixture, mutated, then checked. */
async function after(fixture: string, mode: 'verify' | 'check', mutate: (path: string) => void): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentledger-rust-'));
  try {
    const path = join(dir, fixture);
    copyFileSync(join(FIXTURES, fixture), path);
    mutate(path);
    return await findings(path, mode);
  } finally {
    cleanup(dir);
  }
}

describe('agentledger Rust dialect: records (§4.1 JSON form)', () => {
  it('the §11 records: FNV payload hashes and format_state refs verify; only the excerpt\'s seq gaps show', async () => {
    const path = join(FIXTURES, 'rust-doc-records.jsonl');
    const m = await loadTrace(path);
    assert.equal(m.format, 'agentledger');
    assert.match(m.detection.reason, /Rust event records/);
    assert.deepEqual(parents(m), [null, 1, null]);
    assert.equal(m.events.labelOf(2), 'sandbox_completed failed: sandbox executor "default" is disabled');
    assert.equal(m.events.statusOf(2), 'error');
    assert.deepEqual(m.events.hashRefsOf(0).map((r) => [r.digest, r.algorithm]), [['ffab2995c2703059', 'fnv1a64']]);
    assert.deepEqual(await findings(path, 'verify'), ['replay-digest@1', 'seq-contiguous@2', 'seq-contiguous@3']);
    assert.deepEqual(await findings(path, 'check'), ['bundle-missing@1', 'call-order@3']);
  });

  it('a whole Rust run: tree, totals, clean verify and check', async () => {
    const path = join(FIXTURES, 'rust-run.jsonl');
    const m = await loadTrace(path);
    assert.equal(m.events.size, 13);
    assert.deepEqual(parents(m), [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 8, 3, 3]);
    assert.equal(m.events.labelOf(4), 'model_call_completed mock-model 10→5 tokens $0.01');
    assert.equal(m.events.labelOf(6), 'cost_recorded model mock-model $0.01');
    assert.deepEqual(m.formatTotals, { inputTokens: 10, outputTokens: 5, toolCalls: 1, errors: 0, totalTokens: 15, modelTokens: 15, costUsd: 0.01, costedToolCalls: 1 });
    assert.deepEqual(await findings(path, 'verify'), ['replay-digest@1']);
    assert.deepEqual(await findings(path, 'check'), ['bundle-missing@1']);
  });

  it('payload_ref edits fail payload-hash; payload edits fail payload-ref-canonical; hash edits fail payload-hash', async () => {
    assert.deepEqual(await after('rust-run.jsonl', 'verify', (p) => editLine(p, 8, '"payload_ref":"args={title=\\"runtime parity\\"}', '"payload_ref":"args={title=\\"runtime parody\\"}')), [
      'replay-digest@1', 'payload-hash@8', 'payload-ref-canonical@8',
    ]);
    assert.deepEqual(await after('rust-run.jsonl', 'verify', (p) => editLine(p, 8, '"payload":{"tool":"github.create_pr","args":{"title":"runtime parity"}}', '"payload":{"tool":"github.create_pr","args":{"title":"runtime parody"}}')), [
      'replay-digest@1', 'payload-ref-canonical@8',
    ]);
    assert.deepEqual(await after('rust-run.jsonl', 'verify', (p) => editLine(p, 8, '"payload_hash":"9a97f820afd2ef72"', '"payload_hash":"9a97f820afd2ef73"')), ['replay-digest@1', 'payload-hash@8']);
  });

  it('the "sha256:" label on a 16-hex digest is FNV-1a, verified as such', async () => {
    assert.deepEqual(await after('rust-run.jsonl', 'verify', (p) => editLine(p, 8, '"payload_hash":"9a97f820afd2ef72"', '"payload_hash":"sha256:9a97f820afd2ef72"')), ['replay-digest@1']);
  });

  it('step-id-null and causal-token follow the Rust rules', async () => {
    assert.deepEqual(await after('rust-run.jsonl', 'check', (p) => editLine(p, 1, '"step_id":null', '"step_id":"step_0000000000000003"')), ['bundle-missing@1', 'step-id-null@1']);
    assert.deepEqual(await after('rust-run.jsonl', 'check', (p) => editLine(p, 2, '"step_id":"step_0000000000000003"', '"step_id":null')), ['bundle-missing@1', 'step-id-null@2']);
    const out = await after('rust-run.jsonl', 'check', (p) => editLine(p, 9, '"state_version":0', '"state_version":4'));
    assert.deepEqual(out, ['bundle-missing@1', 'causal-token@9']);
  });
});

describe('agentledger Rust dialect: trace_jsonl spans (§6.2)', () => {
  it('the §11 span lines: derived tree, the excerpt\'s gaps are span-seq warnings', async () => {
    const path = join(FIXTURES, 'rust-doc-trace.jsonl');
    const m = await loadTrace(path);
    assert.equal(m.format, 'agentledger');
    assert.match(m.detection.reason, /Rust trace_jsonl/);
    assert.deepEqual(parents(m), [null, 1, 2, 3, 2, 1, 1]);
    assert.deepEqual(await findings(path, 'verify'), ['replay-digest@1', 'span-seq@3', 'span-seq@4', 'span-seq@5']);
  });

  it('a whole Rust run as spans, with a media span last', async () => {
    const path = join(FIXTURES, 'rust-run.trace.jsonl');
    const m = await loadTrace(path);
    assert.deepEqual(parents(m), [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 8, 3, 3, 1]);
    assert.deepEqual(await findings(path, 'verify'), ['replay-digest@1']);
    assert.deepEqual(await findings(path, 'check'), ['bundle-missing@1']);
  });

  it('an unescaped quote in a name breaks the line (line-json); swapped spans are span-seq', async () => {
    const broken = await after('rust-run.trace.jsonl', 'verify', (p) => {
      const l = readLines(p);
      l.splice(13, 0, '{"trace_id":"run_0000000000000001","span_id":"evt-000014","name":"my"odd"type"}');
      writeLines(p, l);
    });
    assert.deepEqual(broken, ['replay-digest@1', 'line-json@14']);
    const swapped = await after('rust-run.trace.jsonl', 'verify', (p) => {
      const l = readLines(p);
      [l[4], l[5]] = [l[5], l[4]];
      writeLines(p, l);
    });
    assert.deepEqual(swapped, ['replay-digest@1', 'span-seq@5', 'span-seq@6']);
  });
});

describe('agentledger detection boundaries', () => {
  it('never claims murmur lines (32-hex evt ids, parent_id), even with payload fields', () => {
    const murmur = { event_type: 'inference', event_id: `evt_${'a'.repeat(32)}`, parent_id: null, session_id: 'ses_1', timestamp: 1, run_id: 'r', payload_hash: 'ffab2995c2703059', payload_ref: 'x' };
    assert.equal(agentledgerAdapter.sniff({ values: [murmur], fileName: 'trace.jsonl', path: 'x/trace.jsonl', document: false }).confidence, 0);
    const otlp = { resourceSpans: [] };
    assert.equal(agentledgerAdapter.sniff({ values: [otlp], fileName: 'trace.otlp.json', path: 'trace.otlp.json', document: true }).confidence, 0);
    const spanLike = { trace_id: 't', span_id: 'abc', name: 'x' };
    assert.equal(agentledgerAdapter.sniff({ values: [spanLike], fileName: 'a.jsonl', path: 'a.jsonl', document: false }).confidence, 0);
  });
});

describe('agentledger Rust blob store (§7.3, §7.6)', () => {
  it('verifies encode_value bodies by FNV-1a of the text and decodes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentledger-rustblobs-'));
    try {
      mkdirSync(join(dir, 'sha256'));
      writeFileSync(join(dir, 'sha256', '5f69a69b069b5ed5.json'), 'O1:68656c6c6f:O1:6e6573746564:S776f726c64:');
      writeFileSync(join(dir, 'sha256', '0000000000000000.json'), 'O1:68656c6c6f:S776f726c64');
      writeFileSync(join(dir, 'sha256', 'chunk-7.json'), 'Z');
      const store = new LedgerBlobs(join(dir, 'events.jsonl'));
      const good = await store.status('blob://sha256/5f69a69b069b5ed5.json');
      assert.ok(good.state === 'checked' && good.ok && good.decodeError === null);
      const bad = await store.status('blob://sha256/0000000000000000.json');
      assert.ok(bad.state === 'checked' && !bad.ok && bad.decodeError === 'missing encoded value delimiter', JSON.stringify(bad));
      assert.equal((await store.status('blob://sha256/chunk-7.json')).state, 'unverifiable');
      assert.equal((await store.status('blob://sha256/1111111111111111.json')).state, 'missing');
    } finally {
      cleanup(dir);
    }
  });
});

describe('agentledger Rust evidence bundle (§8.1: counts-only bundle hash, FNV ledger hashes)', () => {
  /** A Rust-form bundle for rust-run.jsonl: one step, its 13 events, one ledger row, three costs. */
  function rustBundle(edit: (b: Record<string, any>) => void = () => undefined): string {
    const events = readLines(join(FIXTURES, 'rust-run.jsonl')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const run = 'run_0000000000000001';
    const step = 'step_0000000000000003';
    const b: Record<string, any> = {
      schema_version: 'agentledger.evidence.v1',
      bundle_hash: fnv1a64HexOfText(`${run}:1:13:1:3`),
      run: { run_id: run, status: 'completed' },
      steps: [{ step_id: step, run_id: run, status: 'completed', attempt: 1 }],
      events,
      tool_ledger: [{
        ledger_id: 'ledger_0000000000000010', run_id: run, step_id: step, tool_name: 'github.create_pr', causal_token: `${run}:${step}:1:0`,
        request_hash: '9a97f820afd2ef72', request_ref: 'args={title="runtime parity"},tool="github.create_pr"',
        idempotency_key: `${run}:${step}:github.create_pr:9a97f820afd2ef72`, status: 'SUCCEEDED',
        response_ref: '{external_id="pr-123",title="runtime parity"}', response_hash: '85fe88abee94c116',
      }],
      approvals: [],
      artifacts: [{ artifact_id: 'art_1', blob_ref: '', blob_hash: 'sha256:cbf29ce484222325', name: 'empty' }],
      media_artifacts: [],
      stream_checkpoints: [],
      cost_records: [{}, {}, {}],
    };
    edit(b);
    return JSON.stringify(b);
  }

  async function verifyWith(bundle: string, mode: 'verify' | 'check' = 'verify'): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'agentledger-rustbundle-'));
    try {
      copyFileSync(join(FIXTURES, 'rust-run.jsonl'), join(dir, 'rust-run.jsonl'));
      writeFileSync(join(dir, 'bundle.json'), bundle);
      return await findings(join(dir, 'rust-run.jsonl'), mode);
    } finally {
      cleanup(dir);
    }
  }

  it('verifies clean: counts-only bundle hash, ledger hashes, idempotency key, event link, empty artifact hash', async () => {
    assert.deepEqual(await verifyWith(rustBundle()), []);
    // Review #7 fails for empty-content artifacts by design (§9.1).
    assert.deepEqual(await verifyWith(rustBundle(), 'check'), ['review-artifacts-have-blob-refs@1']);
  });

  it('breaks where the Rust hashes break', async () => {
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.cost_records = [{}]))), ['bundle-hash@1']);
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.tool_ledger[0].response_hash = '85fe88abee94c117'))), ['ledger-response-hash@8']);
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.tool_ledger[0].idempotency_key = 'x'))), ['idempotency-key@8']);
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.tool_ledger[0].request_ref = 'tool="other"'))), ['ledger-request-hash@8']);
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.artifacts[0].blob_hash = 'sha256:0000000000000000'))), ['artifact-blob-hash@1']);
    assert.deepEqual(await verifyWith(rustBundle((b) => (b.events[4].payload_hash = 'ffffffffffffffff'))), ['bundle-events@5']);
  });
});

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative as relativePath } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace } from '../../../../src/core/loadTrace';
import type { Finding } from '../../../../src/core/model';
import { streamChecks } from '../../../../src/core/stream/streamChecks';
import { sha256Hex } from '../../../../src/core/digests';
import { canonicalJson, parseRawJson, rawWithout } from '../../../../src/core/json/pythonRawJson';
import { cleanup, copyRun, CORPUS, editBundle, editLine, findingObjects, findings, readLines, writeLines } from './agentledgerTestUtil';

const ISSUE_REQ = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';
const ISSUE_RESP = 'c8230f77e6cb66651d961486439297fd81f9ec230d275374dcc36339e493925b';

/** Verify findings of the run's events.jsonl after `mutate` changed the copied directory. */
async function verifyAfter(run: string, mutate: (dir: string, events: string) => void, file = 'events.jsonl'): Promise<string[]> {
  const dir = copyRun(run);
  try {
    mutate(dir, join(dir, 'events.jsonl'));
    return await findings(join(dir, file), 'verify');
  } finally {
    cleanup(dir);
  }
}

describe('agentledger verify: payloads', () => {
  it('an edited blob-backed payload is a payload-hash error at that line (canonical SHA-256)', async () => {
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (_, ev) => editLine(ev, 5, '"title": "Crash recovery bug"}', '"title": "Crash recovery bug!"}')), ['payload-hash@5']);
  });

  it('a payload_hash that names another digest is a payload-hash error, and the bundle differs there', async () => {
    assert.deepEqual(
      await verifyAfter('side-effect-idempotency', (_, ev) => editLine(ev, 7, `"payload_hash": "sha256:${ISSUE_RESP}"`, `"payload_hash": "sha256:${ISSUE_REQ}"`)),
      ['bundle-events@7', 'payload-hash@7'],
    );
  });

  it('an edited inline payload disagrees with its payload_ref (payload-ref-canonical)', async () => {
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (_, ev) => editLine(ev, 12, '"payload": {"patch": {"crashed_once": true}', '"payload": {"patch": {"crashed_once": false}')), ['payload-ref-canonical@12']);
  });

  it('a consistently edited inline row is caught against bundle.json', async () => {
    assert.deepEqual(
      await verifyAfter('side-effect-idempotency', (_, ev) => {
        editLine(ev, 12, '"payload": {"patch": {"crashed_once": true}', '"payload": {"patch": {"crashed_once": false}');
        editLine(ev, 12, '{\\"patch\\": {\\"crashed_once\\": true}', '{\\"patch\\": {\\"crashed_once\\": false}');
      }),
      ['bundle-events@12'],
    );
  });

  it('digests of unknown length are reported as unverifiable (hash-algorithm)', async () => {
    const dir = copyRun('side-effect-idempotency');
    try {
      editLine(join(dir, 'events.jsonl'), 5, `"payload_hash": "sha256:${ISSUE_REQ}"`, '"payload_hash": "sha256:abc123"');
      const fs = await findingObjects(join(dir, 'events.jsonl'), 'verify');
      // The ledger row's request hash no longer matches the event carrying its causal token.
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), ['agentledger/bundle-events@5:warning', 'agentledger/hash-algorithm@5:info', 'agentledger/ledger-event-link@5:warning']);
    } finally {
      cleanup(dir);
    }
  });

  it('a blob ref that escapes the store is refused (blob-ref-syntax)', async () => {
    const out = await verifyAfter('side-effect-idempotency', (_, ev) => editLine(ev, 5, `"payload_ref": "blob://sha256/${ISSUE_REQ}.json"`, '"payload_ref": "blob://sha256/../../etc/passwd.json"'));
    assert.ok(out.includes('blob-ref-syntax@5'), out.join());
  });

  it('prev_hash fields get the no-chain note, once', async () => {
    assert.deepEqual(
      await verifyAfter('side-effect-idempotency', (_, ev) => {
        editLine(ev, 3, '{"agent_role": null,', '{"agent_role": null, "prev_hash": "x",');
        editLine(ev, 4, '{"agent_role": ', '{"prev_hash": "y", "agent_role": ');
      }),
      ['no-chain@3'],
    );
  });
});

describe('agentledger verify: sequence and lines', () => {
  it('a deleted line is a seq gap at the next line and a bundle difference', async () => {
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (_, ev) => writeLines(ev, readLines(ev).filter((_, i) => i !== 15))), ['bundle-events@16', 'seq-contiguous@16']);
  });

  it('swapped lines are two seq findings, not one per later line', async () => {
    const out = await verifyAfter('side-effect-idempotency', (_, ev) => {
      const l = readLines(ev);
      [l[14], l[15]] = [l[15], l[14]];
      writeLines(ev, l);
    });
    assert.deepEqual(out, ['seq-contiguous@15', 'seq-contiguous@16']);
  });

  it('a duplicated line repeats a seq and an event id', async () => {
    const out = await verifyAfter('cancelled', (_, ev) => {
      const l = readLines(ev);
      l.splice(9, 0, l[9]);
      writeLines(ev, l);
    });
    assert.deepEqual(out, ['seq-contiguous@11', 'tree/duplicate-id@11']);
  });

  it('a broken line is agentledger/line-json (not the generic parse rule)', async () => {
    const out = await verifyAfter('cancelled', (_, ev) => {
      const l = readLines(ev);
      l[7] = l[7].slice(0, 40);
      writeLines(ev, l);
    });
    assert.ok(out.includes('line-json@8') && !out.some((x) => x.startsWith('parse/invalid-json')), out.join());
    assert.ok(out.includes('seq-contiguous@9'));
  });

  it('Python spans: agentledger.seq must match the span number, media spans come last', async () => {
    assert.deepEqual(await verifyAfter('cancelled', (d) => editLine(join(d, 'trace.jsonl'), 6, '"agentledger.seq": 6', '"agentledger.seq": 7'), 'trace.jsonl'), ['span-seq@6']);
    const out = await verifyAfter('cancelled', (d) => {
      const t = join(d, 'trace.jsonl');
      const l = readLines(t);
      l.splice(3, 0, '{"attributes": {"agentledger.run_id": "run_3ed66096fa7a4443"}, "end_time": 1.0, "name": "media_artifact", "parent_span_id": null, "span_id": "media-000001", "start_time": 1.0, "trace_id": "run_3ed66096fa7a4443"}');
      writeLines(t, l);
    }, 'trace.jsonl');
    assert.deepEqual(out, ['span-seq@5']);
  });
});

describe('agentledger verify: blobs', () => {
  it('a tampered blob fails blob-integrity and the ledger response hash', async () => {
    const out = await verifyAfter('side-effect-idempotency', (d) => {
      const f = join(d, 'blobs', 'sha256', `${ISSUE_RESP}.json`);
      writeFileSync(f, readFileSync(f, 'utf8').replace('ISSUE-1', 'ISSUE-9'));
    });
    assert.deepEqual(out, ['ledger-response-hash@5', 'blob-integrity@7']);
  });

  it('re-indenting a Python blob keeps its canonical hash (file bytes are never hashed)', async () => {
    const out = await verifyAfter('side-effect-idempotency', (d) => {
      const f = join(d, 'blobs', 'sha256', `${ISSUE_RESP}.json`);
      writeFileSync(f, JSON.stringify(JSON.parse(readFileSync(f, 'utf8'))));
    });
    assert.deepEqual(out, []);
  });

  it('a missing blob is blob-exists at every line that needs it', async () => {
    const out = await verifyAfter('side-effect-idempotency', (d) => rmSync(join(d, 'blobs', 'sha256', `${ISSUE_RESP}.json`)));
    assert.deepEqual(out, ['blob-exists@7', 'blob-exists@17']);
  });

  it('a blob that is a symlink out of the store, or a FIFO, is not read', async () => {
    const out = await verifyAfter('side-effect-idempotency', (d) => {
      const f = join(d, 'blobs', 'sha256', `${ISSUE_RESP}.json`);
      const outside = join(d, 'outside.json');
      copyFileSync(f, outside);
      rmSync(f);
      symlinkSync(outside, f);
    });
    // Something other than the blob in its place fails like content that does not hash to its name (issue 41).
    assert.deepEqual(out, ['blob-integrity@7', 'blob-integrity@17']);
    const fifo = await verifyAfter('side-effect-idempotency', (d) => {
      const f = join(d, 'blobs', 'sha256', `${ISSUE_RESP}.json`);
      rmSync(f);
      execFileSync('mkfifo', [f]);
    });
    assert.deepEqual(fifo, ['blob-integrity@7', 'blob-integrity@17']);
  });

  it('no blob store at all is one info finding', async () => {
    const dir = copyRun('side-effect-idempotency');
    try {
      rmSync(join(dir, 'blobs'), { recursive: true });
      const fs = await findingObjects(join(dir, 'events.jsonl'), 'verify');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), ['agentledger/blob-exists@5:info']);
    } finally {
      cleanup(dir);
    }
  });
});

describe('agentledger verify: blobs under the user\'s blob roots (agentTrace.blobRoots, --blob-root)', () => {
  /** The run with its blob store moved out of the evidence folder; `keepEmptyStore`: an empty blobs/sha256/ stays beside. */
  async function moved(keepEmptyStore: boolean, body: (trace: string, root: string) => Promise<void>): Promise<void> {
    const dir = copyRun('side-effect-idempotency');
    const elsewhere = mkdtempSync(join(tmpdir(), 'agentledger-blob-root-'));
    try {
      renameSync(join(dir, 'blobs'), join(elsewhere, 'blobs'));
      if (keepEmptyStore) mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
      await body(join(dir, 'events.jsonl'), join(elsewhere, 'blobs'));
    } finally {
      cleanup(dir);
      cleanup(elsewhere);
    }
  }
  const shown = (fs: Finding[]) => fs.map((f) => `${f.rule}@${f.line}:${f.severity}`);
  const BLOB_LINES = [5, 7, 15, 17];

  it('verifies intact when the blobs are only under a configured root, over the model and streamed', async () => {
    await moved(true, async (trace, root) => {
      const model = await loadTrace(trace);
      const missing = await runChecks(model, 'verify');
      assert.deepEqual(shown(missing.findings), BLOB_LINES.map((l) => `agentledger/blob-exists@${l}:warning`));
      assert.match(missing.findings[0].message, /is not in the blob store \(expected blobs\/sha256\/[0-9a-f]{64}\.json\)\.$/);
      // Through the ledger too: the idempotency key's operation is read from the request blob.
      for (const run of [await runChecks(model, 'verify', { blobOptions: { extraRoots: [root] } }), await streamChecks(trace, 'verify', { blobOptions: { extraRoots: [root] } })]) {
        assert.deepEqual(shown(run.findings), []);
        assert.equal(run.ok, true);
      }
      // A relative root is taken from the trace's folder.
      const relative = relativePath(dirname(trace), root);
      assert.deepEqual(shown((await runChecks(model, 'verify', { blobOptions: { extraRoots: [relative] } })).findings), []);
    });
  });

  it('a tampered blob under a configured root is blob-integrity, as beside the trace', async () => {
    await moved(false, async (trace, root) => {
      const f = join(root, 'sha256', `${ISSUE_RESP}.json`);
      writeFileSync(f, readFileSync(f, 'utf8').replace('ISSUE-1', 'ISSUE-9'));
      const fs = (await runChecks(await loadTrace(trace), 'verify', { blobOptions: { extraRoots: [root] } })).findings;
      assert.deepEqual(shown(fs), ['agentledger/ledger-response-hash@5:error', 'agentledger/blob-integrity@7:error']);
    });
  });

  it('without the root and without a store beside, it is the one no-store finding', async () => {
    await moved(false, async (trace) => {
      const fs = (await runChecks(await loadTrace(trace), 'verify')).findings;
      assert.deepEqual(shown(fs), ['agentledger/blob-exists@5:info']);
      assert.match(fs[0].message, /^No blob store \(blobs\/sha256\/ or \.agentledger\/blobs\/sha256\/\) next to the trace or in a configured blob root; \d+ blob ref\(s\) were not resolved\.$/);
    });
  });
});

describe('agentledger verify: bundle, replay digest, ledger', () => {
  it('a tampered bundle fails bundle-hash', async () => {
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, (t) => t.replace('"ISSUE-1"', '"ISSUE-2"'), false)), ['bundle-hash@1']);
  });

  it('bundle events that differ from the file are reported where they differ, with both replay digests', async () => {
    const dir = copyRun('side-effect-idempotency');
    try {
      editBundle(dir, (t) => t.replace('"type": "step_retry_scheduled"', '"type": "step_retry_planned"'), true);
      const fs = await findingObjects(join(dir, 'events.jsonl'), 'verify');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}`), ['agentledger/bundle-events@11']);
      assert.match(fs[0].message, /replay digest of the file sha256:15ac54413483b8248d2ae25664ef40e09c0771e109e48ae81f303479372574e9, of bundle.json sha256:/);
    } finally {
      cleanup(dir);
    }
  });

  it('manifest.json must repeat the bundle hash', async () => {
    const bh = JSON.parse(readFileSync(join(CORPUS, 'cancelled', 'bundle.json'), 'utf8')).bundle_hash as string;
    assert.deepEqual(await verifyAfter('cancelled', (d) => writeFileSync(join(d, 'manifest.json'), JSON.stringify({ bundle_hash: bh }))), []);
    assert.deepEqual(await verifyAfter('cancelled', (d) => writeFileSync(join(d, 'manifest.json'), JSON.stringify({ bundle_hash: 'sha256:' + '0'.repeat(64) }))), ['bundle-hash@1']);
  });

  it('a missing bundle skips the bundle checks with one info finding giving the replay digest', async () => {
    const dir = copyRun('side-effect-idempotency');
    try {
      rmSync(join(dir, 'bundle.json'));
      const fs = await findingObjects(join(dir, 'events.jsonl'), 'verify');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), ['agentledger/replay-digest@1:info']);
      // Python ReplayEngine: sha256_json([{seq, type, payload_hash, payload_ref}, …]).
      assert.match(fs[0].message, /sha256:15ac54413483b8248d2ae25664ef40e09c0771e109e48ae81f303479372574e9/);
    } finally {
      cleanup(dir);
    }
  });

  it('a bundle of another run is not compared', async () => {
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => copyFileSync(join(CORPUS, 'cancelled', 'bundle.json'), join(d, 'bundle.json'))), ['bundle-events@1']);
  });

  it('ledger rows: request ref, idempotency key, event link and approval key', async () => {
    const ledgerRef = `"request_ref": "blob://sha256/${ISSUE_REQ}.json"`;
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, (t) => t.replace(ledgerRef, `"request_ref": "blob://sha256/${ISSUE_RESP}.json"`), true)), ['ledger-request-hash@5']);
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, (t) => t.replace(':create-crash-recovery-issue"', ':other-operation"'), true)), ['idempotency-key@5']);
    const token = '"causal_token": "{\\"attempt\\":1,';
    const lastToken = (t: string) => t.slice(0, t.lastIndexOf(token)) + '"causal_token": "{\\"attempt\\":7,' + t.slice(t.lastIndexOf(token) + token.length);
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, lastToken, true)), ['ledger-event-link@5']);
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, (t) => t.replace(token, '"causal_token": "{\\"attempt\\":7,'), true)), ['bundle-events@5']);
    assert.deepEqual(await verifyAfter('approval-granted', (d) => editBundle(d, (t) => t.replace('"approval_key": "run_ab0d800cd5c04f84:step_d88cd687e1df492f:mcp.github.create_pr:sha256:', '"approval_key": "run_ab0d800cd5c04f84:step_d88cd687e1df492f:mcp.github.create_pr:docs-pr:'), true)), ['idempotency-key@10']);
  });

  it('artifacts: blob_hash and blob_ref must name the same digest', async () => {
    const artifact = `"artifacts": [{"artifact_id": "art_1", "blob_hash": "sha256:${ISSUE_REQ}", "blob_ref": "blob://sha256/${ISSUE_RESP}.json", "name": "x"}]`;
    assert.deepEqual(await verifyAfter('side-effect-idempotency', (d) => editBundle(d, (t) => t.replace('"artifacts": []', artifact), true)), ['artifact-blob-hash@1']);
  });

  it('the corpus bundles hash exactly as the Python writer computed', () => {
    for (const run of ['approval-granted', 'budget-exceeded']) {
      const text = readFileSync(join(CORPUS, run, 'bundle.json'), 'utf8');
      const want = (JSON.parse(text) as { bundle_hash: string }).bundle_hash;
      assert.equal('sha256:' + sha256Hex(canonicalJson(rawWithout(parseRawJson(text), ['bundle_hash']))), want);
    }
  });
});

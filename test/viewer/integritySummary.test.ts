import { strict as assert } from 'node:assert';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allRules, integrityKindsOf, runChecks } from '../../src/core/formatRules';
import { integrityKindOf } from '../../src/core/checks/integrityKind';
import { loadTrace } from '../../src/core/loadTrace';
import { summarizeResult } from '../../src/viewer/findingsState';
import { checkChips } from '../../webview/checkWords';
import { tempDir } from '../helpers/tmp';
import { CORPUS_ROOT } from '../helpers/corpus';

const CORPUS = CORPUS_ROOT;
const MURMUR_DIR = join(CORPUS, 'murmur/ses_39263059f28c105d1fb17c2390c192cf');
const SYSTEM_BLOB = '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f';

async function chipsOf(file: string): Promise<string[]> {
  const result = await runChecks(await loadTrace(file), 'verify');
  return checkChips(summarizeResult('verify', result)).map((c) => `${c.cls}: ${c.text}`);
}

describe('verification by cause: chain, sequence, blobs, lines and links', () => {
  it('classifies every verify rule of the catalog; blob rules are content, seq rules sequence, chain rules chain', () => {
    const verify = allRules().filter((r) => r.mode === 'verify');
    assert.ok(verify.length > 50);
    for (const r of verify.filter((x) => x.id.startsWith('blob/'))) assert.equal(integrityKindOf(r.id), 'content', r.id);
    assert.deepEqual(['harness/seq-contiguous', 'deepstrike/seq-dense', 'agentledger/seq-contiguous', 'lumen/chain-seq'].map(integrityKindOf), ['sequence', 'sequence', 'sequence', 'sequence']);
    assert.deepEqual(['lumen/chain-prev-hash', 'lumen/event-hash', 'deepstrike/journal-prev-digest', 'deepstrike/journal-record-digest'].map(integrityKindOf), ['chain', 'chain', 'chain', 'chain']);
    assert.deepEqual(['agentledger/payload-hash', 'agentledger/blob-integrity', 'murmur/sha-format'].map(integrityKindOf), ['content', 'content', 'content']);
    assert.deepEqual(['parse/invalid-json', 'murmur/parent-exists', 'agentledger/no-chain', 'tree/cycle'].map(integrityKindOf), ['structure', 'structure', 'structure', 'structure']);
  });

  it('knows which formats have a chain and which a sequence, from their rule catalogs', () => {
    const has = (f: Parameters<typeof integrityKindsOf>[0]) => [...integrityKindsOf(f)].filter((k) => k === 'chain' || k === 'sequence').sort();
    assert.deepEqual(has('lumen'), ['chain', 'sequence']);
    assert.deepEqual(has('deepstrike'), ['sequence'], 'the kernel journal is in some files only');
    assert.deepEqual(has('harness-ledger'), ['sequence']);
    assert.deepEqual(has('agentledger'), ['sequence']);
    assert.deepEqual(has('murmur'), []);
    assert.deepEqual(has('claude-code'), []);
  });

  it('murmur with its blobs: every blob verified, no chain named', async () => {
    assert.deepEqual(await chipsOf(join(MURMUR_DIR, 'trace.jsonl')), ['ok: blobs: 7 verified', 'ok: lines and links intact: 7 events']);
  });

  it('a tampered murmur blob is a mismatched blob, not a break at its line: the trace lines are intact', async () => {
    const dir = join(tempDir(), 'ses');
    cpSync(MURMUR_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'blobs', SYSTEM_BLOB), 'Be terse!');
    const result = await runChecks(await loadTrace(join(dir, 'trace.jsonl')), 'verify');
    const mismatch = result.findings.find((f) => f.rule === 'blob/mismatch');
    assert.ok(mismatch, 'the tampered blob is found');
    assert.match(mismatch.message, /^Blob content does not match its name/, 'the message leads with the cause, not the 64-hex name');
    const chips = checkChips(summarizeResult('verify', result)).map((c) => `${c.cls}: ${c.text}`);
    assert.deepEqual(chips, ['bad: blobs: 6 verified, 1 mismatched', 'ok: lines and links intact: 7 events']);
    assert.ok(!chips.some((c) => /broken/.test(c)));
  });

  it('a murmur trace copied without blobs/ and with a bad line: the blobs are missing, the parse error is its own chip', async () => {
    const dir = tempDir();
    const lines = (await import('node:fs')).readFileSync(join(MURMUR_DIR, 'trace.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(dir, 'trace.jsonl'), [...lines.slice(0, 3), '{"event_type": broken', ...lines.slice(3)].join('\n') + '\n');
    const chips = await chipsOf(join(dir, 'trace.jsonl'));
    assert.equal(chips.length, 2, chips.join(' | '));
    assert.equal(chips[0], 'bad: blobs: 0 verified, 7 missing', 'content captured (tool output) but no blobs/: the blobs are missing');
    assert.equal(chips[1], 'bad: lines and links: 1 error from line 4');
  });

  it('lumen: chain and sequence intact; a tampered line breaks the chain at its line', async () => {
    const good = await chipsOf(join(CORPUS, 'lumen/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl'));
    assert.deepEqual(good.slice(0, 2), ['ok: chain intact', 'ok: sequence intact']);
    const bad = await chipsOf(join(CORPUS, 'lumen/negative/ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl'));
    assert.match(bad[0], /^bad: chain broken at line \d+$/);
    const gap = await chipsOf(join(CORPUS, 'lumen/negative/ef05f773-1151-4c7a-817e-a78bf76ed21e.missing-seq20.jsonl'));
    assert.match(gap[1], /^bad: sequence gap at line \d+$/);
  });

  it('deepstrike: a session log without a kernel journal names no chain', async () => {
    assert.deepEqual(await chipsOf(join(CORPUS, 'deepstrike/rust-core/ccd8d4a8-c278-48af-86c4-31f0f447b767.jsonl')), ['ok: sequence intact', 'ok: lines and links intact: 17 events']);
  });

  it('harness ledger: a sequence, no chain', async () => {
    const chips = await chipsOf(join(CORPUS, 'harness-ledger/tool-failed.jsonl'));
    assert.equal(chips[0], 'ok: sequence intact');
    assert.ok(!chips.some((c) => c.includes('chain')));
  });

  it('an empty file is "empty", neutral, in both modes: nothing was proven intact (issue 40)', async () => {
    const file = join(tempDir(), 'empty.jsonl');
    writeFileSync(file, '');
    const model = await loadTrace(file);
    for (const mode of ['verify', 'check'] as const) {
      const chips = checkChips(summarizeResult(mode, await runChecks(model, mode)));
      assert.deepEqual(chips.map((c) => `${c.cls}: ${c.text}`), ['neutral: empty: no events to check'], mode);
      assert.doesNotMatch(chips[0].title, /intact/);
    }
  });
});

import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CheckResult } from '../../../src/core/checks/runChecks';
import { runChecks } from '../../../src/core/formatRules';
import { CHECK_MODES } from '../../../src/core/rules/types';
import { loadTrace, loadTraceChecked } from '../../../src/core/loadTrace';
import { StreamOutcome, streamChecks } from '../../../src/core/stream/streamChecks';
import { canDigest } from '../../../src/core/parallel/rangeDigest';
import { expandTraceFiles } from '../../../src/core/traceFiles';
import { shownPath } from '../../../src/core/tracePath';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../helpers/corpus';
import { tempDir, tempFile } from '../../helpers/tmp';
import { generateLumenTrace } from '../../bench/lumenBench';
import { generateMurmurTrace } from '../../bench/generateMurmur';
import { LumenFastLine } from '../../../src/core/formats/lumen/lumenFastLine';
import { FindingLog } from '../../../src/core/findingLog';
import { generateFindingsTrace } from '../../bench/findingsBench';

const ROOT = resolve(__dirname, '..', '..', '..');

/** Range workers on any file, however small, after a tiny head, so most lines go through them. */
const RANGES = (workers: number) => ({ workers, workerMinBytes: 0, workerHeadChunk: 256 });

/**
 * The streamed result and how it ran, next to the result of the checks over the loaded model; the streamed run
 * with 1, 2 and 3 range workers must give the same result (`ranged`: how many of those read lines in workers).
 */
async function both(path: string, mode: 'verify' | 'check'): Promise<{ streamed: CheckResult; model: CheckResult; outcome: StreamOutcome; ranged: number }> {
  let outcome: StreamOutcome | undefined;
  const streamed = await streamChecks(path, mode, {}, (o) => (outcome = o));
  // The CLI's compact findings give back the same result, each finding the same JSON (key order included).
  const logged = await streamChecks(path, mode, { findingLog: true });
  assert.deepStrictEqual({ ...logged, findings: [...logged.findings].map((f) => JSON.stringify(f)) }, { ...streamed, findings: streamed.findings.map((f) => JSON.stringify(f)) }, `${path}: ${mode} with findingLog`);
  const model = await runChecks(await loadTrace(path), mode);
  // Both modes riding along one read of the loader (a trace opened in the viewer with checks on) find the same.
  const rideAlong = (await loadTraceChecked(path, { checks: { modes: [...CHECK_MODES] } })).results.get(mode);
  assert.deepStrictEqual(rideAlong, model, `${path}: ${mode} riding along the loader's read`);
  let ranged = 0;
  for (const n of [1, 2, 3]) {
    let parallelOutcome: StreamOutcome | undefined;
    const parallel = await streamChecks(path, mode, RANGES(n), (o) => (parallelOutcome = o));
    assert.deepStrictEqual(parallel, streamed, `${path}: ${mode} with ${n} range workers`);
    if (parallelOutcome === 'ranges') ranged++;
    else assert.equal(parallelOutcome, outcome, `${path}: ${mode}, ${n} workers`);
    // Workers are used only for a format whose own check digests lines.
    if (parallelOutcome === 'ranges') assert.ok(canDigest(streamed.format, mode), `${path}: ${streamed.format}`);
  }
  return { streamed, model, outcome: outcome!, ranged };
}

describe('streamed verify and check give the findings of the model-based checks', function () {
  this.timeout(600_000);

  it('on every corpus file, real-writer file, sample and fixture, in both modes', async () => {
    const roots = [CORPUS_ROOT, WRITER_CORPUS, join(ROOT, 'samples'), join(ROOT, 'test', 'fixtures')];
    const { files } = await expandTraceFiles(roots);
    assert.ok(files.length > 100, `${files.length} files`);
    const streamedFormats = new Set<string>();
    let streamedRuns = 0;
    let findings = 0;
    let rangedRuns = 0;
    for (const file of files) {
      const path = shownPath(file);
      for (const mode of CHECK_MODES) {
        const r = await both(path, mode);
        assert.deepStrictEqual(r.streamed, r.model, `${path}: ${mode} (${r.outcome})`);
        rangedRuns += r.ranged;
        if (r.outcome === 'streamed') {
          streamedRuns++;
          streamedFormats.add(r.model.format);
          findings += r.model.findings.length;
        }
      }
    }
    // The comparison must cover streamed runs with findings, not only files handed back to the model.
    assert.ok(streamedRuns >= 40, `${streamedRuns} streamed runs`);
    assert.ok(findings >= 10, `${findings} findings in streamed runs`);
    assert.ok(streamedFormats.has('lumen'), [...streamedFormats].join(', '));
    // Lumen files with more lines than the head went through 1, 2 and 3 range workers in both modes.
    assert.ok(rangedRuns >= 12, `${rangedRuns} runs read in range workers`);
  });

  it('on a damaged lumen trace: BOM, CRLF and lone CR, blank, torn, non-object, invalid UTF-8 and tampered lines', async () => {
    const dir = join(tempDir('atv-stream-'), '.lumen', 'trace');
    mkdirSync(dir, { recursive: true });
    const clean = join(dir, '6a1f0c3e-2b7d-4e59-9a41-5c8d2e7f1b30.jsonl');
    await generateLumenTrace(clean, { targetBytes: 300_000 });
    const lines = readFileSync(clean, 'latin1').split('\n');
    // Line 221 (index 220): a bad byte inside a value of a known key, with a hash made over the raw bytes (as a
    // writer that hashes bytes, not text, would make it) and the next line linked to it. Its text has U+FFFD
    // instead, so its hash does not hold: a reader that took the bytes for valid UTF-8 would pass it.
    const forged = Buffer.from(lines[220].replace('"cell":"', '"cell":"\xff'), 'latin1');
    const reader = new LumenFastLine();
    assert.ok(reader.read(forged, false, true), 'the forged line is read as if its bytes were valid');
    const oldHash = /"hash":"sha256:([0-9a-f]{64})"/.exec(lines[220])![1];
    const newHash = reader.preimageHex();
    lines[220] = forged.toString('latin1').replace(oldHash, newHash);
    lines[221] = lines[221].replace(oldHash, newHash);
    const damaged = lines.map((l, i) => {
      if (i === 40) return l + '\r';
      if (i === 90) return '';
      if (i === 170) return '[1,2,3]';
      if (i === 210) return l.replace('"cell"', '"c\xff\xfell"');
      if (i === 250) return l + '\r' + lines[i];
      if (i === 300) return l.replace('"seq":', '"seq": ');
      if (i === 400) return '{"seq":';
      return l;
    });
    // A torn last line: no newline after it.
    const text = damaged.slice(0, -1).join('\n') + '\n' + lines[lines.length - 2].slice(0, 30);
    const path = tempFile('6a1f0c3e-2b7d-4e59-9a41-5c8d2e7f1b30.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'latin1')]), dir);
    for (const mode of CHECK_MODES) {
      const r = await both(path, mode);
      assert.equal(r.outcome, mode === 'verify' ? 'streamed' : 'model');
      const rules = new Set(r.model.findings.map((f) => f.rule));
      for (const rule of ['parse/torn-tail', 'parse/invalid-utf8', 'parse/lone-cr', 'parse/bom', 'lumen/line-json']) assert.ok(rules.has(rule), `${mode}: ${rule} in ${[...rules].join(', ')}`);
      assert.deepStrictEqual(r.streamed, r.model, mode);
    }
  });

  it('reports the tree builder\'s duplicate ids, dangling parents and cycles from the compact links', async () => {
    const lines = ['{"id":"a"}', '{"id":"b","parent_id":"missing"}', '{"id":"a"}', '{"id":"c","parent_id":"d"}', '{"id":"d","parent_id":"c"}', '{"id":"e","parent_id":"e"}', '{"id":"f","parent_id":"later"}', '{"id":"later"}'];
    const path = tempFile('ids.jsonl', lines.join('\n') + '\n');
    for (const mode of CHECK_MODES) {
      const r = await both(path, mode);
      assert.equal(r.outcome, mode === 'verify' ? 'streamed' : 'model');
      assert.deepStrictEqual(r.streamed, r.model);
      const tree = r.model.findings.filter((f) => f.rule.startsWith('tree/')).map((f) => `${f.line} ${f.rule}`);
      assert.deepStrictEqual(tree, ['2 tree/dangling-parent', '3 tree/duplicate-id', '5 tree/cycle', '6 tree/cycle']);
    }
  });

  it('sizes its columns and id store once a sixteenth of a large file is read, and finds what the model finds', async () => {
    // 20,000 murmur events: sized after about 1,250 of them; then ids, parents and links all past that point.
    const path = join(tempDir(), 'trace.jsonl');
    await generateMurmurTrace(path, 20_000);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const first = JSON.parse(lines[0]) as { session_id: string; timestamp: number };
    const evt = (n: number) => `evt_${n.toString(16).padStart(32, 'f')}`;
    const extra = [
      { event_id: evt(1), parent_id: null },
      { event_id: evt(2), parent_id: evt(3) },
      { event_id: evt(3), parent_id: evt(2) },
      { event_id: evt(4), parent_id: evt(99) },
      { event_id: (JSON.parse(lines[15_000]) as { event_id: string }).event_id, parent_id: null },
    ].map((e, k) => JSON.stringify({ event_type: 'agent_note', ...e, session_id: first.session_id, timestamp: first.timestamp + k }));
    writeFileSync(path, [...lines, ...extra].join('\n') + '\n');
    for (const mode of CHECK_MODES) {
      const r = await both(path, mode);
      assert.equal(r.outcome, mode === 'verify' ? 'streamed' : 'model');
      assert.deepStrictEqual(r.streamed, r.model, mode);
      // murmur's link rules (its store, sized the same way), in place of the generic tree rules.
      if (mode === 'verify') assert.deepStrictEqual(tail(r.model, lines.length), ['2 murmur/parent-depth', '2 murmur/parent-exists', '4 murmur/parent-exists', '5 murmur/event-id-unique']);
    }
  });

  it('sizes the id store of a generic trace with ids the same way, and reports its tree findings past that point', async () => {
    const n = 20_000;
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `evt_${i.toString(16).padStart(32, '0')}`, parent_id: i === 0 ? null : `evt_${Math.floor(i / 2).toString(16).padStart(32, '0')}`, type: 'step' }));
    const extra = ['{"id":"x1","parent_id":"missing"}', lines[15_000], '{"id":"x2","parent_id":"x3"}', '{"id":"x3","parent_id":"x2"}', '{"id":"x4","parent_id":"x4"}'];
    const path = tempFile('ids.jsonl', [...lines, ...extra].join('\n') + '\n');
    for (const mode of CHECK_MODES) {
      const r = await both(path, mode);
      assert.equal(r.outcome, mode === 'verify' ? 'streamed' : 'model', mode);
      assert.deepStrictEqual(r.streamed, r.model, mode);
      assert.deepStrictEqual(tail(r.model, n).filter((f) => f.includes('tree/')), ['1 tree/dangling-parent', '2 tree/duplicate-id', '4 tree/cycle', '5 tree/cycle'], mode);
    }
  });
  it('hands a trace\'s dangling parents to the CLI\'s compact log, not to the model, in both modes (issue 41 d)', async () => {
    const path = join(tempDir('atv-findings-'), 'dangling.jsonl');
    const count = 40_000;
    await generateFindingsTrace(path, count, true);
    const { model, results } = await loadTraceChecked(path, { checks: { modes: ['check'], options: { findingLog: true } } });
    assert.equal(model.diagnostics.filter((d) => d.rule.startsWith('tree/')).length, 0, 'the model holds no tree finding');
    for (const r of [results.get('check')!, await streamChecks(path, 'verify', { findingLog: true })]) {
      const log = r.findings as unknown;
      assert.ok(log instanceof FindingLog);
      assert.equal(log.length, count);
      // A finding object with its strings takes some 200 bytes; kept compactly, a few numbers and its id.
      assert.ok(log.byteSize / count < 48, `${(log.byteSize / count).toFixed(1)} bytes a finding`);
      let n = 0;
      for (const f of log) assert.equal(f.message, `Parent gone${n++} is not in this trace; the event is shown as a root.`);
      assert.equal(n, count);
    }
  });
});

/** The findings on lines past the first `n`, as "line rule" with lines counted from there. */
function tail(result: CheckResult, n: number): string[] {
  return result.findings.filter((f) => f.line > n).map((f) => `${f.line - n} ${f.rule}`);
}

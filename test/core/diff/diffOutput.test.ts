import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../../helpers/corpus';
import { loadTrace } from '../../../src/core/loadTrace';
import { diffTraces } from '../../../src/core/diff/diffTraces';
import { traceDiffJson, traceDiffJsonPieces } from '../../../src/core/diff/diffJson';
import { eventFieldsOf } from '../../../src/core/diff/eventContent';
import { flattenEvent } from '../../../src/core/diff/flattenJson';
import { runTotals } from '../../../src/core/diff/runCost';
import { summarize } from '../../../src/core/summary';
import type { ModelPrice } from '../../../src/core/usage/prices';
import { diffFiles, editedCopy, linesOf, MURMUR, writeVariant } from './diffPairs';

const FILES = [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS)];
// A price for the writers' mock model (in no bundled table), so their runs have a cost too.
const PRICES: Record<string, ModelPrice> = { 'mock-llm': { input: 1, output: 2 } };

describe('diff output: the JSON text, the run totals and the lines read again', () => {
  it('writes every diff\'s JSON byte for byte as JSON.stringify of its document: each file against itself, an edited copy and its neighbour', async function () {
    this.timeout(240_000);
    let ops = 0;
    for (let k = 0; k < FILES.length; k++) {
      const f = FILES[k];
      const edited = editedCopy(f);
      for (const b of [f, ...(edited ? [edited] : []), ...(k + 1 < FILES.length ? [FILES[k + 1]] : [])]) {
        const d = await diffTraces(await loadTrace(f), await loadTrace(b), { prices: PRICES });
        assert.equal([...traceDiffJsonPieces(d)].join(''), JSON.stringify(traceDiffJson(d)), `${relative(CORPUS_ROOT, f)} vs ${relative(CORPUS_ROOT, b)}`);
        ops += d.ops.length;
      }
    }
    assert.ok(ops > 5000, `${ops} ops written`);
  });

  it('writes a change with more fields than it lists (fieldsOmitted) and labels that need escaping as JSON.stringify does', async () => {
    const lines = linesOf(MURMUR);
    const wide = (v: string): string => {
      const o = JSON.parse(lines[2]) as Record<string, unknown>;
      for (let i = 0; i < 250; i++) o[`extra_${i}`] = `${v}-${i}`;
      o.decision = 'a "quoted"\n\u2028 decision \u0007';
      return JSON.stringify(o);
    };
    const d = await diffFiles(writeVariant([...lines.slice(0, 2), wide('a'), ...lines.slice(3)]), writeVariant([...lines.slice(0, 2), wide('b'), ...lines.slice(3)]));
    const json = traceDiffJson(d);
    assert.ok(json.ops.some((op) => (op.fieldsOmitted ?? 0) > 0), 'a change lists fieldsOmitted');
    assert.equal([...traceDiffJsonPieces(d)].join(''), JSON.stringify(json));
  });

  it('gives each run\'s duration, tokens and cost as the summary reports them, for every file, priced or not', async function () {
    this.timeout(120_000);
    let costed = 0;
    for (const f of FILES) {
      const m = await loadTrace(f);
      for (const prices of [{}, PRICES]) {
        const s = summarize(m, { prices });
        const t = s.totals;
        const tokens = t.inputTokens === null && t.outputTokens === null ? null : (t.inputTokens ?? 0) + (t.outputTokens ?? 0);
        assert.deepEqual(runTotals(m, prices), { durationMs: s.durationMs, tokens, costUsd: s.usage.total.costUsd }, relative(CORPUS_ROOT, f));
        if (s.usage.total.costUsd !== null) costed++;
      }
    }
    assert.ok(costed > 10, `${costed} runs with a cost`);
  });

  it('reads events\' lines again, plain or gzip, in any order, as parsing each line would; a document trace has none', async () => {
    const plain = writeVariant(linesOf(MURMUR));
    const gz = join(plain, '..', 'trace.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const lines = linesOf(MURMUR);
    for (const file of [plain, gz]) {
      const m = await loadTrace(file);
      const order = Array.from({ length: m.events.size }, (_x, i) => m.events.size - 1 - i);
      for (const includeVolatile of [false, true]) {
        const got = await eventFieldsOf(m, order, { includeVolatile });
        assert.deepEqual(got, order.map((i) => flattenEvent(JSON.parse(lines[m.events.lineOf(i) - 1]), { includeVolatile })), file);
      }
    }
    const doc = await loadTrace(FILES.find((f) => f.endsWith('trace.otlp.json'))!);
    assert.ok(doc.document && doc.events.size > 0);
    assert.deepEqual(await eventFieldsOf(doc, [0, 1], { includeVolatile: false }), [null, null]);
  });
});

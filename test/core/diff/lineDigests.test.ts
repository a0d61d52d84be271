import { strict as assert } from 'node:assert';
import { unlinkSync } from 'node:fs';
import { relative } from 'node:path';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../../helpers/corpus';
import { loadTrace } from '../../../src/core/loadTrace';
import { diffTraces } from '../../../src/core/diff/diffTraces';
import { digestEvents } from '../../../src/core/diff/eventContent';
import { traceDiffJson } from '../../../src/core/diff/diffJson';
import { LineDigests } from '../../../src/core/diff/lineDigests';
import { diffText } from '../../../src/cli/diffCommand';
import { editedCopy, linesOf, writeVariant } from './diffPairs';

/** The CLI's JSON and text output of one diff: as the CLI loads (lines digested during the load, labels kept) or read again after it. */
async function bothWays(a: string, b: string, includeVolatile: boolean): Promise<{ during: string; after: string }> {
  const da = new LineDigests({ includeVolatile });
  const db = new LineDigests({ includeVolatile });
  const during = await diffTraces(await loadTrace(a, { onRecord: da.add, storeLabels: true }), await loadTrace(b, { onRecord: db.add, storeLabels: true }), { includeVolatile, lineDigests: { a: da, b: db } });
  const after = await diffTraces(await loadTrace(a), await loadTrace(b), { includeVolatile });
  const show = (d: typeof during): string => JSON.stringify(traceDiffJson(d)) + '\n' + diffText(d, 3).join('\n');
  return { during: show(during), after: show(after) };
}

describe('diff: line digests taken while loading', () => {
  const files = [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS)];

  it('finds the corpus and writer files to compare', () => {
    assert.ok(files.length >= 60, `only ${files.length} files`);
  });

  it('gives every event of every file the same digests as reading the file again, with and without volatile fields', async function () {
    this.timeout(120_000);
    let digested = 0;
    for (const f of files) {
      for (const includeVolatile of [false, true]) {
        const lines = new LineDigests({ includeVolatile });
        const model = await loadTrace(f, { onRecord: lines.add });
        const during = await digestEvents(model, { includeVolatile }, lines);
        const after = await digestEvents(model, { includeVolatile });
        assert.deepEqual(during, after, `${relative(CORPUS_ROOT, f)}, includeVolatile ${includeVolatile}`);
        digested += after.content.filter((c) => !Number.isNaN(c)).length;
      }
    }
    // Digests were taken (not NaN everywhere, as for a one-document trace).
    assert.ok(digested > 1000, `${digested} events digested`);
  });

  it('gives the same diff, JSON and text, as reading the files again, on every file against itself, an edited copy and its neighbour', async function () {
    this.timeout(240_000);
    let differing = 0;
    let runs = 0;
    for (let k = 0; k < files.length; k++) {
      const f = files[k];
      // [A, B, also with volatile fields]: the edited copy is where ids and times matter.
      const pairs: [string, string, boolean][] = [[f, f, false]];
      const edited = editedCopy(f);
      if (edited) pairs.push([f, edited, true]);
      if (k + 1 < files.length) pairs.push([f, files[k + 1], false]);
      for (const [a, b, both] of pairs) {
        for (const includeVolatile of both ? [false, true] : [false]) {
          const { during, after } = await bothWays(a, b, includeVolatile);
          assert.equal(during, after, `${relative(CORPUS_ROOT, a)} vs ${relative(CORPUS_ROOT, b)}, includeVolatile ${includeVolatile}`);
          runs++;
          if (!during.includes('"firstDivergence":null')) differing++;
        }
      }
    }
    // Most pairs differ, so the comparison covers changed fields and ops, not only equal runs.
    assert.ok(differing > runs / 2, `${differing} of ${runs} runs differ`);
  });

  it('is not used when taken with other options than the diff asks for', async () => {
    const f = files.find((p) => p.includes('murmur'))!;
    const edited = editedCopy(f)!;
    // Digests that keep ids and times, handed to a diff that leaves them out: the diff reads the lines again.
    const da = new LineDigests({ includeVolatile: true });
    const db = new LineDigests({ includeVolatile: true });
    const d = await diffTraces(await loadTrace(f, { onRecord: da.add }), await loadTrace(edited, { onRecord: db.add }), { lineDigests: { a: da, b: db } });
    const fresh = await diffTraces(await loadTrace(f), await loadTrace(edited));
    assert.deepEqual(traceDiffJson(d), traceDiffJson(fresh));
  });

  it('reads a loaded model\'s lines again once per kind of digest: diffing the same models again needs no file', async () => {
    const f = files.find((p) => p.includes('murmur') && p.endsWith('.jsonl'))!;
    const a = writeVariant(linesOf(f));
    const b = editedCopy(f)!;
    const ma = await loadTrace(a);
    const mb = await loadTrace(b);
    const first = traceDiffJson(await diffTraces(ma, mb));
    unlinkSync(a);
    unlinkSync(b);
    // The compare view diffs the viewer's models again (its volatile toggle, a second compare): no read.
    assert.deepEqual(traceDiffJson(await diffTraces(ma, mb)), first);
    // Digests with volatile fields were never read: they need the files.
    await assert.rejects(diffTraces(ma, mb, { includeVolatile: true }), /ENOENT/);
  });

  it('calls onRecord once per parsed line, in line order', async () => {
    const f = files.find((p) => p.includes('murmur') && p.endsWith('.jsonl'))!;
    const seen: number[] = [];
    await loadTrace(f, { onRecord: (r) => seen.push(r.line) });
    const expected = linesOf(f).map((_l, i) => i + 1);
    assert.deepEqual(seen, expected);
  });
});

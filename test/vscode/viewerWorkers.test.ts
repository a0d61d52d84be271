import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Uri, installFakeVscode } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';
import { generateLumenTrace } from '../bench/lumenBench';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { TraceDocument } = require('../../src/vscode/editor/traceDocument') as typeof import('../../src/vscode/editor/traceDocument');

/** Loads `file` in a document with `workers` read threads (agentTrace.workers, resolved). */
async function modelWith(file: string, workers: number) {
  const doc = new TraceDocument(Uri.file(file) as never, () => ({ maxFileSizeMB: 2048, liveUpdates: false, workers }));
  await doc.load();
  const m = await doc.whenLoaded();
  doc.dispose();
  assert.ok(m);
  return m;
}

describe('trace document: agentTrace.workers', () => {
  it('a large lumen trace read with a worker thread gives the model read on one thread', async function () {
    this.timeout(120_000);
    // Over the 4 MiB below which the read stays on one thread, so the worker reads most of it.
    const file = join(tempDir(), 'workers.jsonl');
    await generateLumenTrace(file, { targetBytes: 6 << 20 });
    const one = await modelWith(file, 0);
    const two = await modelWith(file, 1);
    assert.ok(one.events.size > 10_000, `${one.events.size} events`);
    assert.deepEqual([two.events.size, two.lineCount, two.bytesIndexed, two.diagnostics.length], [one.events.size, one.lineCount, one.bytesIndexed, one.diagnostics.length]);
    for (const i of [0, 1, Math.floor(one.events.size / 2), one.events.size - 1]) {
      assert.deepEqual([two.events.kindOf(i), two.events.labelOf(i), two.events.parent(i), two.events.lineOf(i)], [one.events.kindOf(i), one.events.labelOf(i), one.events.parent(i), one.events.lineOf(i)]);
    }
  });
});

// What the viewer shows for files that are not plain JSONL traces: .json traces, JSON that is no trace,
// binary files and gzip-compressed traces (no live tail: any change reloads the whole file).
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fake, Uri } from '../helpers/fakeVscode';
import { tempDir, tempFile } from '../helpers/tmp';
import { minimalZip } from '../helpers/binaryFiles';
import { until } from '../helpers/until';
import { openDocument } from '../helpers/traceDocuments';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const OTLP_DOC = resolve('test/corpus/otel-js-2.12.1/otlp-traces.json');

async function open(file: string) {
  const opened = openDocument(file);
  await opened.doc.load();
  return opened;
}

describe('trace document: .json, binary and .gz files', () => {
  it('opens a .json OTLP export as a trace', async () => {
    const { doc, last } = await open(tempFile('export.json', readFileSync(OTLP_DOC)));
    assert.equal(last('model')?.model.format, 'otlp');
    assert.ok((last('model')?.model.events.size ?? 0) > 1);
    assert.equal(last('error'), undefined);
    doc.dispose();
  });

  it('says a JSON file that no format recognises is not a trace, and offers the text editor', async () => {
    const { doc, last } = await open(tempFile('package.json', readFileSync(resolve('package.json'))));
    const err = last('error');
    assert.match(err?.message ?? '', /^package\.json is not a trace: it is a JSON document that no trace format recognises/);
    assert.deepEqual(err?.actions, ['openAsText']);
    assert.equal(last('model'), undefined, 'no one-event "tree" of package.json');
    assert.equal(await doc.whenLoaded(), undefined);
    doc.dispose();
  });

  it('says what a zip is instead of showing binary as torn lines', async () => {
    const { doc, last } = await open(tempFile('run.eval', minimalZip('header.json', Buffer.from('{}'))));
    assert.equal(last('error')?.message, 'run.eval is a zip archive, not a JSONL trace.');
    assert.equal(last('model'), undefined);
    doc.dispose();
  });

  it('opens a trace whose first 4 KiB a crash zeroed: every other line shown, the damaged line flagged at its line', async () => {
    const bytes = Buffer.from(readFileSync(resolve('samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl')));
    bytes.fill(0, 0, 4096);
    const { doc, last } = await open(tempFile('run.jsonl', bytes));
    assert.equal(last('error'), undefined);
    const model = last('model')!.model;
    assert.equal(model.format, 'lumen');
    assert.equal(model.events.size, 17, 'the 28 lines less the 11 the block touched');
    assert.deepEqual(model.malformed.map((m) => m.line), [1]);
    assert.ok(model.diagnostics.some((d) => d.rule === 'parse/zeroed-bytes' && d.line === 1 && /as a crash leaves them/.test(d.message)));
    doc.dispose();
  });

  it('shows a .jsonl.gz like the plain file and reloads it whole when a gzip member is appended', async () => {
    const file = join(tempDir(), 'sample.jsonl.gz');
    appendFileSync(file, gzipSync(readFileSync(SAMPLE)));
    const { doc, last } = await open(file);
    const first = last('model')!.model;
    assert.equal(first.compression, 'gzip');
    assert.equal(first.events.size, 11);
    doc.watch();
    const watcher = fake.watchers[fake.watchers.length - 1];
    appendFileSync(file, gzipSync('{"type":"x","id":"n1","parent_id":"s1"}\n'));
    watcher.change.fire(Uri.file(file));
    const reloaded = await until(() => (last('model')?.model.events.size === 12 ? last('model') : undefined), 'reload');
    // Not "truncated" (the decompressed size is larger than the file) and not a live append: a whole reload.
    assert.equal(reloaded.state, 'rewritten');
    assert.equal(reloaded.message, 'The compressed file changed on disk and has been read again from the start (a .gz has no live tail).');
    doc.dispose();
  });

  it('applies the size limit to a .gz by its decompressed size', async () => {
    const text = Array.from({ length: 60000 }, (_, i) => JSON.stringify({ id: `e${i}`, note: 'same words again and again' })).join('\n') + '\n';
    const file = tempFile('big.jsonl.gz', gzipSync(text));
    assert.ok(readFileSync(file).length < 2 ** 20 && Buffer.byteLength(text) > 2 * 2 ** 20, 'small on disk, over 2 MB decompressed');
    fake.config.maxFileSizeMB = 1;
    try {
      const { doc, last } = await open(file);
      assert.equal(last('error')?.message, `This trace is ${(Buffer.byteLength(text) / 2 ** 20).toFixed(0)} MB, over the agentTrace.maxFileSizeMB limit of 1 MB.`);
      assert.deepEqual(last('error')?.actions, ['openAnyway', 'openAsText']);
      doc.dispose();
    } finally {
      fake.config.maxFileSizeMB = 2048;
    }
  });
});

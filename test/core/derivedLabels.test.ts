import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, resolve } from 'node:path';
import { LabelCache } from '../../src/core/derivedLabels';
import { murmurLabelOf } from '../../src/core/formats/murmur/labels';
import { formatDuration } from '../../src/core/display';
import { loadTrace } from '../../src/core/loadTrace';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { shownPath } from '../../src/core/tracePath';
import { CORPUS_ROOT, corpusPath, WRITER_CORPUS } from '../helpers/corpus';
import { tempFile } from '../helpers/tmp';

const SAMPLES = resolve(__dirname, '..', '..', 'samples');

describe('labels made again from the line equal the labels the builder gave', function () {
  this.timeout(300_000);

  it('for every event of every corpus file and sample, in file order and from the end backwards', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, SAMPLES]);
    assert.ok(files.length > 60, `${files.length} files`);
    const derivedBy = new Map<string, number>();
    const eventsBy = new Map<string, number>();
    for (const file of files) {
      const path = shownPath(file);
      const stored = await loadTrace(path, { storeLabels: true });
      const model = await loadTrace(path);
      assert.equal(model.events.size, stored.events.size, path);
      let derived = 0;
      for (let i = 0; i < model.events.size; i++) {
        assert.ok(!stored.events.labelIsDerived(i));
        if (model.events.labelIsDerived(i)) derived++;
      }
      // Backwards first, so the labels come from the file and not from the cache the forward pass filled.
      for (let i = model.events.size - 1; i >= 0; i--) assert.equal(model.events.labelOf(i), stored.events.labelOf(i), `${path} event ${i}`);
      for (let i = 0; i < model.events.size; i++) assert.equal(model.events.get(i).label, stored.events.labelOf(i), `${path} event ${i}`);
      derivedBy.set(model.format, (derivedBy.get(model.format) ?? 0) + derived);
      eventsBy.set(model.format, (eventsBy.get(model.format) ?? 0) + model.events.size);
    }
    // The comparison compared labels made again, not only stored ones.
    const share = (f: string) => (derivedBy.get(f) ?? 0) / (eventsBy.get(f) ?? 1);
    assert.ok(share('murmur') > 0.9 && (eventsBy.get('murmur') ?? 0) > 40, `murmur: ${derivedBy.get('murmur')} of ${eventsBy.get('murmur')}`);
    assert.ok(share('lumen') > 0.99 && (eventsBy.get('lumen') ?? 0) > 100, `lumen: ${derivedBy.get('lumen')} of ${eventsBy.get('lumen')}`);
    // Claude Code: every line but an assistant line that continues a response.
    assert.ok(share('claude-code') > 0.7 && (eventsBy.get('claude-code') ?? 0) > 100, `claude-code: ${derivedBy.get('claude-code')} of ${eventsBy.get('claude-code')}`);
  });

  it('gives murmur events the label of their line and of the model of the session_start before them', async () => {
    // murmur's builder leaves every label to its line: the reference here follows the session's model itself.
    const { files } = await expandTraceFiles([corpusPath('murmur'), WRITER_CORPUS, SAMPLES]);
    let inferences = 0;
    let fromSession = 0;
    for (const path of files.map(shownPath)) {
      const model = await loadTrace(path);
      if (model.format !== 'murmur' || path.endsWith('.gz')) continue;
      const lines = readFileSync(path, 'utf8').split('\n');
      let session: string | null = null;
      for (let i = 0; i < model.events.size; i++) {
        const o = JSON.parse(lines[model.events.lineOf(i) - 1]) as Record<string, unknown>;
        const type = typeof o.event_type === 'string' ? o.event_type : '(no event_type)';
        if (type === 'session_start' && typeof o.model === 'string') session = o.model;
        assert.equal(model.events.labelOf(i), murmurLabelOf(type, o, type === 'session_start' ? (typeof o.model === 'string' ? o.model : null) : session), `${path} event ${i}`);
        if (type === 'inference') (inferences++, typeof o.model !== 'string' && session !== null && fromSession++);
      }
    }
    assert.ok(inferences > 20 && fromSession > 0, `${inferences} inferences, ${fromSession} labelled with the session's model`);
  });

  it("makes lumen's labels that show other lines from the event's columns: the run id, a frame's duration, a failed run", async () => {
    const { files } = await expandTraceFiles([corpusPath('lumen'), WRITER_CORPUS]);
    const closing = new Map<string, number>();
    let failedRuns = 0;
    for (const path of files.map(shownPath)) {
      const model = await loadTrace(path);
      if (model.format !== 'lumen' || path.endsWith('.gz')) continue;
      const t = model.events;
      for (let i = 0; i < t.size; i++) {
        const kind = t.kindOf(i);
        // Nothing is stored: every label is made again from the line when it is shown.
        assert.ok(t.labelIsDerived(i), `${path} event ${i} (${kind})`);
        const label = t.labelOf(i);
        if (kind === 'run_start') assert.ok(label.startsWith(`run_start ${t.groupOf(i)} doc `), `${path} event ${i}: ${label}`);
        if (kind !== 'call_exit' && kind !== 'cell_end' && kind !== 'run_end') continue;
        // A closing event's duration, worked out here from the times of the event and of the frame it closes (its parent).
        const p = t.parent(i);
        const [at, from] = [t.timeOf(i), p >= 0 ? t.timeOf(p) : null];
        if (at === null || from === null) continue;
        assert.ok(label.endsWith(` ${formatDuration(Math.max(0, at - from))}`), `${path} event ${i}: ${label}`);
        closing.set(kind, (closing.get(kind) ?? 0) + 1);
        if (kind === 'run_end' && t.statusOf(i) === 'error') (failedRuns++, assert.ok(label.startsWith('run_end failed '), `${path} event ${i}: ${label}`));
        if (kind === 'run_end' && t.statusOf(i) !== 'error') assert.ok(!label.includes('failed'), `${path} event ${i}: ${label}`);
      }
    }
    assert.ok((closing.get('call_exit') ?? 0) > 5 && (closing.get('cell_end') ?? 0) > 2 && (closing.get('run_end') ?? 0) > 2, JSON.stringify([...closing]));
    assert.ok(failedRuns > 0, 'no failed run in the corpus');
  });

  it('shows the kind, not a wrong label or an exception, when the file was cut under the model', async () => {
    const { files } = await expandTraceFiles([corpusPath('murmur')]);
    const source = files.map(shownPath).find((p) => p.endsWith('.jsonl'))!;
    const path = tempFile('trace.jsonl', readFileSync(source));
    const model = await loadTrace(path);
    const last = model.events.size - 1;
    assert.ok(model.events.labelIsDerived(last));
    writeFileSync(path, '');
    assert.equal(model.events.labelOf(last), model.events.kindOf(last));
  });

  it('makes a lumen label the builder left to its line at once when the line cannot be read again (gzip, stored labels)', async () => {
    const { files } = await expandTraceFiles([corpusPath('lumen')]);
    for (const source of files.map(shownPath)) {
      const plain = await loadTrace(source);
      // The same name (lumen's run id is the file's), compressed.
      const gz = await loadTrace(tempFile(basename(source) + '.gz', gzipSync(readFileSync(source))));
      const stored = await loadTrace(source, { storeLabels: true });
      assert.equal(gz.events.size, plain.events.size, source);
      let leaves = 0;
      for (let i = 0; i < plain.events.size; i++) {
        const label = plain.events.labelOf(i);
        assert.equal(gz.events.labelOf(i), label, `${source} event ${i}`);
        assert.equal(stored.events.labelOf(i), label, `${source} event ${i}`);
        assert.ok(!gz.events.labelIsDerived(i) && !stored.events.labelIsDerived(i));
        // A leaf's label is made from its line: never left empty or as the bare kind.
        const kind = plain.events.kindOf(i);
        if (['vm_step', 'tool_call', 'schema_validate'].includes(kind)) {
          leaves++;
          // A tool call is worded as every agent's (`fs.read → ok, 3 ms`), the others after their kind.
          assert.ok(kind === 'tool_call' ? / → (ok|error)/.test(label) : label.startsWith(kind + ' '), `${source} event ${i}: ${label}`);
        }
      }
      assert.ok(leaves > 10, `${source}: ${leaves} leaves`);
    }
  });
});

describe('the cache of labels made again', () => {
  it('stays within its bound, keeps the labels used recently and drops the others', () => {
    const cache = new LabelCache(100);
    cache.set(-1, 'kept');
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, `label ${i}`);
      assert.ok(cache.size <= 100, `${cache.size} entries`);
      // Read every 40 sets: used more often than half the bound, so it is never dropped.
      if (i % 40 === 0) assert.equal(cache.get(-1), 'kept', `after ${i}`);
    }
    assert.equal(cache.get(9_999), 'label 9999');
    assert.equal(cache.get(9_960), 'label 9960');
    assert.equal(cache.get(5_000), undefined);
    assert.equal(cache.get(0), undefined);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.get(-1), undefined);
  });
});

import { strict as assert } from 'node:assert';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { CheckMode } from '../../src/core/rules/types';
import { loadTrace } from '../../src/core/loadTrace';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { TracePath } from '../../src/core/tracePath';
import { tempDir } from '../helpers/tmp';
import { CORPUS_ROOT } from '../helpers/corpus';

const SHARED = CORPUS_ROOT;
// One file per way the checks read a trace again: line scan, harness tail byte, document re-reads.
const FILES = [
  'harness-ledger/tool-failed.jsonl',
  'other/otlp/trace.json',
  'other/claude-code/sample_session.json',
  'other/claude-code/sample_session.jsonl',
  'other/codex/sample_codex_session.jsonl',
];

/** `dir/<stem>\xff<ext>`: a name that is not valid UTF-8 (0xFF never is), as the bytes that open it. */
function byteName(dir: string, file: string): Buffer {
  const name = basename(file);
  const dot = name.indexOf('.');
  return Buffer.concat([Buffer.from(join(dir, name.slice(0, dot))), Buffer.from([0xff]), Buffer.from(name.slice(dot))]);
}

async function outcome(path: TracePath, mode: CheckMode) {
  const model = await loadTrace(path);
  const r = await runChecks(model, mode);
  return { format: model.format, events: model.events.size, diagnostics: model.diagnostics, checked: r.checked, findings: r.findings };
}

describe('a trace whose file name is not valid UTF-8 (issue 19 item 11)', () => {
  it('is loaded and checked through its byte path exactly as the same file under a text name', async () => {
    for (const rel of FILES) {
      const src = join(SHARED, rel);
      const bytes = byteName(tempDir(), rel);
      writeFileSync(bytes, readFileSync(src));
      const plain = join(tempDir(), basename(rel));
      copyFileSync(src, plain);
      const model = await loadTrace(bytes);
      assert.ok(model.source?.equals(bytes), rel);
      assert.ok(model.path.includes('\ufffd'), `${rel}: ${model.path}`);
      for (const mode of ['verify', 'check'] as const) {
        const got = await outcome(bytes, mode);
        assert.ok(got.events > 0, rel);
        assert.deepEqual(got, await outcome(plain, mode), `${rel} ${mode}`);
      }
    }
  });

  it('is kept as a Buffer by a directory walk, text names as strings, in the order of the shown names', async () => {
    const dir = tempDir();
    writeFileSync(byteName(dir, 'b.jsonl'), '{"id":"a"}\n');
    writeFileSync(join(dir, 'a.jsonl'), '{"id":"a"}\n');
    writeFileSync(join(dir, 'c.jsonl'), '{"id":"a"}\n');
    writeFileSync(byteName(dir, 'notes.txt'), 'x');
    const { files, skipped } = await expandTraceFiles([dir]);
    assert.deepEqual(files.map((f) => typeof f), ['string', 'object', 'string']);
    assert.ok(Buffer.isBuffer(files[1]) && files[1].equals(byteName(dir, 'b.jsonl')));
    assert.deepEqual(skipped, [{ reason: 'other-name', count: 1, examples: [join(dir, 'notes\ufffd.txt')] }]);
  });
});

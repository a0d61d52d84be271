import { strict as assert } from 'node:assert';
import { scanLines, LineSpan } from '../../../src/core/lineIndexer';
import { loadTrace } from '../../../src/core/loadTrace';
import { runChecks } from '../../../src/core/formatRules';
import { tempFile } from '../../helpers/tmp';

/** VS Code's own line split (CR, LF and CRLF end a line): the definition Problems markers are placed by. */
const editorLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

async function spans(content: string, chunkSize?: number): Promise<{ span: LineSpan; text: string | null }[]> {
  const path = tempFile('cr.jsonl', content);
  const out: { span: LineSpan; text: string | null }[] = [];
  await scanLines(path, (span, bytes) => out.push({ span, text: bytes ? bytes.toString('utf8') : null }), { chunkSize });
  return out;
}

describe('one line-break definition shared with VS Code (issue 19 item 9)', () => {
  const mixed = '{"id":"a"}\r{"id":"b"}\r\n{"id":"c"}\n{"id":"d"}\r';

  it('splits on LF, CRLF and a lone CR, at every chunk size (a CR at a chunk end included)', async () => {
    const want = editorLines(mixed).slice(0, 4);
    for (const chunkSize of [1, 2, 3, 10, 11, 12, 23, 1 << 20]) {
      const got = await spans(mixed, chunkSize);
      assert.deepEqual(got.map((l) => l.text), want, `chunk ${chunkSize}`);
      assert.deepEqual(got.map((l) => [l.span.offset, l.span.length, l.span.crlf, l.span.cr === true]), [[0, 10, false, true], [11, 10, true, false], [23, 10, false, false], [34, 10, false, true]], `chunk ${chunkSize}`);
    }
  });

  it('reads three objects separated by lone CRs as three events, reports each lone CR at its line', async () => {
    const path = tempFile('cr3.jsonl', '{"id":"a"}\r{"id":"b","parent_id":"a"}\r{"id":"c","parent_id":"b"}');
    const model = await loadTrace(path);
    assert.equal(model.events.size, 3);
    assert.deepEqual(model.malformed, []);
    const result = await runChecks(model, 'verify');
    assert.deepEqual(result.findings.map((f) => [f.rule, f.line, f.severity]), [['parse/lone-cr', 1, 'warning'], ['parse/lone-cr', 2, 'warning']]);
    // Every event sits on the editor line that holds its text.
    const lines = editorLines('{"id":"a"}\r{"id":"b","parent_id":"a"}\r{"id":"c","parent_id":"b"}');
    for (let i = 0; i < 3; i++) assert.equal((JSON.parse(lines[model.events.lineOf(i) - 1]) as { id: string }).id, model.events.id(i));
  });

  it('makes a lone CR an error in lumen, whose reader splits on newlines only', async () => {
    const path = tempFile('lumen-cr.jsonl', '{"kind":"run_start","seq":0,"prev_hash":"sha256:genesis","hash":"sha256:00"}\r{"kind":"run_end","seq":1}\n');
    const model = await loadTrace(path, { format: 'lumen' });
    const cr = model.diagnostics.filter((d) => d.rule === 'parse/lone-cr');
    assert.deepEqual(cr.map((d) => [d.line, d.severity]), [[1, 'error']]);
  });

  it('counts lines of a multi-line document the same way', async () => {
    const path = tempFile('doc.json', '{\r  "resourceSpans": [],\r  "x": [1,\r2]\r}\r');
    const model = await loadTrace(path);
    assert.equal(model.document, true);
    assert.equal(model.lineCount, editorLines('{\r  "resourceSpans": [],\r  "x": [1,\r2]\r}\r').length);
  });
});

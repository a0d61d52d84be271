import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { writeOtlpJson, type OtlpContentSource } from '../../src/core/export/otlpExport';
import { otlpContentOf } from '../../src/report/otlpContent';
import { generateMurmurTrace } from '../bench/generateMurmur';
import { tempDir } from '../helpers/tmp';

const CLAUDE = 'test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project';
const only = (dir: string): string => join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);

interface Walk {
  /** `t` for through, `c` for content, `w` for a write of the document, in the order they came. */
  log: string[];
  /** The most the source held when a span's content was handed over. */
  maxHeld: number;
  /** What the source still held after the document was written. */
  left: number;
  text: string;
  size: number;
}

/** `writeOtlpJson` with `--include-content`'s source for `file`, every call to the source and every write logged. */
async function walk(file: string): Promise<Walk> {
  const model = await loadTrace(file);
  const source: OtlpContentSource = otlpContentOf(model);
  const log: string[] = [];
  let maxHeld = 0;
  let text = '';
  const content = (i: number): ReturnType<OtlpContentSource['content']> => {
    log.push(`c${i}`);
    const c = source.content(i);
    maxHeld = Math.max(maxHeld, source.held!());
    return c;
  };
  const through = (i: number): Promise<void> => (log.push(`t${i}`), source.through(i));
  await writeOtlpJson(model, { version: '0', fileName: 'x', content, contentThrough: through }, (t) => {
    log.push('w');
    text += t;
  });
  return { log, maxHeld, left: source.held!(), text, size: model.events.size };
}

describe('export --otlp --include-content streams: content read per span, then dropped', () => {
  it('a murmur trace: each span asks for its content when it is made, in order, and the source holds next to nothing', async () => {
    const file = join(tempDir(), 'murmur.jsonl');
    await generateMurmurTrace(file, 3000);
    const w = await walk(file);
    // Every event's span is preceded by its through(i), in file order, and its content asked for before the next.
    const throughs = w.log.filter((e) => e.startsWith('t')).map((e) => Number(e.slice(1)));
    assert.deepEqual(throughs, Array.from({ length: w.size }, (_, i) => i));
    let next = 0;
    for (const e of w.log) {
      if (e.startsWith('t')) assert.equal(Number(e.slice(1)), next++);
      else if (e.startsWith('c')) assert.equal(Number(e.slice(1)), next - 1, `content of ${e} asked for after the next span began`);
    }
    // The document is written while the trace is still being walked: a write comes before the middle event's through.
    assert.ok(w.log.indexOf('w', w.log.indexOf('t1')) < w.log.indexOf(`t${w.size >> 1}`), 'nothing written before half the trace was read');
    // Content was found (the tool calls' arguments), and never more than a few values held at once.
    assert.ok((w.text.match(/"gen_ai\.tool\.call\.arguments"/g) ?? []).length > 100);
    assert.ok(w.maxHeld <= 4, `held ${w.maxHeld} values at once`);
    assert.equal(w.left, 0);
  });

  it('a Claude Code session: its content is found as it streams, and the source is empty at the end', async () => {
    const w = await walk(only(CLAUDE));
    assert.match(w.text, /"gen_ai\.input\.messages"/);
    assert.match(w.text, /"gen_ai\.tool\.call\.result"/);
    assert.equal(w.left, 0);
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitConcatenatedJson } from '../../../src/core/json/concatenatedJson';
import { loadTrace } from '../../../src/core/loadTrace';

const pretty = (v: unknown) => JSON.stringify(v, null, 4) + '\n';

describe('concatenated JSON values', () => {
  it('splits pretty-printed values written one after another, with where each starts', () => {
    const text = pretty({ a: '}{' }) + pretty([1, { b: '"\\' }]);
    const r = splitConcatenatedJson(text)!;
    assert.deepEqual(r.values.map((v) => v.value), [{ a: '}{' }, [1, { b: '"\\' }]]);
    assert.equal(text.slice(r.values[1].start, r.values[1].start + 1), '[');
    assert.deepEqual(r.gaps, []);
  });

  it('a damaged value is one gap and reading goes on at the next value; a cut last value is a torn gap', () => {
    const good = pretty({ n: 1 });
    const text = good + good + '{\n    "n": 2,,\n}\n' + good + good.slice(0, 8);
    const r = splitConcatenatedJson(text)!;
    assert.equal(r.values.length, 3);
    assert.deepEqual(r.gaps.map((g) => [text.slice(0, g.start).split('\n').length, g.torn]), [[7, false], [13, true]]);
  });

  it('leaves one document, JSON lines and JSON lines with a damaged first line to the other readers', () => {
    assert.equal(splitConcatenatedJson(pretty({ only: 1 })), null);
    assert.equal(splitConcatenatedJson('{"a":1}\n{"a":2}\n'), null);
    assert.equal(splitConcatenatedJson('{"a":1\n{"a":2}\n{"a":3}\n'), null);
  });

  it('a JSONL file whose first line is torn is still read line by line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concat-'));
    try {
      writeFileSync(join(dir, 't.jsonl'), '{"id":"a","type":"x"\n{"id":"b","type":"y"}\n{"id":"c","type":"z"}\n');
      const m = await loadTrace(join(dir, 't.jsonl'));
      assert.equal(m.document, false);
      assert.deepEqual(m.malformed.map((x) => x.line), [1]);
      assert.equal(m.events.size, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

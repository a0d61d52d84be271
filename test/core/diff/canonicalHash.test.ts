import { strict as assert } from 'node:assert';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../../helpers/corpus';
import { hashCanonical } from '../../../src/core/diff/canonicalHash';
import { flattenEvent } from '../../../src/core/diff/flattenJson';
import { sortedKeysOf } from '../../../src/core/diff/objectShapes';
import { TextHash } from '../../../src/core/diff/textHash';
import { volatileKeyClass } from '../../../src/core/diff/volatileFields';
import { linesOf } from './diffPairs';

/** Every line of the corpus and writer files that parses as JSON (a multi-line document is left out). */
function corpusValues(): unknown[] {
  const out: unknown[] = [];
  for (const f of [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS)]) {
    for (const line of linesOf(f)) {
      try {
        out.push(JSON.parse(line));
      } catch {
        // not a JSONL line (a pretty-printed document)
      }
    }
  }
  return out;
}

/** A copy of a JSON value with every object's keys in reverse order. */
function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversedKeys(x)]));
}

function walkObjects(v: unknown, visit: (o: object) => void): void {
  if (typeof v !== 'object' || v === null) return;
  if (!Array.isArray(v)) visit(v);
  for (const x of Object.values(v)) walkObjects(x, visit);
}

describe('diff digests: canonical hashing without path strings', () => {
  const values = corpusValues();

  it('reads over a thousand corpus lines', () => {
    assert.ok(values.length > 1000, `${values.length} lines`);
  });

  it('gives two lines the same digest exactly when their flattened fields are the same, with and without volatile fields', () => {
    for (const includeVolatile of [false, true]) {
      const byFields = new Map<string, number>();
      const byDigest = new Map<number, string>();
      for (const v of values) {
        const fields = JSON.stringify(flattenEvent(v, { includeVolatile }));
        const digest = hashCanonical(v, { includeVolatile }, new TextHash()).value();
        const seen = byFields.get(fields);
        if (seen !== undefined) assert.equal(digest, seen, `same fields, other digest: ${fields.slice(0, 200)}`);
        else byFields.set(fields, digest);
        const other = byDigest.get(digest);
        if (other !== undefined) assert.equal(fields, other, 'one digest for two different sets of fields');
        else byDigest.set(digest, fields);
      }
      // Most lines differ from each other (ids and times left in, or content): the check compared many digests.
      assert.ok(byFields.size > values.length / 4, `${byFields.size} distinct of ${values.length}`);
    }
  });

  it('ignores key order and sees a change in any one leaf', () => {
    let changed = 0;
    for (const v of values) {
      const h = hashCanonical(v, { includeVolatile: true }, new TextHash()).value();
      assert.equal(hashCanonical(reversedKeys(v), { includeVolatile: true }, new TextHash()).value(), h);
      const text = JSON.stringify(v);
      // One more character in the first string value, wherever it is.
      const edited = text.replace(/":"/, '":"x');
      if (edited !== text) {
        assert.notEqual(hashCanonical(JSON.parse(edited), { includeVolatile: true }, new TextHash()).value(), h, edited.slice(0, 200));
        changed++;
      }
    }
    assert.ok(changed > 500, `${changed} edited lines`);
  });

  it('sorts an object\'s keys as sort() does and drops the volatile ones, for every shape, seen once or again', () => {
    let objects = 0;
    for (let round = 0; round < 2; round++) {
      for (const v of values) {
        walkObjects(v, (o) => {
          const all = Object.keys(o).sort();
          const got = sortedKeysOf(o);
          assert.deepEqual(got.all, all);
          assert.deepEqual(got.content, all.filter((k) => volatileKeyClass(k) === null));
          objects++;
        });
      }
    }
    // Same first key, other keys; more keys than a shape keeps; no keys.
    for (const o of [{ a: 1, c: 2 }, { a: 1, b: 2 }, { a: 1, c: 2, b: 3 }, Object.fromEntries(Array.from({ length: 100 }, (_x, i) => [`k${99 - i}`, i])), {}]) {
      for (let again = 0; again < 2; again++) assert.deepEqual(sortedKeysOf(o).all, Object.keys(o).sort());
    }
    assert.ok(objects > 5000, `${objects} objects`);
  });

  it('feeds a whole number\'s digits as the text of the number', () => {
    for (const n of [0, 7, 9, 10, 11, 99, 100, 101, 12345, 999999, 1000000, 2 ** 31 - 1, 2 ** 31, 2 ** 40 + 3, 1.5, -4]) {
      assert.equal(new TextHash().updateUint(n).value(), new TextHash().update(String(n)).value(), String(n));
    }
  });
});

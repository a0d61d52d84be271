import { strict as assert } from 'node:assert';
import { categoryFromKind, collectHashRefs, mayHoldDigest, parseDigest, short } from '../../../src/core/formats/common';

/** The plain definition: flatten everything, then cut. */
function reference(s: string, max: number): string {
  const flat = s.replace(/[\s\u0080-\u009f]+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

describe('short (labels)', () => {
  it('gives the same label as flattening the whole text, on texts with long whitespace runs, controls and edges', () => {
    const parts = ['a', 'word ', ' ', '\n\n\n', '\t', '\u0085', 'x'.repeat(30), ' '.repeat(200), 'é', '…'];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let k = 0; k < 3000; k++) {
      let s = '';
      const n = rand(80);
      for (let i = 0; i < n; i++) s += parts[rand(parts.length)];
      for (const max of [1, 2, 10, 48, 72]) assert.equal(short(s, max), reference(s, max), JSON.stringify([s, max]));
    }
  });

  it('gives the same label as flattening, on every text of up to four pieces of space, controls and letters', () => {
    const pieces = ['a', 'bc', ' ', '  ', '\t', '\n', '\r', '\u0085', '\u009f', '\u00a0', '\u2028', '\ufeff', 'é', '…'];
    const texts = [''];
    for (let len = 1; len <= 4; len++) for (let k = 0; k < pieces.length ** len; k++) {
      let s = '';
      for (let j = 0, x = k; j < len; j++, x = Math.floor(x / pieces.length)) s += pieces[x % pieces.length];
      texts.push(s);
    }
    for (const s of texts) for (const max of [2, 3, 48]) assert.equal(short(s, max), reference(s, max), JSON.stringify([s, max]));
  });

  it('cuts a megabyte of output to its first characters without flattening all of it', () => {
    const big = 'line one\n' + 'y'.repeat(1 << 20);
    assert.equal(short(big, 20), 'line one yyyyyyyyyy…');
  });
});

describe('digests in values', () => {
  /** parseDigest's definition: its four patterns, with no shortcut. */
  function referenceDigest(v: string, bare16: boolean): string | null {
    const m = /^sha256:([0-9a-f]{64}|[0-9a-f]{16})$/.exec(v) ?? /^blob:\/\/sha256\/([0-9a-f]{64}|[0-9a-f]{16})(\.json)?$/.exec(v);
    if (/^[0-9a-f]{64}$/.test(v)) return v;
    if (bare16 && /^[0-9a-f]{16}$/.test(v)) return v;
    return m ? m[1] : null;
  }

  it('finds exactly the strings its patterns match, at every length from 0 to 100', () => {
    const hex = '0123456789abcdef'.repeat(6);
    const forms = (h: string) => [h, `sha256:${h}`, `blob://sha256/${h}`, `blob://sha256/${h}.json`, `sha256:${h}.json`, `blob://sha256/${h}.js`, `x${h}`];
    let found = 0;
    for (let n = 0; n <= 100; n++) {
      for (const v of [...forms(hex.slice(0, n)), 'z'.repeat(n)]) {
        for (const bare16 of [false, true]) {
          const want = referenceDigest(v, bare16);
          assert.equal(parseDigest(v, bare16)?.digest ?? null, want, `${v} ${bare16}`);
          if (want) found++;
        }
      }
    }
    // 64 digits: bare, prefixed, in a URI with and without .json (each with and without bare16); 16 the same, bare only with it.
    assert.equal(found, 15);
  });

  it('names each digest by its path, skips the listed keys, and walks 9,000 levels down', () => {
    const h = 'a'.repeat(64);
    const refs = collectHashRefs({ a: { b: [1, { c: `sha256:${h}` }, `blob://sha256/${'b'.repeat(16)}.json`] }, id: h, x: h }, new Set(['id']));
    assert.deepEqual(refs.map((r) => [r.field, r.algorithm]), [['a.b[1].c', 'sha256'], ['a.b[2]', 'fnv1a64'], ['x', 'sha256']]);
    assert.deepEqual(collectHashRefs([h, [h]]).map((r) => r.field), ['[0]', '[1][0]']);
    let deep: unknown = { d: h };
    for (let i = 0; i < 9000; i++) deep = { n: deep };
    assert.equal(collectHashRefs(deep)[0].field, 'n.'.repeat(9000) + 'd');
  });

  it('says a set of values may hold a digest whenever collectHashRefs finds one among them', () => {
    const h = 'c'.repeat(64);
    const values: unknown[] = [h, `sha256:${h}`, `blob://sha256/${h.slice(0, 16)}.json`, h.slice(0, 16), 'x'.repeat(64), 'short', 12, true, null, [h], { a: h }, [], {}];
    for (const v of values) {
      const found = collectHashRefs({ k: v }, new Set(), true).length > 0;
      if (found) assert.ok(mayHoldDigest([1, v]), JSON.stringify(v));
    }
    assert.equal(mayHoldDigest(['short', 12, true, null, 'y'.repeat(65)]), false);
  });

  it('gives each kind its category, the same when asked again', () => {
    for (const [kind, cat] of [['session_start', 'session'], ['tool_call', 'tool'], ['LLM_request', 'inference'], ['approval', 'approval'], ['x', 'other']] as const) {
      assert.equal(categoryFromKind(kind), cat);
      assert.equal(categoryFromKind(kind), cat);
    }
  });
});

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { requiredLiterals } from '../../../src/core/find/regexLiterals';
import { compileTextQuery, searchFile, type TextQuery } from '../../../src/core/find/textSearch';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../helpers/corpus';

/** Every file under `dir` (blob stores, trace files), largest last. */
function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, keep));
    else if (e.isFile() && keep(p)) out.push(p);
  }
  return out;
}

// Blob stores of the shared corpus and the samples, and the real writers' session files: prose, code, JSON.
const BLOBS = [...filesUnder(CORPUS_ROOT, (p) => p.includes('/blobs/')), ...filesUnder('samples', (p) => p.includes('/blobs/'))];
const WRITER_FILES = filesUnder(WRITER_CORPUS, (p) => /\.(jsonl|json)$/.test(p) && statSync(p).size < 60_000).slice(0, 30);
const FILES = [...BLOBS, ...WRITER_FILES];
const BYTES = FILES.map((f) => readFileSync(f));
const TEXTS = BYTES.map((b) => new TextDecoder().decode(b));
// Files also searched from disk, whole and in small chunks (the chunked path reads a file twice on a hit).
const ON_DISK = [...BLOBS.slice(0, 6), ...WRITER_FILES.slice(0, 6)];

function withoutPrefilter(q: TextQuery): TextQuery {
  const { prefilter: _, ...rest } = q;
  return rest;
}

/**
 * Whether the prefilter changes nothing: in memory over every file (a file it passes over has no match), and
 * from disk over a few (the same first match, whole and in small chunks). Returns the files that match.
 */
async function sameWithAndWithout(pattern: string, caseSensitive: boolean): Promise<{ matches: number; prefiltered: boolean }> {
  const q = compileTextQuery(pattern, { caseSensitive, regex: true });
  const plain = withoutPrefilter(q);
  let matches = 0;
  for (const [k, text] of TEXTS.entries()) {
    const found = plain.find(text) !== null;
    if (found) matches++;
    if (q.prefilter && found) assert.ok(q.prefilter.find(BYTES[k], BYTES[k].length), `/${pattern}/${caseSensitive ? '' : 'i'} matches ${FILES[k]} but its literal is not found`);
  }
  for (const f of ON_DISK) {
    // Small chunks cross many boundaries; a few thousand bytes keep the larger files to a handful of reads.
    for (const chunkSize of [1 << 20, statSync(f).size < 4096 ? 61 : 4093]) {
      assert.deepEqual(await searchFile(f, q, { chunkSize }), await searchFile(f, plain, { chunkSize }), `/${pattern}/${caseSensitive ? '' : 'i'} on ${f} (chunks of ${chunkSize})`);
    }
  }
  return { matches, prefiltered: q.prefilter !== undefined };
}

describe('regex find: literal text to look for first (issue 15 item 3)', () => {
  it('names the text every match must contain, and nothing for parts that may be absent', () => {
    const cases: [string, string, string[] | null][] = [
      ['no\\s+such\\s+phr[a-z]se', 'gi', ['such']],
      ['foo(bar|baz)', 'g', ['foo']],
      ['(?:abc|de)x?', 'g', ['abc', 'de']],
      ['(a|)bcd', 'g', ['bcd']],
      ['(?:colou?r|hue)s', 'g', ['colo', 'hue']],
      ['ab(cd)ef', 'g', ['abcdef']],
      ['(ab){3}c', 'g', ['abababc']],
      ['(ab)+c', 'g', ['ab']],
      ['x*', 'g', null],
      ['[abc]+\\d', 'g', null],
      ['(?=abc)\\w+', 'g', null],
      ['(a)\\1', 'g', ['a']],
      ['a|b|[c]', 'g', null],
      ['naïve', 'gi', ['na']],
      ['naïve', 'g', ['naïve']],
      ['kelvins', 'giu', ['elvin']],
      ['kelvins', 'gi', ['kelvins']],
      ['\\u0041BC', 'g', ['ABC']],
      ['\\uD83D\\uDE00x', 'g', ['\u{1F600}x']],
      ['\\uD83Dx', 'g', ['x']],
      ['\\uFFFDabc', 'g', ['abc']],
      ['(?<w>ab)\\k<w>cd', 'g', ['ab']],
      ['[', 'g', null],
    ];
    for (const [pattern, flags, want] of cases) assert.deepEqual(requiredLiterals(pattern, flags), want, `/${pattern}/${flags}`);
  });

  it('with the i flag, only U+017F and U+212A reach ASCII letters, and only with u (so k and s are left out then)', () => {
    const reach: number[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      assert.equal(/[a-z]/i.test(ch), false, `U+${c.toString(16)} without u`);
      if (/[a-z]/iu.test(ch)) reach.push(c);
    }
    assert.deepEqual(reach, [0x17f, 0x212a]);
  });

  it('finds exactly what the expression alone finds, on corpus blobs and writer files, for hand-picked patterns', async () => {
    assert.ok(BLOBS.length > 50 && WRITER_FILES.length > 10, `${BLOBS.length} blobs, ${WRITER_FILES.length} writer files`);
    const patterns = [
      'no\\s+such\\s+phr[a-z]se', 'error|warning', 'tool_?use', 'Read(File)?', '"role":\\s*"(user|assistant)"', '\\bfunction\\b',
      '(?:npm|git) (test|diff|status)', 'colou?r', 'sha256[:/][0-9a-f]{8}', 'é|ü|ß', 'Déjà', '\\u00e9', 'KELVIN|kelvin', 'class\\s+\\w+',
      'a.b', '(.)\\1', '(?<=tool)_use', '(?!x)result', '\\d{4}-\\d{2}-\\d{2}', '^\\{"', 'true\\}$', '\\\\n', 'assistant(?:\\b|_)', '[Ee]rror:? ',
    ];
    let matched = 0;
    let prefiltered = 0;
    for (const p of patterns) {
      for (const cs of [true, false]) {
        const r = await sameWithAndWithout(p, cs);
        matched += r.matches;
        if (r.prefiltered) prefiltered++;
      }
    }
    assert.ok(matched > 100, `${matched} file matches`);
    assert.ok(prefiltered >= 30, `${prefiltered} of ${patterns.length * 2} queries use a prefilter`);
  });

  it('finds exactly what the expression alone finds, for random patterns built from the files\' own text', async function () {
    this.timeout(120_000);
    let x = 0x2545f491;
    const rand = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const fragment = () => {
      const t = TEXTS[rand(TEXTS.length)];
      const at = rand(Math.max(1, t.length - 8));
      const s = t.slice(at, at + 1 + rand(6));
      return rand(4) === 0 ? s.toUpperCase() : s;
    };
    const pieces: (() => string)[] = [
      () => escape(fragment()),
      () => `(${escape(fragment())}|${escape(fragment())})`,
      () => `(?:${escape(fragment())})?`,
      () => `${escape(fragment())}+`,
      () => `(${escape(fragment())}){1,2}`,
      () => ['\\s', '\\w', '\\d', '.', '[a-z]', '\\b', '\\S*', '[^"]'][rand(8)],
      () => `(?=${escape(fragment())})`,
    ];
    let matched = 0;
    for (let k = 0; k < 150; k++) {
      const pattern = Array.from({ length: 1 + rand(4) }, () => pieces[rand(pieces.length)]()).join('');
      try {
        new RegExp(pattern);
      } catch {
        continue;
      }
      matched += (await sameWithAndWithout(pattern, rand(2) === 0)).matches;
    }
    assert.ok(matched > 150, `${matched} file matches`);
  });

  it('gives a pattern the engine rejects the same error as before', () => {
    for (const bad of ['(', 'a{2,1}', '[b-a]', '(?<n>a)(?<n>b)', '\\']) {
      let engine = '';
      try {
        new RegExp(bad, 'gi');
      } catch (e) {
        engine = (e as Error).message;
      }
      assert.ok(engine, bad);
      assert.throws(() => compileTextQuery(bad, { caseSensitive: false, regex: true }), (e: Error) => e instanceof SyntaxError && e.message === engine);
    }
  });
});

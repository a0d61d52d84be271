/** Lumen lines to compare readers on, and the edits that make odd ones (shared by the fast-path tests). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expandTraceFiles } from '../../../../src/core/traceFiles';
import { shownPath } from '../../../../src/core/tracePath';
import { generateLumenTrace } from '../../../bench/lumenBench';
import { corpusPath } from '../../../helpers/corpus';

export const ROOT = resolve(__dirname, '..', '..', '..', '..');

/** Every lumen line of the corpus, the samples, the fixtures and a small generated trace. */
export async function lumenLines(): Promise<string[]> {
  const generated = join(mkdtempSync(join(tmpdir(), 'lumen-fast-')), 'gen.jsonl');
  await generateLumenTrace(generated, { targetBytes: 300_000 });
  const { files } = await expandTraceFiles([corpusPath('lumen'), join(ROOT, 'samples', 'lumen'), join(ROOT, 'test', 'fixtures', 'lumen')]);
  return [...files.map(shownPath), generated].flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.length > 0));
}

/** A seeded generator (xorshift), so a failure can be replayed. */
export function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Edits a line the way tampering and other writers do: values, layout, escapes, numbers, keys, bytes. */
export const EDITS: ((line: string, r: () => number) => string)[] = [
  (l) => l.replace(/"seq":(\d+)/, (_, n) => `"seq":${Number(n) + 1}`),
  (l) => l.replace(/"seq":(\d+)/, '"seq":$1.0'),
  (l) => l.replace(/"seq":(\d+)/, '"seq":-$1'),
  (l) => l.replace(/"seq":(\d+)/, '"seq":1234567890123456789'),
  (l) => l.replace(/"kind":"(\w+)"/, '"kind":"$1x"'),
  (l) => l.replace(/"kind":"(\w)/, '"kind":"\\u00$1'.replace('$1', '6b') + '$1'),
  (l) => l.replace(/"cell":"/, '"cell":"\\/'),
  (l) => l.replace(/"cell":"/, '"cell":"é'),
  (l) => l.replace(/"cell":"[^"]*"/, '"cell":null'),
  (l) => l.replace(/"cell":"[^"]*"/, '"cell":7'),
  (l) => l.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-13-01T00:00:00Z"'),
  (l) => l.replace(/"timestamp":"([^"]*)Z"/, '"timestamp":"$1+00:00"'),
  (l) => l.replace(/"timestamp":"([^"]{10})T/, '"timestamp":"$1 '),
  (l) => l.replace(/(\d)"/, (_, d) => `${(Number(d) + 1) % 10}"`),
  (l) => l.replace(/"prev_hash":"sha256:./, '"prev_hash":"sha256:A'),
  (l) => l.replace(/"hash":"sha256:[^"]*"/, '"hash":"sha256:genesis"'),
  (l) => l.replace(/^\{/, '{ '),
  (l) => l.replace(/,/, ', '),
  (l) => l.replace(/}$/, ',"note":"x"}'),
  (l) => l.replace(/}$/, ',"seq":1}'),
  (l) => l.replace(/}$/, ',"latency_ms":12}'),
  (l) => l.replace(/}$/, ',"latency_ms":1.5}'),
  (l) => l.replace(/}$/, ',"cached":true}'),
  (l) => l.replace(/}$/, ',"cached":"yes"}'),
  (l) => l.replace(/}$/, ',"message":"boom \\"quoted\\""}'),
  (l) => l.replace(/}$/, ',"details":{"b":1,"a":[2,-3,{"z":null,"y":false}]}}'),
  (l) => l.replace(/}$/, ',"details":{"a":1,"a":2}}'),
  (l) => l.replace(/}$/, ',"details":{"a":-0,"b":1e3}}'),
  (l) => l.replace(/}$/, ',"details":{"a":[],"b":{},"c":"ü","d":[[[]]]}}'),
  (l) => l.replace(/}$/, ',"details":{"a":0,"b":00}}'),
  (l) => l.replace(/"details":\{/, '"details":{"zz":1,'),
  (l) => l.replace(/"details":\{/, '"details":{"":1,'),
  (l, r) => {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(l) as Record<string, unknown>;
    } catch {
      return l;
    }
    const keys = Object.keys(o).sort(() => r() - 0.5);
    return JSON.stringify(Object.fromEntries(keys.map((k) => [k, o[k]])));
  },
  (l, r) => {
    const i = Math.floor(r() * l.length);
    return l.slice(0, i) + l.slice(i + 1);
  },
  (l, r) => {
    const i = Math.floor(r() * l.length);
    return l.slice(0, i) + String.fromCharCode(32 + Math.floor(r() * 95)) + l.slice(i + 1);
  },
];

/** The line's bytes, sometimes with an invalid UTF-8 byte inside a string. */
export function bytesOf(text: string, r: () => number): Buffer {
  const b = Buffer.from(text, 'utf8');
  if (r() < 0.05) {
    const q = b.indexOf(34, 10);
    if (q > 0) b[q + 1] = 0xff;
  }
  return b;
}

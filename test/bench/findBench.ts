// Find over blob text: a murmur session whose inferences each name a distinct message blob, about
// BENCH_FIND_MB (default 100) MB of blob text in all. Find for a phrase no blob holds reads every byte; its
// time is put against a floor measured in the same run: reading the same files with the same chunk size and
// doing nothing else. The target is find <= 2x the floor, with progress reported along the way.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobStore } from '../../src/core/blobs';
import { findInBlobs } from '../../src/core/find/findInBlobs';
import { compileTextQuery } from '../../src/core/find/textSearch';
import { loadTrace } from '../../src/core/loadTrace';

const BLOB_BYTES = 256 * 1024;
const WORDS = (
  'the agent reads a file and runs the tool; output of the shell shows an error when the test fails, then a patch ' +
  'makes it pass. Déjà vu: a naïve fix "quoted" here, {"json": [1, 2]} there, line\nbreaks and tabs\t too, ' +
  'npm install, git diff, src/index.ts:42:7, TypeError: cannot read properties of undefined (reading "x")'
).split(' ');

/** A deterministic message blob of about BLOB_BYTES: JSON with a long text field of shuffled prose (xorshift). */
function blobText(n: number): string {
  const parts: string[] = [];
  let length = 0;
  let x = (n + 1) * 0x9e3779b9;
  while (length < BLOB_BYTES - 64) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const w = WORDS[(x >>> 0) % WORDS.length];
    parts.push(w);
    length += w.length + 1;
  }
  return JSON.stringify({ role: 'user', content: parts.join(' ') });
}

/** Writes the session (trace.jsonl and blobs/) once; returns the trace's path and the blob paths. */
function generate(dir: string, mb: number): { trace: string; blobs: string[] } {
  const session = join(dir, `find-blobs-v2-${mb}mb`);
  const trace = join(session, 'trace.jsonl');
  const count = Math.ceil((mb * 2 ** 20) / BLOB_BYTES);
  const blobs: string[] = [];
  const lines: string[] = [];
  const evt = (n: number) => 'evt_' + n.toString(16).padStart(32, '0');
  const ses = 'ses_' + 'c'.repeat(32);
  const fresh = !existsSync(trace);
  mkdirSync(join(session, 'blobs'), { recursive: true });
  lines.push(JSON.stringify({ event_type: 'session_start', event_id: evt(0), parent_id: null, session_id: ses, timestamp: 1767225600000, capsule_name: 'bench', model: 'claude-sonnet-4-5' }));
  for (let i = 0; i < count; i++) {
    const text = blobText(i);
    const digest = createHash('sha256').update(text).digest('hex');
    const path = join(session, 'blobs', digest);
    blobs.push(path);
    if (fresh) writeFileSync(path, text);
    lines.push(JSON.stringify({ event_type: 'inference', event_id: evt(i + 1), parent_id: evt(0), session_id: ses, timestamp: 1767225600001 + i, turn: i, input_tokens: 10, output_tokens: 1, message_shas: [digest] }));
  }
  if (fresh) writeFileSync(trace, lines.join('\n') + '\n');
  return { trace, blobs };
}

/** The floor: read every blob in 1 MiB chunks, as find does, and nothing else. */
async function readAll(paths: string[]): Promise<number> {
  const buf = Buffer.allocUnsafe(1 << 20);
  let total = 0;
  for (const p of paths) {
    const fh = await open(p, 'r');
    try {
      for (let pos = 0; ; ) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        total += bytesRead;
      }
    } finally {
      await fh.close();
    }
  }
  return total;
}

/** `npm run bench` section. */
export async function runBench(dir: string): Promise<void> {
  const mb = Number(process.env.BENCH_FIND_MB ?? 100);
  const { trace, blobs } = generate(dir, mb);
  const model = await loadTrace(trace);
  const store = await BlobStore.open(trace, model.format);
  console.log(`find in blobs: ${blobs.length} blobs, ${mb} MB of blob text, ${model.events.size} events`);
  for (const [name, q] of [
    ['plain, ignore case', compileTextQuery('no such phrase anywhere', { caseSensitive: false, regex: false })],
    ['plain, match case', compileTextQuery('no such phrase anywhere', { caseSensitive: true, regex: false })],
    ['regex', compileTextQuery('no\\s+such\\s+phr[a-z]se', { caseSensitive: false, regex: true })],
  ] as const) {
    // Best of three for both, alternating, so the page cache is equally warm for each.
    let floor = Infinity;
    let find = Infinity;
    let progress = 0;
    let bytes = 0;
    for (let round = 0; round < 3; round++) {
      let t = performance.now();
      bytes = await readAll(blobs);
      floor = Math.min(floor, performance.now() - t);
      progress = 0;
      t = performance.now();
      const r = await findInBlobs(model, store, q, { onProgress: () => progress++ });
      find = Math.min(find, performance.now() - t);
      if (r.hits.length !== 0 || r.bytesRead !== bytes) throw new Error(`find read ${r.bytesRead} of ${bytes} bytes, ${r.hits.length} hits`);
    }
    const ratio = find / floor;
    console.log(
      `  ${name}: find ${(find / 1000).toFixed(2)} s (${(bytes / 2 ** 20 / (find / 1000)).toFixed(0)} MB/s), read floor ${(floor / 1000).toFixed(2)} s, ` +
        `ratio ${ratio.toFixed(2)}x (target <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}), ${progress} progress reports`,
    );
  }
}

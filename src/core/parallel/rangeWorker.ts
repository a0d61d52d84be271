/**
 * The body of a worker thread that reads newline-aligned pieces of a trace, in file order: splits lines, checks
 * their bytes, parses them and posts their facts (see ../lineFacts.ts) in batches. It knows nothing of the format
 * beyond the JSON paths its builder reads, so every cross-line decision stays in the main thread's one ordered pass.
 * The thread itself is the platform's: the Node entry `src/node/rangeWorker.ts` hands its job and port to
 * {@link runRangeWorker}.
 */
import { Buffer } from 'buffer';
import { LineSpan, scanLines } from '../lineIndexer';
import { readBuffers } from '../byteSource';
import { parseDecodedLine } from '../json/jsonLine';
import { lineByteFindings } from '../lineFindings';
import { FactWriter, planFields } from '../lineFacts';
import { LineKind, RangeBatch, RangeJob } from './rangeMessages';
import { RangeDigester } from './rangeDigest';
import { formatModule } from '../formats';

const BATCH_LINES = 8192;
const CHUNK_BYTES = 1 << 20;
/**
 * Batches posted but not yet taken by the main thread before this worker waits: the main thread takes pieces in
 * file order (reading its own in between), so without a bound a fast worker would queue all its pieces. Six
 * batches hold a few of a worker's pieces (a round is 8 MiB): enough to keep it busy while the main thread reads.
 */
const IN_FLIGHT = 6;

/** Where a worker posts its batches: the worker thread's port to the thread that started it. */
export interface RangeWorkerPort {
  postMessage(message: RangeBatch | { error: string }, transfer?: ArrayBuffer[]): void;
}

/** Reads the job's pieces and posts their batches to `port`; a failure is posted as `{ error }`. */
export function runRangeWorker(job: RangeJob, port: RangeWorkerPort): Promise<void> {
  return run(job, port).catch((err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }));
}

async function run(job: RangeJob, port: RangeWorkerPort): Promise<void> {
  const plan = planFields(job.fields);
  const digester = job.digest ? new RangeDigester(job.digest) : null;
  const scanner = job.format ? formatModule(job.format).lineScanner?.(plan) ?? null : null;
  let piece = job.pieces[0]?.piece ?? 0;
  let batch = newBatch(piece, digester !== null);
  let facts = new FactWriter(plan, BATCH_LINES);
  const taken = new Int32Array(job.taken);
  let sent = 0;
  const flush = (): void => {
    const fb = facts.take();
    const out: RangeBatch = { ...batch, facts: fb };
    const buffers = [out.kinds, out.offsets, out.lengths, out.flags, out.factRows, fb.tags, fb.numbers, fb.strings].map((a) => a.buffer as ArrayBuffer);
    if (digester) {
      const d = digester.take();
      out.digest = d.columns;
      buffers.push(out.digestRows!.buffer as ArrayBuffer, ...d.transfer);
    }
    port.postMessage(out, buffers);
    batch = newBatch(piece, digester !== null);
    facts = new FactWriter(plan, BATCH_LINES);
    sent++;
    // Blocking is fine in a worker; the timeout re-checks, so a terminate() is never stuck behind the wait.
    for (let seen = Atomics.load(taken, 0); sent - seen > IN_FLIGHT; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen, 200);
  };
  const onLine = (span: LineSpan, bytes: Buffer | null, utf8: boolean): void => {
    const row = batch.count++;
    batch.offsets[row] = span.offset;
    batch.lengths[row] = span.length;
    batch.flags[row] = (span.terminated ? 1 : 0) | (span.crlf ? 2 : 0) | (span.cr ? 4 : 0);
    // A line the format's scanner takes is valid UTF-8 JSON (no byte finding, without a lone CR): its facts and
    // digest come from its bytes, with no text decoded and no JSON.parse.
    if (scanner !== null && bytes !== null && !span.cr && scanner.read(bytes, utf8)) {
      const d = digester ? digester.addScanned(scanner, bytes) : 0;
      if (d >= 0) {
        batch.kinds[row] = LineKind.Facts;
        batch.factRows[row] = scanner.writeFacts(facts);
        if (digester) batch.digestRows![row] = d;
        if (batch.count === BATCH_LINES) flush();
        return;
      }
    }
    for (const f of lineByteFindings(span, bytes, utf8)) batch.findings.push({ row, finding: f });
    // Decoded once: the checks read the same text the single-thread path decodes (StreamLine).
    const text = bytes ? bytes.toString('utf8') : '';
    const parsed = parseDecodedLine(span, bytes, text, job.maxLineBytes);
    const value = parsed.kind === 'value' ? parsed.value : undefined;
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    batch.factRows[row] = -1;
    if (parsed.kind === 'blank') batch.kinds[row] = LineKind.Blank;
    else if (parsed.kind === 'malformed') {
      batch.kinds[row] = LineKind.Malformed;
      batch.malformed.push({ row, finding: parsed.finding });
    } else if (isObject) {
      batch.kinds[row] = LineKind.Facts;
      batch.factRows[row] = facts.add(value);
    } else {
      batch.kinds[row] = LineKind.Json;
      batch.json.push(JSON.stringify(value));
    }
    if (digester) {
      const d = digester.add(text, isObject ? value : undefined, bytes ?? undefined);
      batch.digestRows![row] = d;
      if (d < 0) batch.texts!.push(text);
    }
    if (batch.count === BATCH_LINES) flush();
  };
  const chunks = readBuffers(CHUNK_BYTES, true);
  for (const p of job.pieces) {
    piece = p.piece;
    batch.piece = piece;
    const scan = await scanLines(job.path, onLine, { startOffset: p.start, endOffset: p.end, maxLineBytes: job.maxLineBytes, chunkSize: CHUNK_BYTES, buffers: chunks });
    batch.done = { bytesRead: scan.bytesRead, lines: scan.lines, bom: scan.bom };
    flush();
  }
}

function newBatch(piece: number, digest: boolean): Omit<RangeBatch, 'facts'> {
  return {
    piece, count: 0, kinds: new Uint8Array(BATCH_LINES), offsets: new Float64Array(BATCH_LINES), lengths: new Float64Array(BATCH_LINES),
    flags: new Uint8Array(BATCH_LINES), findings: [], malformed: [], factRows: new Int32Array(BATCH_LINES), json: [],
    ...(digest ? { digestRows: new Int32Array(BATCH_LINES), texts: [] } : {}),
  };
}

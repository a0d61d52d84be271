import { Buffer } from 'buffer';
import type { ParsedLine } from '../json/jsonLine';
import type { DigestJob, LineExtra } from './rangeDigest';
import { LineSpan, scanLines } from '../lineIndexer';
import { NO_BYTE_FINDINGS } from '../lineFindings';
import { readBuffers } from '../byteSource';
import { platform, WorkerThread } from '../io/platform';
import { openTrace } from '../io/traceHandles';
import type { Finding, FormatName } from '../model';
import { FactReader, FieldPlan, planFields } from '../lineFacts';
import { LineKind, RangeBatch, RangeJob } from './rangeMessages';

/** Where a parallel read hands its lines, in file order: a reading (the loader's), or a streamed check run. */
export interface LineTaker {
  /** `extra`: with a digest job, the line's digest for the checks, or its text. */
  takeLine(span: LineSpan, byteFindings: readonly Finding[], parsed: ParsedLine, extra?: LineExtra): void;
  /** Reads one line on this thread (the lines of this thread's own pieces); `utf8`: its bytes are known valid UTF-8. */
  onLine(span: LineSpan, bytes: Buffer | null, utf8?: boolean): void;
}

/** Options of {@link readInParallel}. */
export interface ParallelReadOptions {
  workers: number;
  /** Digest each line for these checks too (a streamed verify or check). */
  digest?: DigestJob;
  /** The format being read: its `lineScanner` reads the lines it takes before JSON.parse does. */
  format?: FormatName;
  maxLineBytes: number;
  /** Chunk size of this thread's own reads. */
  chunkSize?: number;
  onProgress?: (bytesRead: number) => void;
  isCancelled?: () => boolean;
  /** Share of the bytes this thread reads itself (see {@link mainShare}); tests set it to place a piece boundary. */
  mainShare?: number;
  /** Bytes in one round of pieces (this thread's and one for each worker); default {@link ROUND_BYTES}. */
  roundBytes?: number;
}

/** What the parallel part of a read saw. */
export interface ParallelReadResult {
  bytesRead: number;
  lines: number;
  cancelled: boolean;
  /** The first range began at offset 0 and its file starts with a byte-order mark. */
  bom: boolean;
}

/**
 * Bytes of one round: this thread's piece, then one piece for each worker. Small enough that a worker's piece
 * waits in its queue as a few batches only (bounded memory), large enough that opening a piece costs nothing.
 */
export const ROUND_BYTES = 8 << 20;

/**
 * The share of the bytes this thread parses itself, beside `workers` worker threads. This thread also runs the
 * format's builder (the cross-line pass) over every line and rebuilds the workers' lines from their facts, so it
 * takes less than an equal share: with one worker, 0.4 of the bytes; for a streamed verify, whose workers also hash
 * every line of theirs, 0.5. Measured on a 1M-event lumen trace with 2 cores, alternating: 0.4 was the fastest of
 * 0.25, 0.4 and 0.55 for check and summary; 0.5 beat 0.4 for verify in 5 runs of 5 (by about a tenth).
 */
export function mainShare(workers: number, digest?: DigestJob): number {
  const one = digest?.mode === 'verify' ? 0.5 : 0.4;
  return workers <= 1 ? one : one / workers;
}

/** One piece of the file: `[start, end)`, read by this thread (`worker` -1) or by a worker. */
export interface Piece {
  start: number;
  end: number;
  worker: number;
}

/**
 * Reads `[start, end)` of a plain JSONL file (`start` a line start, `line` its number) in newline-aligned pieces:
 * rounds of one piece for this thread, then one for each worker thread. Workers parse their pieces ahead and hand
 * back each line's facts; this thread reads its own pieces as a single-thread scan would, and takes the workers'
 * lines in between, so `reading` gets every line in file order: the format's builder (the cross-line pass) runs
 * here, once, over every line. Both cores parse while this thread builds.
 */
export async function readInParallel(path: string, reading: LineTaker, fields: readonly string[], at: { start: number; end: number; line: number }, options: ParallelReadOptions): Promise<ParallelReadResult> {
  const workerCount = Math.max(1, options.workers);
  const pieces = await planPieces(path, at.start, at.end, workerCount, options.mainShare ?? mainShare(workerCount, options.digest), options.roundBytes ?? ROUND_BYTES);
  const plan = planFields(fields);
  const queues: RangeBatch[][] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const taken: Int32Array[] = [];
  const workers: WorkerThread[] = [];
  for (let k = 0; k < workerCount; k++) {
    const mine = pieces.map((p, i) => (p.worker === k ? i : -1)).filter((i) => i >= 0);
    if (mine.length === 0) continue;
    queues[k] = [];
    taken[k] = new Int32Array(new SharedArrayBuffer(4));
    const job: RangeJob = {
      path, pieces: mine.map((i) => ({ piece: i, start: pieces[i].start, end: pieces[i].end })), fields, maxLineBytes: options.maxLineBytes,
      ...(options.format ? { format: options.format } : {}),
      taken: taken[k].buffer as SharedArrayBuffer, ...(options.digest ? { digest: options.digest } : {}),
    };
    const w = startWorker(job);
    w.onMessage((message) => {
      const m = message as RangeBatch | { error: string };
      if ('error' in m) failure = new Error(`a reading worker failed: ${m.error}`);
      else queues[k].push(m);
      wake?.();
    });
    w.onError((err) => {
      failure = err;
      wake?.();
    });
    workers.push(w);
  }
  let line = at.line;
  let bytesRead = at.start;
  let bom = false;
  const chunkSize = options.chunkSize ?? 1 << 20;
  const chunks = readBuffers(chunkSize, true);
  try {
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (failure) throw failure;
      if (options.isCancelled?.()) return { bytesRead, lines: line - at.line, cancelled: true, bom };
      if (piece.worker < 0) {
        const scan = await scanLines(path, (s, b, u) => reading.onLine(s, b, u), {
          startOffset: piece.start, endOffset: piece.end, startLine: line, maxLineBytes: options.maxLineBytes, chunkSize, buffers: chunks,
          onProgress: options.onProgress, isCancelled: options.isCancelled,
        });
        line += scan.lines;
        bytesRead = scan.bytesRead;
        if (i === 0) bom = scan.bom;
        if (scan.cancelled) return { bytesRead, lines: line - at.line, cancelled: true, bom };
        continue;
      }
      const queue = queues[piece.worker];
      for (let rowBase = 0; ;) {
        while (queue.length === 0 && !failure) await new Promise<void>((r) => (wake = r));
        if (failure) throw failure;
        if (options.isCancelled?.()) return { bytesRead, lines: line - at.line, cancelled: true, bom };
        const batch = queue.shift()!;
        if (batch.piece !== i) throw new Error(`a reading worker sent piece ${batch.piece} where ${i} was due`);
        takeBatch(reading, plan, batch, line + rowBase);
        Atomics.add(taken[piece.worker], 0, 1);
        Atomics.notify(taken[piece.worker], 0);
        rowBase += batch.count;
        if (batch.count > 0) bytesRead = batch.offsets[batch.count - 1] + batch.lengths[batch.count - 1];
        freeBatch(batch);
        if (batch.done) {
          line += batch.done.lines;
          if (i === 0) bom = batch.done.bom;
          bytesRead = batch.done.bytesRead;
          options.onProgress?.(bytesRead);
          break;
        }
        options.onProgress?.(bytesRead);
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { bytesRead, lines: line - at.line, cancelled: false, bom };
}

/**
 * Splits `[start, end)` into rounds of `roundBytes` (one round for a smaller range): in each, a piece of `share`
 * of the round for this thread (none when `share` is 0), then equal pieces for each of `workers`. Each cut is just
 * after a line feed (a cut that would fall in the same line as the one before is dropped, its bytes going to the
 * piece before).
 */
export async function planPieces(path: string, start: number, end: number, workers: number, share: number, roundBytes: number): Promise<Piece[]> {
  const total = end - start;
  const rounds = Math.max(1, Math.round(total / roundBytes));
  const targets: { at: number; worker: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    const from = start + (total * r) / rounds;
    const size = total / rounds;
    if (share > 0) targets.push({ at: Math.floor(from), worker: -1 });
    for (let k = 0; k < workers; k++) targets.push({ at: Math.floor(from + size * (share + ((1 - share) * k) / workers)), worker: k });
  }
  const cuts = await cutsAfterLineFeeds(path, targets.slice(1).map((t) => t.at), start, end);
  const pieces: Piece[] = [];
  let from = start;
  for (let t = 0; t < targets.length; t++) {
    const to = t + 1 < targets.length ? cuts[t] : end;
    if (to > from) pieces.push({ start: from, end: to, worker: targets[t].worker });
    from = Math.max(from, to);
  }
  return pieces;
}

/**
 * For each probe position (ascending), the offset just after the first line feed at or after it, never before the
 * cut before it; `end` when there is none before `end`.
 */
async function cutsAfterLineFeeds(path: string, probes: readonly number[], start: number, end: number): Promise<number[]> {
  const cuts: number[] = [];
  const handle = await openTrace(path);
  try {
    const probe = Buffer.allocUnsafe(64 * 1024);
    let last = start;
    for (const at of probes) {
      let pos = Math.max(last, at);
      let cut = -1;
      while (cut < 0 && pos < end) {
        const { bytesRead } = await handle.read(probe, 0, Math.min(probe.length, end - pos), pos);
        if (bytesRead === 0) break;
        const lf = probe.subarray(0, bytesRead).indexOf(10);
        if (lf >= 0) cut = pos + lf + 1;
        pos += bytesRead;
      }
      last = cut < 0 ? end : cut;
      cuts.push(last);
    }
  } finally {
    await handle.close();
  }
  return cuts;
}

/** Hands one batch's lines to the reading, numbering them from `firstLine`. */
function takeBatch(reading: LineTaker, plan: FieldPlan, b: RangeBatch, firstLine: number): void {
  let f = 0;
  let m = 0;
  let json = 0;
  let text = 0;
  const facts = new FactReader(plan, b.facts);
  for (let row = 0; row < b.count; row++) {
    const lineNo = firstLine + row;
    const flags = b.flags[row];
    const span: LineSpan = { line: lineNo, offset: b.offsets[row], length: b.lengths[row], terminated: (flags & 1) !== 0, crlf: (flags & 2) !== 0 };
    if (flags & 4) span.cr = true;
    // Most lines have no byte finding: they share one empty list (the reading only copies from it).
    let byteFindings = NO_BYTE_FINDINGS;
    if (f < b.findings.length && b.findings[f].row === row) {
      const own: Finding[] = [];
      while (f < b.findings.length && b.findings[f].row === row) own.push({ ...b.findings[f++].finding, line: lineNo });
      byteFindings = own;
    }
    let parsed: ParsedLine;
    switch (b.kinds[row]) {
      case LineKind.Blank: parsed = { kind: 'blank' }; break;
      case LineKind.Malformed: parsed = { kind: 'malformed', finding: { ...b.malformed[m++].finding, line: lineNo } }; break;
      case LineKind.Json: parsed = { kind: 'value', value: JSON.parse(b.json[json++]) }; break;
      default: parsed = { kind: 'value', value: facts.read(b.factRows[row]) };
    }
    if (!b.digestRows) reading.takeLine(span, byteFindings, parsed);
    else if (b.digestRows[row] >= 0) reading.takeLine(span, byteFindings, parsed, { digest: { columns: b.digest!, row: b.digestRows[row] } });
    else reading.takeLine(span, byteFindings, parsed, { text: b.texts![text++] });
  }
}

/**
 * Frees the line and fact arrays of a batch that was read. They came from a worker and waited in the queue long
 * enough to be promoted to the old generation, so they would stay until the next full GC (about 30 MB of them at
 * the peak of a 1M-event lumen verify with 1 worker); transferred to a clone that nobody keeps, they go at the next
 * minor one. The digest columns stay: a check keeps the last line's row to link the next line to.
 */
function freeBatch(b: RangeBatch): void {
  const arrays = [b.kinds, b.offsets, b.lengths, b.flags, b.factRows, b.facts.tags, b.facts.numbers, b.facts.strings];
  if (b.digestRows) arrays.push(b.digestRows);
  structuredClone(null, { transfer: arrays.map((a) => a.buffer as ArrayBuffer) });
}

/** Starts a range worker (`src/node/rangeWorker.ts`, through the platform) on its job. */
function startWorker(job: RangeJob): WorkerThread {
  // A worker's default young generation. Before this thread read a share of the pieces itself, the one worker
  // parsed every line and 48 MB kept its scavenges down; now this thread is the slower one, and 16 MB costs no
  // time while it keeps about 35 MiB less (measured on a 1M-event lumen check: 223–225 against 255–262 MiB peak).
  return platform().startWorker('rangeWorker', job, { maxYoungGenerationSizeMb: 16 });
}

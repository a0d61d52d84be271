import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParsedLine } from '../json/jsonLine';
import type { DigestJob, LineExtra } from '../stream/rangeDigest';
import type { LineSpan } from '../lineIndexer';
import type { Finding } from '../model';
import { FieldPlan, planFields, readFacts } from './lineFacts';
import { LineKind, RangeBatch, RangeJob } from './rangeMessages';

/** Where a parallel read hands its lines, in file order: a reading (the loader's), or a streamed check run. */
export interface LineTaker {
  /** `extra`: with a digest job, the line's digest for the checks, or its text. */
  takeLine(span: LineSpan, byteFindings: Finding[], parsed: ParsedLine, extra?: LineExtra): void;
}

/** Options of {@link readInParallel}. */
export interface ParallelReadOptions {
  workers: number;
  /** Digest each line for these checks too (a streamed verify or check). */
  digest?: DigestJob;
  maxLineBytes: number;
  onProgress?: (bytesRead: number) => void;
  isCancelled?: () => boolean;
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
 * Reads `[start, end)` of a plain JSONL file (`start` a line start, `line` its number) in worker threads, one
 * newline-aligned range each, and hands every line to `reading` in file order, exactly as a single-thread scan
 * would: the format's builder (the cross-line pass) runs here, over the facts the workers extracted.
 */
export async function readInParallel(path: string, reading: LineTaker, fields: readonly string[], at: { start: number; end: number; line: number }, options: ParallelReadOptions): Promise<ParallelReadResult> {
  const bounds = await rangeBounds(path, at.start, at.end, Math.max(1, options.workers));
  const plan = planFields(fields);
  const queues: RangeBatch[][] = bounds.slice(1).map(() => []);
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const taken = queues.map(() => new Int32Array(new SharedArrayBuffer(4)));
  const workers = queues.map((_, range) => {
    const job: RangeJob = {
      path, range, start: bounds[range], end: bounds[range + 1], fields, maxLineBytes: options.maxLineBytes, taken: taken[range].buffer as SharedArrayBuffer,
      ...(options.digest ? { digest: options.digest } : {}),
    };
    const w = startWorker(job);
    w.on('message', (m: RangeBatch | { error: string }) => {
      if ('error' in m) failure = new Error(`a reading worker failed: ${m.error}`);
      else queues[m.range].push(m);
      wake?.();
    });
    w.on('error', (err) => {
      failure = err;
      wake?.();
    });
    return w;
  });
  let line = at.line;
  let bytesRead = at.start;
  let bom = false;
  try {
    for (let range = 0; range < queues.length; range++) {
      for (let rowBase = 0; ;) {
        while (queues[range].length === 0 && !failure) await new Promise<void>((r) => (wake = r));
        if (failure) throw failure;
        if (options.isCancelled?.()) return { bytesRead, lines: line - at.line, cancelled: true, bom };
        const batch = queues[range].shift()!;
        takeBatch(reading, plan, batch, line + rowBase);
        Atomics.add(taken[range], 0, 1);
        Atomics.notify(taken[range], 0);
        rowBase += batch.count;
        if (batch.count > 0) bytesRead = batch.offsets[batch.count - 1] + batch.lengths[batch.count - 1];
        if (batch.done) {
          line += batch.done.lines;
          if (range === 0) bom = batch.done.bom;
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

const NO_FINDINGS: Finding[] = [];

/** Hands one batch's lines to the reading, numbering them from `firstLine`. */
function takeBatch(reading: LineTaker, plan: FieldPlan, b: RangeBatch, firstLine: number): void {
  let f = 0;
  let m = 0;
  let json = 0;
  let text = 0;
  for (let row = 0; row < b.count; row++) {
    const lineNo = firstLine + row;
    const flags = b.flags[row];
    const span: LineSpan = { line: lineNo, offset: b.offsets[row], length: b.lengths[row], terminated: (flags & 1) !== 0, crlf: (flags & 2) !== 0 };
    if (flags & 4) span.cr = true;
    // Most lines have no byte finding: they share one empty list (the reading only copies from it).
    let byteFindings = NO_FINDINGS;
    if (f < b.findings.length && b.findings[f].row === row) byteFindings = [];
    while (f < b.findings.length && b.findings[f].row === row) byteFindings.push({ ...b.findings[f++].finding, line: lineNo });
    let parsed: ParsedLine;
    switch (b.kinds[row]) {
      case LineKind.Blank: parsed = { kind: 'blank' }; break;
      case LineKind.Malformed: parsed = { kind: 'malformed', finding: { ...b.malformed[m++].finding, line: lineNo } }; break;
      case LineKind.Json: parsed = { kind: 'value', value: JSON.parse(b.json[json++]) }; break;
      default: parsed = { kind: 'value', value: readFacts(plan, b.facts, b.factRows[row]) };
    }
    if (!b.digestRows) reading.takeLine(span, byteFindings, parsed);
    else if (b.digestRows[row] >= 0) reading.takeLine(span, byteFindings, parsed, { digest: { columns: b.digest!, row: b.digestRows[row] } });
    else reading.takeLine(span, byteFindings, parsed, { text: b.texts![text++] });
  }
}

/** Splits `[start, end)` into up to `n` ranges, each ending just after a line feed (or at `end`). */
export async function rangeBounds(path: string, start: number, end: number, n: number): Promise<number[]> {
  const bounds = [start];
  const handle = await open(path, 'r');
  try {
    const probe = Buffer.allocUnsafe(64 * 1024);
    for (let k = 1; k < n; k++) {
      let pos = Math.max(bounds[bounds.length - 1], Math.floor(start + ((end - start) * k) / n));
      let cut = -1;
      while (cut < 0 && pos < end) {
        const { bytesRead } = await handle.read(probe, 0, Math.min(probe.length, end - pos), pos);
        if (bytesRead === 0) break;
        const lf = probe.subarray(0, bytesRead).indexOf(10);
        if (lf >= 0) cut = pos + lf + 1;
        pos += bytesRead;
      }
      if (cut < 0 || cut >= end) break;
      if (cut > bounds[bounds.length - 1]) bounds.push(cut);
    }
  } finally {
    await handle.close();
  }
  bounds.push(end);
  return bounds;
}

/** The worker script: the bundled `rangeWorker.js` beside this bundle, or the TypeScript source under tsx (tests). */
function startWorker(job: RangeJob): Worker {
  // Parsing makes short-lived garbage at a high rate: a larger young generation than a worker's default keeps
  // scavenges from dominating (measured: about half the worker's time on a 20 MB lumen trace).
  const resourceLimits = { maxYoungGenerationSizeMb: 48 };
  const js = join(__dirname, 'rangeWorker.js');
  if (existsSync(js)) return new Worker(js, { workerData: job, resourceLimits });
  return new Worker(join(__dirname, 'rangeWorker.ts'), { workerData: job, resourceLimits, execArgv: ['--require', 'tsx/cjs'] });
}

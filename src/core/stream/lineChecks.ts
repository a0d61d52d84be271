import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { formatModule } from '../formats';
import type { CheckMode, CheckSubject, StreamCheck } from '../checks/types';
import { parseLine } from '../json/jsonLine';
import { scanLines } from '../lineIndexer';
import type { Finding, FormatName } from '../model';
import { CheckFacts } from './checkFacts';
import { StreamLine } from './streamLine';

/** What a line-checks worker is given: the file, its format, the mode, the bytes to read and the BOM. */
export interface LineChecksJob {
  path: string;
  format: FormatName;
  mode: CheckMode;
  endOffset: number;
  bom: boolean;
}

/** A worker's answer: the format check's findings, or why it failed. */
export type LineChecksReply = { findings: Finding[] } | { error: string };

const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * Runs the format's own verifier or checker over the file's lines, apart from the reading: for a format whose rules
 * declare they read nothing but lines, the BOM and the reading's torn and too-long lines (`RuleModule.linesOnly`),
 * so they need neither the builder nor the events. Runs in a worker thread ({@link startLineChecks}) while the
 * calling thread reads the file for the other checks. The torn and too-long lines are the ones the reading would
 * report (parseLine's findings); a check reads nothing else of the diagnostics.
 */
export async function runLineChecks(job: LineChecksJob): Promise<Finding[]> {
  const rules = formatModule(job.format).rules!;
  const diagnostics: Finding[] = [];
  const subject: CheckSubject = { path: job.path, format: job.format, events: new CheckFacts(), diagnostics, lineCount: 0, bytesIndexed: 0, bom: job.bom, document: false };
  const ctx = { path: job.path, model: subject };
  const check: StreamCheck = job.mode === 'verify' ? rules.createVerifier!(ctx) : rules.createChecker!(ctx);
  const scan = await scanLines(job.path, (span, bytes) => {
    const parsed = parseLine(span, bytes, MAX_LINE_BYTES);
    if (parsed.kind === 'malformed') diagnostics.push(parsed.finding);
    check.add(new StreamLine(span.line, bytes, parsed));
  }, { endOffset: job.endOffset });
  Object.assign(subject, { lineCount: scan.lines, bytesIndexed: scan.bytesRead });
  return check.finish();
}

/**
 * Starts {@link runLineChecks} in a worker thread and gives a check whose `finish` waits for its findings: it
 * takes the place of the format's own check among the calling thread's checks (it is handed no lines).
 */
export function startLineChecks(job: LineChecksJob): StreamCheck {
  const worker = lineChecksWorker(job);
  const findings = new Promise<Finding[]>((resolve, reject) => {
    worker.once('message', (m: LineChecksReply) => ('error' in m ? reject(new Error(`a checks worker failed: ${m.error}`)) : resolve(m.findings)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`a checks worker exited with code ${code}`)));
  }).finally(() => void worker.terminate());
  // A failure surfaces in finish(); until then it must not count as unhandled.
  findings.catch(() => undefined);
  return { add() {}, finish: () => findings };
}

/** Whether the format's own rules can run apart from the reading in this mode. */
export function linesOnly(format: FormatName, mode: CheckMode): boolean {
  const rules = formatModule(format).rules;
  return rules?.linesOnly?.includes(mode) === true && (mode === 'verify' ? !!rules.createVerifier : !!rules.createChecker);
}

/** The worker script: the bundled `lineChecksWorker.js` beside this bundle, or the TypeScript source under tsx (tests). */
function lineChecksWorker(job: LineChecksJob): Worker {
  const js = join(__dirname, 'lineChecksWorker.js');
  if (existsSync(js)) return new Worker(js, { workerData: job });
  return new Worker(join(__dirname, 'lineChecksWorker.ts'), { workerData: job, execArgv: ['--require', 'tsx/cjs'] });
}

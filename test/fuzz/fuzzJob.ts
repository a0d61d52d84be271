import { writeFileSync } from 'node:fs';
import { runCliInProcess } from '../helpers/cliInProcess';
import { loadTrace } from '../../src/core/loadTrace';
import { firstChangedLine, OracleLine, oracleLines } from './oracle';

/** The verdict of one mutated file. */
export interface JobResult {
  lines: number;
  /** Problems found: crashes (exit 2, a thrown error, output that is not JSON) and wrong verdicts. */
  crashes: string[];
  missed: string[];
  falseMalformed: string[];
  chainMissed: string[];
  /** A file with at least one valid JSON line refused whole (exit 2, "not a JSONL trace"). */
  refused: string[];
  /** Figures: lines that parse as JSON, and whether the reader refused the file before crash damage was read
   * (a NUL byte in the first KB) and now. */
  validLines: number;
  refusedBefore: boolean;
  refusedNow: boolean;
  ms: number;
}

interface CliFinding { rule: string; severity: string; line: number; message: string }

// Findings that say "this line is not JSON". Lumen also calls a JSON line that serde refuses (an array, a repeated
// key, a lone surrogate, a BOM upstream does not skip, nesting past serde's limit) "invalid JSON in trace": those
// lines are JSON to the oracle but broken for lumen, so they are not counted as false.
const NOT_JSON = /not valid JSON|not complete JSON|EOF while parsing|invalid JSON in trace at line \d+: (?!duplicate field|.*surrogate|number out of range|recursion limit|invalid unicode|expected a JSON object|.*byte-order mark)/i;

/**
 * Writes a mutated file, runs summary, tree, verify and check (`--json`) on it in this process and holds every
 * result against the oracle: no crash, every broken line reported at its line, no valid line called malformed,
 * and for lumen (when the original verified) an error at or before the first changed line.
 */
export async function runJob(path: string, bytes: Buffer, original: { lines: OracleLine[]; lumenIntact: boolean; inPlace: boolean } | null): Promise<JobResult> {
  const t0 = Date.now();
  writeFileSync(path, bytes);
  const oracle = oracleLines(bytes);
  const validLines = oracle.filter((o) => !o.broken && !o.blank).length;
  // The reader used to refuse any file with a NUL byte in its first KB as binary: the figure to compare with.
  const refusedBefore = bytes.subarray(0, 1024).includes(0);
  const r: JobResult = { lines: oracle.length, crashes: [], missed: [], falseMalformed: [], chainMissed: [], refused: [], validLines, refusedBefore, refusedNow: false, ms: 0 };
  const tag = (s: string) => `${path}: ${s}`;
  const outputs: Record<string, unknown> = {};
  // The reader refuses only what is not text (one line, exit 2): a file with a valid JSON line is never refused
  // (a zeroed block or a NUL byte is damage to its lines, flagged at them); one without may be, and the oracle
  // has nothing to compare then.
  for (const cmd of ['summary', 'tree', 'verify', 'check']) {
    try {
      const res = await runCliInProcess(cmd, '--json', path);
      if (res.code === 2 && /, not a JSONL trace\n$/.test(res.err)) {
        r.refusedNow = true;
        if (validLines > 0 && cmd === 'summary') r.refused.push(tag(`refused with ${validLines} valid lines: ${res.err.trim()}`));
        continue;
      }
      if (res.code !== 0 && res.code !== 1) r.crashes.push(tag(`${cmd} exit ${res.code}: ${res.err.trim()}`));
      else outputs[cmd] = JSON.parse(res.out);
    } catch (e) {
      r.crashes.push(tag(`${cmd} threw ${e instanceof Error ? e.stack : String(e)}`));
    }
  }
  if (r.refusedNow && Object.keys(outputs).length === 0) return { ...r, ms: Date.now() - t0 };
  let model;
  try {
    model = await loadTrace(path);
  } catch (e) {
    r.crashes.push(tag(`loadTrace threw ${String(e)}`));
    r.ms = Date.now() - t0;
    return r;
  }
  if (model.document) return { ...r, ms: Date.now() - t0 };
  const loaderMalformed = new Set(model.malformed.map((m) => m.line));
  const verify = outputs.verify as { format: string; findings: CliFinding[] } | undefined;
  const byLine = new Map<number, CliFinding[]>();
  for (const f of verify?.findings ?? []) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
  for (const o of oracle) {
    const at = byLine.get(o.line) ?? [];
    if (o.broken && !loaderMalformed.has(o.line)) r.missed.push(tag(`line ${o.line} is not JSON but the loader read it`));
    if (o.broken && verify && !at.some((f) => f.severity !== 'info')) r.missed.push(tag(`line ${o.line} is not JSON and verify reports nothing there`));
    if (o.badUtf8 && !model.diagnostics.some((d) => d.rule === 'parse/invalid-utf8' && d.line === o.line)) r.missed.push(tag(`line ${o.line} has invalid UTF-8, not reported`));
    if (!o.broken && loaderMalformed.has(o.line)) r.falseMalformed.push(tag(`line ${o.line} is JSON but the loader called it malformed`));
    if (!o.broken && !o.blank && at.some((f) => NOT_JSON.test(f.message))) r.falseMalformed.push(tag(`line ${o.line} is JSON but verify says ${at.find((f) => NOT_JSON.test(f.message))!.message}`));
  }
  if (original?.lumenIntact && original.inPlace && verify?.format === 'lumen') {
    const changed = firstChangedLine(original.lines, oracle);
    if (changed !== null && !verify.findings.some((f) => f.severity === 'error' && f.line <= changed)) r.chainMissed.push(tag(`lumen: line ${changed} changed, no error at or before it`));
  }
  r.ms = Date.now() - t0;
  return r;
}

import { diffTraces, equivalent, TraceDiff, DiffOp } from '../core/diff/diffTraces';
import { DEFAULT_DIFF_THRESHOLDS } from '../core/diff/diffTypes';
import { divergenceLines, traceDiffJsonPieces } from '../core/diff/diffJson';
import { LineDigests } from '../core/diff/lineDigests';
import { formatDuration } from '../core/display';
import { parseArgs, UsageError } from './args';
import { loadForCli, write, writeHuman, writePieces } from './io';
import { pricingOption } from './pricingOption';

export const DIFF_HELP = `Usage: agent-trace diff A B [--json] [--include-volatile] [--context N] [--pricing FILE]
                        [--duration-threshold MS] [--token-threshold N]

Compares two runs: aligns their events parent by parent on what they did (kind, tool or model, arguments,
depth), never on ids or times, so one inserted step shifts nothing after it. Prints where the runs first part,
then the differing events with N equal events of context (default 3): '-' only in A, '+' only in B, '~' changed
(with the fields that differ), and the duration, token and cost deltas (B − A). Two matching events whose
durations or tokens differ past a threshold are a change too (field "durationMs" or "tokens"): by at least
MS milliseconds (default 1000) or N tokens (default 100), and by at least 10% of the larger value.

  --json               machine-readable output:
    {"a": {"file", "format", "events"}, "b": {…}, "firstDivergence": {"aLine", "bLine"} | null,
     "ops": [{"op": "equal"|"insert"|"delete"|"change", "aLine"?, "bLine"?, "kind", "label", "depth",
              "fields"?: [{"path", "a"?, "b"?}], "fieldsOmitted"?, "durationDeltaMs"?, "tokensDelta"?, "costDeltaUsd"?}],
     "summary": {"equal", "inserted", "deleted", "changed", "durationDeltaMs", "tokensDelta", "costDeltaUsd",
                 "thresholdChanges": {"duration", "durationDeltaMs", "tokens", "tokensDelta",
                                      "thresholds": {"durationMs", "tokens", "ratio"}}},
     "malformed"?: {"a": {"count", "lines"}, "b": {…}, "firstDifference": {"aLine", "bLine"} | null}}
    ops are the merged tree in preorder; a line is absent on the side the event is missing from, a field's
    "a" or "b" when that event has no such field; a delta is absent (summary: null) when unknown.
    thresholdChanges counts the events flagged for their duration or tokens and sums their deltas.
    firstDivergence gives each side's event there or, for an event only one side has, the next one.
    malformed lists each run's lines that are not JSON (absent when neither has one); firstDifference is the
    first pair, in file order, whose text differs (a line null on the side that has fewer).
  --include-volatile   compare ids, timestamps and hashes too (left out by default)
  --context N          equal events shown around each difference (human output)
  --pricing FILE       prices per model (as for summary), looked up before the bundled table
  --duration-threshold MS  least duration difference of two matching events that is a change (default 1000)
  --token-threshold N      least token difference of two matching events that is a change (default 100)
Exit codes: 0 equivalent (same events and the same unreadable lines), 1 the runs differ, 2 unreadable file or
bad usage.`;

const MARK: Record<DiffOp['op'], string> = { equal: ' ', insert: '+', delete: '-', change: '~' };

function signed(n: number | null, unit = ''): string {
  if (n === null) return '?';
  return `${n > 0 ? '+' : ''}${Number.isInteger(n) ? n : n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 6 : 2)}${unit}`;
}

function signedDuration(ms: number | null): string {
  if (ms === null) return '?';
  return `${ms > 0 ? '+' : ms < 0 ? '-' : ''}${formatDuration(Math.abs(ms))}`;
}

function opLine(d: TraceDiff, op: DiffOp): string {
  const m = op.a >= 0 ? d.a : d.b;
  const i = op.a >= 0 ? op.a : op.b;
  const where = [op.a >= 0 ? `A ${d.a.events.lineOf(op.a)}` : '', op.b >= 0 ? `B ${d.b.events.lineOf(op.b)}` : ''].filter(Boolean).join(', ');
  const deltas = op.op === 'equal' ? [] : [
    ...(op.durationDeltaMs !== null && op.durationDeltaMs !== 0 ? [`${signedDuration(op.durationDeltaMs)}`] : []),
    ...(op.tokensDelta !== null && op.tokensDelta !== 0 ? [`${signed(op.tokensDelta)} tokens`] : []),
  ];
  return `${MARK[op.op]} ${'  '.repeat(op.depth)}${m.events.labelOf(i)}  [${where}]${deltas.length ? '  (' + deltas.join(', ') + ')' : ''}`;
}

function fieldLines(op: DiffOp): string[] {
  const pad = '    ' + '  '.repeat(op.depth);
  const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
  const out = (op.fields ?? []).map((f) => `${pad}${f.path}: ${show(f.a)} → ${show(f.b)}`);
  if (op.fieldsOmitted) out.push(`${pad}… ${op.fieldsOmitted} more fields`);
  return out;
}

/** The human report: differing events with `context` equal ones around them, runs of equal ones folded. */
export function diffText(d: TraceDiff, context: number): string[] {
  const out = [`A: ${d.a.path} (${d.a.format}, ${d.a.events.size} events)`, `B: ${d.b.path} (${d.b.format}, ${d.b.events.size} events)`];
  const j = divergenceLines(d);
  const m = d.malformed;
  out.push(equivalent(d) ? 'equivalent: no differences' : j === null ? 'events equivalent, but the unreadable lines differ' : `first divergence: A line ${j.aLine ?? 'end'}, B line ${j.bLine ?? 'end'}`);
  if (m.a.length > 0 || m.b.length > 0) {
    const lines = (xs: number[]) => (xs.length === 0 ? '0' : `${xs.length} (line${xs.length === 1 ? '' : 's'} ${xs.slice(0, 10).join(', ')}${xs.length > 10 ? ', …' : ''})`);
    out.push(`unreadable lines (not JSON): A ${lines(m.a)}, B ${lines(m.b)}`);
    const f = m.firstDifference;
    if (f) out.push(`unreadable lines differ: A line ${f.aLine ?? 'none'}, B line ${f.bLine ?? 'none'}`);
  }
  const near = new Uint8Array(d.ops.length);
  d.ops.forEach((op, k) => {
    if (op.op !== 'equal') for (let x = Math.max(0, k - context); x <= Math.min(d.ops.length - 1, k + context); x++) near[x] = 1;
  });
  let folded = 0;
  for (let k = 0; k < d.ops.length; k++) {
    if (!near[k]) {
      folded++;
      continue;
    }
    if (folded > 0) out.push(`  … ${folded} equal events`);
    folded = 0;
    out.push(opLine(d, d.ops[k]), ...fieldLines(d.ops[k]));
  }
  if (folded > 0 && d.firstDivergence >= 0) out.push(`  … ${folded} equal events`);
  const s = d.summary;
  out.push(`equal ${s.equal}, inserted ${s.inserted}, deleted ${s.deleted}, changed ${s.changed}; duration ${signedDuration(s.durationDeltaMs)}, tokens ${signed(s.tokensDelta)}, cost ${s.costDeltaUsd === null ? '?' : signed(s.costDeltaUsd, ' USD')}`);
  return out;
}

/** A threshold option: a whole number of ms or tokens, at most nine digits. */
function thresholdOption(text: string | undefined, name: string, dflt: number): number {
  if (text === undefined) return dflt;
  if (!/^\d{1,9}$/.test(text)) throw new UsageError(`${name} needs a whole number, not ${text}`);
  return Number(text);
}

/** `agent-trace diff`. */
export async function diffCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--json', '--help', '--include-volatile'], ['--context', '--pricing', '--duration-threshold', '--token-threshold']);
  if (args.flags.has('--help')) return write(DIFF_HELP + '\n').then(() => 0);
  if (args.positional.length !== 2) throw new UsageError('diff takes exactly two files, A and B');
  const ctxText = args.options.get('--context') ?? '3';
  if (!/^\d{1,6}$/.test(ctxText)) throw new UsageError(`--context needs a whole number, not ${ctxText}`);
  const thresholds = { durationMs: thresholdOption(args.options.get('--duration-threshold'), '--duration-threshold', DEFAULT_DIFF_THRESHOLDS.durationMs), tokens: thresholdOption(args.options.get('--token-threshold'), '--token-threshold', DEFAULT_DIFF_THRESHOLDS.tokens) };
  const prices = await pricingOption(args.options.get('--pricing'));
  const includeVolatile = args.flags.has('--include-volatile');
  // Each run's lines are digested as it loads: one read per file. The diff asks every event's label at least
  // twice (digest, output): kept labels cost memory once instead of a line read and parse per ask.
  const lineDigests = { a: new LineDigests({ includeVolatile }), b: new LineDigests({ includeVolatile }) };
  const a = await loadForCli(args.positional[0], { onRecord: lineDigests.a.add, storeLabels: true });
  const b = await loadForCli(args.positional[1], { onRecord: lineDigests.b.add, storeLabels: true });
  const d = await diffTraces(a, b, { includeVolatile, prices, lineDigests, thresholds });
  const code = equivalent(d) ? 0 : 1;
  if (args.flags.has('--json')) await writePieces(traceDiffJsonPieces(d));
  else await writeHuman(diffText(d, Number(ctxText)).join('\n') + '\n');
  return code;
}

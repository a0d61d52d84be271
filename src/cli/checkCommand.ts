import { runChecks, CheckResult } from '../core/checks/runChecks';
import { CheckMode } from '../core/checks/types';
import { formatModule } from '../core/formats';
import { parseArgs, UsageError } from './args';
import { formatOption, loadForCli, UnreadableError, write } from './io';
import { toSarif } from './sarif';
import { expandTraceFiles, SKIP_REASON_TEXT, TraceFileExpansion } from '../core/traceFiles';

const JSON_SHAPE = `{"format": NAME, "ok": bool, "checked": n, "findings": [{"rule", "severity", "line", "seq"?, "eventId"?, "message"}], "file": PATH}`;

export const VERIFY_HELP = `Usage: agent-trace verify FILE|DIR… [--json] [--format NAME]

Verifies integrity: hash chains (lumen), sequence numbers, payload digests and ledger links (agentledger),
parent links and blob digests (murmur), kernel journal digests (deepstrike), unique ids and parents.
With --json, one object per file: ${JSON_SHAPE}
(a single FILE prints one object; several files or a directory print an array).
A directory takes its .jsonl, .ndjson and OTLP files (also as .gz), and the other .json files that detect as a
trace format with confidence; one line per reason says what it skipped (on stderr with --json).
Exit codes: 0 intact, 1 any error finding, 2 unreadable file or bad usage.`;

export const CHECK_HELP = `Usage: agent-trace check FILE|DIR… [--json | --sarif] [--format NAME]

Checks conformance to the runtime's rules (state machines, pairing, totals, schemas); see docs/rules.md.
With --json, one object per file: ${JSON_SHAPE}
With --sarif, a SARIF 2.1.0 log for CI systems.
Directories are walked as for verify; what they skipped is said on stdout, or on stderr with --json/--sarif.
Exit codes: 0 no error finding, 1 any error finding, 2 unreadable file or bad usage.`;

/** `agent-trace verify` and `agent-trace check`. */
export function makeCheckCommand(mode: CheckMode, help: string, version: string) {
  return async (argv: string[]): Promise<number> => {
    const flags = mode === 'check' ? ['--json', '--sarif', '--help'] : ['--json', '--help'];
    const args = parseArgs(argv, flags, ['--format']);
    if (args.flags.has('--help')) return write(help + '\n').then(() => 0);
    if (args.positional.length === 0) throw new UsageError(`${mode} takes at least one FILE or directory`);
    if (args.flags.has('--json') && args.flags.has('--sarif')) throw new UsageError('--json and --sarif exclude each other');
    const format = formatOption(args.options.get('--format'));
    const expansion = await expandTraceFiles(args.positional);
    const files = expansion.files;
    const machine = args.flags.has('--json') || args.flags.has('--sarif');
    if (files.length === 0) {
      process.stderr.write(skippedLines(expansion));
      throw new UnreadableError(`${args.positional.join(' ')}: no trace files found`);
    }
    const results: CheckResult[] = [];
    let unreadable = false;
    for (const file of files) {
      try {
        const model = await loadForCli(file, { format });
        results.push(await runChecks(model, mode));
      } catch (err) {
        if (!(err instanceof UnreadableError)) throw err;
        process.stderr.write(`agent-trace: ${err.message}\n`);
        unreadable = true;
      }
    }
    const single = files.length === 1 && args.positional.length === 1 && results.length === 1 && files[0] === args.positional[0];
    if (args.flags.has('--sarif')) await write(JSON.stringify(toSarif(results, version), null, 2) + '\n');
    else if (args.flags.has('--json')) {
      const objs = results.map((r) => ({ format: r.format, ok: r.ok, checked: r.checked, findings: r.findings, file: r.file }));
      await write(JSON.stringify(single ? objs[0] : objs, null, 2) + '\n');
    } else if (results.length > 0) await write(results.map(humanReport(mode)).join('\n') + '\n');
    // Stdout's --json/--sarif document keeps its shape: what a directory walk skipped goes to stderr there.
    if (machine) process.stderr.write(skippedLines(expansion));
    else await write(skippedLines(expansion));
    if (unreadable) return 2;
    return results.every((r) => r.ok) ? 0 : 1;
  };
}

function humanReport(mode: CheckMode) {
  return (r: CheckResult): string => {
    const errors = r.findings.filter((f) => f.severity === 'error');
    const head =
      mode === 'verify'
        ? r.ok
          ? `${r.file}: ${r.format}: intact: ${r.checked} event${r.checked === 1 ? '' : 's'} verified`
          : `${r.file}: ${r.format}: broken at line ${errors[0].line} (${errors.length} error${errors.length === 1 ? '' : 's'})`
        : `${r.file}: ${r.format}: ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'} (${errors.length} error${errors.length === 1 ? '' : 's'}) in ${r.checked} events`;
    const scope = mode === 'verify' ? [`  (${formatModule(r.format).verificationScope})`] : [];
    return [head, ...scope, ...r.findings.map((f) => `  line ${f.line}: ${f.severity} ${f.rule}: ${f.message}`)].join('\n');
  };
}

/** One line per reason a directory walk skipped files, with the count and a few of them; empty when none. */
export function skippedLines(expansion: TraceFileExpansion): string {
  return expansion.skipped
    .map((s) => `skipped ${s.count} file${s.count === 1 ? '' : 's'}: ${SKIP_REASON_TEXT[s.reason]} (${s.examples.join(', ')}${s.count > s.examples.length ? ', …' : ''})\n`)
    .join('');
}

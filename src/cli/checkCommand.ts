import type { LoggedCheckResult } from '../core/checks/runChecks';
import { CheckMode } from '../core/rules/types';
import { resolve } from 'node:path';
import type { BlobStoreOptions } from '../core/blobs/blobOptions';
import { formatModule } from '../core/formats';
import { parseArgs, UsageError } from './args';
import { formatOption, fsCause, streamForCli, UnreadableError, write, writeError, writeHuman, writeJson, writePieces } from './io';
import { toSarif } from './sarif';
import { LazyArray } from './jsonStream';
import { WORKERS_HELP, workersOption } from './workers';
import { escapeTerminal } from './terminalText';
import { shownPath } from '../core/tracePath';
import { lostEnd } from '../core/lineFindings';
import { expandTraceFiles, SKIP_REASON_TEXT, TraceFileExpansion } from '../core/traceFiles';

const JSON_SHAPE = `{"format": NAME, "ok": bool, "checked": n, "findings": [{"rule", "severity", "line", "seq"?, "eventId"?, "message"}], "file": PATH}`;

const STREAM_HELP = `                  The file is read once, streamed, without the viewer's model. With workers, a lumen trace is
                  read in newline-aligned pieces shared by this thread and the N workers, which parse their lines
                  and digest them for the checks;
                  a file checked over the model instead (a multi-line JSON document; for check, a trace whose
                  events report token usage) is parsed by them.`;

const BLOB_ROOT_HELP = `  --blob-root DIR Another folder to look for content blobs in (repeatable; the agentTrace.blobRoots setting
                  of the editor), searched after the format's own: blobs/ beside the trace, for agentledger also
                  every .agentledger/blobs upwards and the trace's folder.`;

export const VERIFY_HELP = `Usage: agent-trace verify FILE|DIR… [--json] [--format NAME] [--workers N] [--blob-root DIR]…

Verifies integrity: hash chains (lumen), sequence numbers, payload digests and ledger links (agentledger),
parent links and blob digests (murmur), kernel journal digests (deepstrike), unique ids and parents.
With --json, one object per file: ${JSON_SHAPE}
(a single FILE prints one object; several files or a directory print an array).
A directory takes its .jsonl, .ndjson and OTLP files (also as .gz), and the other .json files that detect as a
trace format with confidence; one line per reason says what it skipped (on stderr with --json).
${WORKERS_HELP}
${BLOB_ROOT_HELP}
${STREAM_HELP}
Exit codes: 0 intact, 1 any error finding, 2 unreadable file or bad usage.`;

export const CHECK_HELP = `Usage: agent-trace check FILE|DIR… [--json | --sarif] [--format NAME] [--workers N] [--blob-root DIR]…

Checks conformance to the runtime's rules (state machines, pairing, totals, schemas); see docs/rules.md.
With --json, one object per file: ${JSON_SHAPE}
With --sarif, a SARIF 2.1.0 log for CI systems.
Directories are walked as for verify; what they skipped is said on stdout, or on stderr with --json/--sarif.
${WORKERS_HELP}
${BLOB_ROOT_HELP}
${STREAM_HELP}
Exit codes: 0 no error finding, 1 any error finding, 2 unreadable file or bad usage.`;

/** `agent-trace verify` and `agent-trace check`. */
export function makeCheckCommand(mode: CheckMode, help: string, version: string) {
  return async (argv: string[]): Promise<number> => {
    const flags = mode === 'check' ? ['--json', '--sarif', '--help'] : ['--json', '--help'];
    const args = parseArgs(argv, flags, ['--format', '--workers', '--blob-root']);
    if (args.flags.has('--help')) return write(help + '\n').then(() => 0);
    if (args.positional.length === 0) throw new UsageError(`${mode} takes at least one FILE or directory`);
    if (args.flags.has('--json') && args.flags.has('--sarif')) throw new UsageError('--json and --sarif exclude each other');
    const format = formatOption(args.options.get('--format'));
    const workers = workersOption(args.options.get('--workers'));
    const blobOptions = blobRootOption(args.lists.get('--blob-root') ?? []);
    const expansion = await expandArgs(args.positional);
    const files = expansion.files;
    const machine = args.flags.has('--json') || args.flags.has('--sarif');
    if (files.length === 0) {
      process.stderr.write(escapeTerminal(skippedLines(expansion)));
      throw new UnreadableError(`${args.positional.join(' ')}: no trace files found`);
    }
    const results: LoggedCheckResult[] = [];
    const unreadable: { file: string; cause: string }[] = [];
    for (const file of files) {
      try {
        results.push(await streamForCli(file, mode, { format, workers, blobOptions }));
      } catch (err) {
        if (!(err instanceof UnreadableError)) throw err;
        writeError(err.message);
        unreadable.push({ file: shownPath(file), cause: err.reason });
      }
    }
    const singleArg = files.length === 1 && args.positional.length === 1 && files[0] === args.positional[0];
    if (args.flags.has('--sarif')) await writeJson(toSarif(results, version), SARIF_DEPTH);
    else if (args.flags.has('--json')) await writeJson(jsonResults(results, unreadable, singleArg), JSON_DEPTH);
    // Line by line: a million findings are never one text (the same bytes as the lines joined).
    else if (results.length > 0) await writePieces(humanPieces(results, mode));
    // Stdout's --json/--sarif document keeps its shape: what a directory walk skipped goes to stderr there.
    if (machine) process.stderr.write(escapeTerminal(skippedLines(expansion)));
    else await writeHuman(skippedLines(expansion));
    if (unreadable.length > 0) return 2;
    return results.every((r) => r.ok) ? 0 : 1;
  };
}

/**
 * The blob options of `--blob-root DIR…`: extra roots as the `agentTrace.blobRoots` setting gives them, a relative
 * one taken from the current folder as any path on the command line. Undefined when none was given.
 */
function blobRootOption(roots: string[]): BlobStoreOptions | undefined {
  for (const r of roots) if (r.trim() === '') throw new UsageError('--blob-root needs a folder');
  return roots.length > 0 ? { extraRoots: roots.map((r) => resolve(r)) } : undefined;
}

/** The trace files of the arguments; a folder that cannot be listed is a one-line message naming it. */
async function expandArgs(positional: string[]): Promise<TraceFileExpansion> {
  try {
    return await expandTraceFiles(positional);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code !== 'string') throw err;
    throw new UnreadableError(`${e.path ?? positional.join(' ')}: cannot read folder: ${fsCause(e)}`);
  }
}

// Streamed down to each finding (array → result → findings → finding) and to each SARIF result
// (log → runs → run → results → result); every finding is one JSON.stringify.
const JSON_DEPTH = 3;
const SARIF_DEPTH = 4;

/**
 * The `--json` document: one object for one file argument (also when it cannot be read: then with `ok` false
 * and an `error` naming the cause, as the README documents one object), an array otherwise.
 */
function jsonResults(results: LoggedCheckResult[], unreadable: { file: string; cause: string }[], singleArg: boolean): unknown {
  // Each finding made from the log as it is written, one at a time.
  const objs = results.map((r) => ({ format: r.format, ok: r.ok, checked: r.checked, findings: new LazyArray(() => r.findings), file: r.file }));
  if (singleArg && objs.length === 1) return objs[0];
  if (singleArg && unreadable.length === 1) return { format: null, ok: false, checked: 0, findings: [], file: unreadable[0].file, error: unreadable[0].cause };
  return objs;
}

/** The human report of each result, a line a piece (terminal controls made visible), results one after another. */
function* humanPieces(results: LoggedCheckResult[], mode: CheckMode): Generator<string> {
  for (let k = 0; k < results.length; k++) {
    const r = results[k];
    yield escapeTerminal(`${k > 0 ? '\n' : ''}${humanHead(mode, r)}`);
    for (const f of r.findings) yield escapeTerminal(`\n  line ${f.line}: ${f.severity} ${f.rule}: ${f.message}`);
  }
  // writePieces ends the text with its newline.
}

/** The head of one result's human report: its verdict, and for verify what verification proves. */
function humanHead(mode: CheckMode, r: LoggedCheckResult): string {
  // Counted, not gathered: a million errors are not copied into an array for a number.
  let errorCount = 0;
  let firstError = 0;
  let lost = false;
  for (const f of r.findings) {
    if (f.severity === 'error' && errorCount++ === 0) firstError = f.line;
    lost ||= lostEnd(f);
  }
  const errors = { length: errorCount, 0: { line: firstError } };
  const head =
    mode === 'verify'
      ? r.ok
        ? `${r.file}: ${r.format}: intact: ${r.checked} event${r.checked === 1 ? '' : 's'} verified`
        : `${r.file}: ${r.format}: broken at line ${errors[0].line} (${errors.length} error${errors.length === 1 ? '' : 's'})${lost ? '; the file lost its end (zeroed by a crash)' : ''}`
      : `${r.file}: ${r.format}: ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'} (${errors.length} error${errors.length === 1 ? '' : 's'}) in ${r.checked} events`;
  return mode === 'verify' ? `${head}\n  (${formatModule(r.format).verificationScope})` : head;
}

/** One line per reason a directory walk skipped files, with the count and a few of them; empty when none. */
export function skippedLines(expansion: TraceFileExpansion): string {
  return expansion.skipped
    .map((s) => `skipped ${s.count} file${s.count === 1 ? '' : 's'}: ${SKIP_REASON_TEXT[s.reason]} (${s.examples.join(', ')}${s.count > s.examples.length ? ', …' : ''})\n`)
    .join('');
}

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { buildReport, DEFAULT_REPORT_MAX_EVENTS, readReportAssets } from '../report/buildReport';
import { standaloneBlobs } from '../report/standaloneBlobs';
import { parseArgs, UsageError } from './args';
import { formatOption, fsCause, loadForCli, UnreadableError, write } from './io';

export const REPORT_HELP = `Usage: agent-trace report FILE [-o report.html] [--max-events N] [--include-blobs] [--format NAME]

Writes one self-contained HTML file that shows the trace in the viewer's own UI (tree, details, conversation,
findings, header) in any browser, offline: the trace's content and the verification and conformance results
at export time are embedded, compressed; the page makes no network requests and runs no script but its own.

  -o, --output F     write to F; - for stdout (default: <trace>.html beside the trace, or stdout when
                     stdout is redirected or piped, as before)
  --max-events N     embed at most the first N events (default ${DEFAULT_REPORT_MAX_EVENTS}); the page says what was left out
  --include-blobs    embed previews of the content blobs the events reference (prompts, outputs)
  --format NAME      read the file as NAME instead of detecting it
Exit codes: 0 success, 2 unreadable file or bad usage.`;

/** dist/ of this package: beside the bundled CLI, or the repository's when run from sources. */
function distDir(): string {
  for (const d of [__dirname, resolve(__dirname, '..', '..', 'dist')]) if (existsSync(join(d, 'reportHost.js')) && existsSync(join(d, 'webview.js'))) return d;
  throw new UnreadableError('the viewer bundle (dist/webview.js, dist/reportHost.js) is missing: run `npm run build`');
}

function maxEventsOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--max-events needs a positive whole number, not ${v}`);
  return n;
}

/**
 * Where the report goes: `-o F`, stdout for `-o -`; without `-o`, stdout when it is redirected or piped (what scripts
 * did before there was a default file), else `<trace>.html` beside the trace (`run.jsonl`, `run.jsonl.gz` →
 * `run.html`), so HTML is never poured into a terminal.
 */
export function reportOutput(option: string | undefined, trace: string, stdoutIsTerminal = process.stdout.isTTY === true): string | null {
  if (option === '-') return null;
  if (option !== undefined) return option;
  if (!stdoutIsTerminal) return null;
  return join(dirname(trace), `${basename(trace).replace(/(\.gz)?$/i, '').replace(/\.[^.]*$/, '') || basename(trace)}.html`);
}

/** `agent-trace report`. */
export function makeReportCommand(version: string): (argv: string[]) => Promise<number> {
  return async (argv) => {
    const args = parseArgs(argv.map((a) => (a === '-o' ? '--output' : a)), ['--include-blobs', '--help'], ['--output', '--max-events', '--format']);
    if (args.flags.has('--help')) return write(REPORT_HELP + '\n').then(() => 0);
    if (args.positional.length !== 1) throw new UsageError('report takes exactly one FILE');
    const maxEvents = maxEventsOption(args.options.get('--max-events'));
    const model = await loadForCli(args.positional[0], { format: formatOption(args.options.get('--format')) });
    const blobs = args.flags.has('--include-blobs') ? standaloneBlobs() : undefined;
    const { html } = await buildReport(model, readReportAssets(distDir()), { maxEvents, blobs, generator: `agent-trace ${version}` });
    const out = reportOutput(args.options.get('--output'), args.positional[0]);
    if (out === null) return write(html).then(() => 0);
    try {
      await writeFile(out, html);
    } catch (err) {
      throw new UnreadableError(`${out}: cannot write: ${fsCause(err)}`);
    }
    // Said on stderr, so stdout stays what it always was: the HTML or nothing.
    if (args.options.get('--output') === undefined) process.stderr.write(`Wrote ${out}\n`);
    return 0;
  };
}

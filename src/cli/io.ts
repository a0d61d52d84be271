import { loadTrace, LoadOptions, TraceModel } from '../core/loadTrace';
import type { LoggedCheckResult } from '../core/checks/runChecks';
import type { CheckMode } from '../core/rules/types';
import { streamChecks, StreamCheckOptions } from '../core/stream/streamChecks';
import { FORMAT_NAMES, FormatName } from '../core/formats';
import { UsageError } from './args';
import { NotATraceError } from '../core/byteSource';
import { jsonPieces } from './jsonStream';
import { escapeTerminal } from './terminalText';
import { shownPath, TracePath } from '../core/tracePath';

/** A file that could not be read: exit code 2, message names the file and the cause. */
export class UnreadableError extends Error {
  /** The cause without the file name, e.g. `cannot read: no such file`. */
  readonly reason: string;
  constructor(message: string, reason?: string) {
    super(message);
    this.reason = reason ?? message;
  }
}

/** Validates a `--format` value against the public format names. */
export function formatOption(value: string | undefined): FormatName | undefined {
  if (value === undefined) return undefined;
  if (!(FORMAT_NAMES as readonly string[]).includes(value)) throw new UsageError(`unknown format ${value}; expected one of ${FORMAT_NAMES.join(', ')}`);
  return value as FormatName;
}

/** The cause of a file-system error in a few words. */
export function fsCause(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT': return 'no such file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'ELOOP': return 'too many symbolic links';
    default: return e.message;
  }
}

/**
 * Loads a trace for the CLI, turning file-system errors into {@link UnreadableError}. Only an error of the file
 * system is "cannot read"; anything else is a fault in this tool, reported with the file's name.
 */
export async function loadForCli(file: TracePath, options: LoadOptions = {}): Promise<TraceModel> {
  return cliRead(file, () => loadTrace(file, options));
}

/**
 * Verifies or checks a trace in one streamed read for the CLI, with the errors of {@link loadForCli}. The findings
 * come compact, in a log, to be written one at a time.
 */
export async function streamForCli(file: TracePath, mode: CheckMode, options: StreamCheckOptions): Promise<LoggedCheckResult> {
  return cliRead(file, () => streamChecks(file, mode, { ...options, findingLog: true }));
}

/** Runs a read of `file`, turning file-system errors into {@link UnreadableError}. */
async function cliRead<T>(file: TracePath, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    // "FILE is a zip archive, not a JSONL trace": already one line that names the file.
    if (err instanceof NotATraceError) throw new UnreadableError(err.message);
    const e = err as NodeJS.ErrnoException;
    const reason = typeof e.code === 'string' ? `cannot read: ${fsCause(err)}` : `internal error while reading the file: ${e instanceof Error ? e.message : String(err)}`;
    throw new UnreadableError(`${shownPath(file)}: ${reason}`, reason);
  }
}


let stdoutClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  // The reader went away (`| head`): stop writing quietly; the exit status stays the work's.
  if (err.code === 'EPIPE') stdoutClosed = true;
  else throw err;
});

/** Writes to stdout and resolves once flushed, so large outputs are not cut off by process exit. */
export function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stdoutClosed) return resolve();
    if (process.stdout.write(text)) resolve();
    else {
      const done = (): void => {
        process.stdout.off('drain', done);
        process.stdout.off('error', done);
        resolve();
      };
      process.stdout.once('drain', done);
      process.stdout.once('error', done);
    }
  });
}

/** Writes human-readable output with every terminal control in trace text made visible. */
export function writeHuman(text: string): Promise<void> {
  return write(escapeTerminal(text));
}

/** Writes a line to stderr with terminal controls made visible (file names and messages come from traces). */
export function writeError(message: string): void {
  process.stderr.write(`agent-trace: ${escapeTerminal(message)}\n`);
}

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` (or compact, with `pretty` false) plus a newline, in
 * pieces of about 64 KB: the same bytes, without ever holding the whole text.
 */
export function writeJson(value: unknown, depth: number, pretty = true): Promise<void> {
  return writePieces(jsonPieces(value, depth, pretty));
}

/** Writes the pieces of a text, then a newline, gathered into writes of about 64 KB. */
export async function writePieces(pieces: Iterable<string>): Promise<void> {
  let buf = '';
  for (const piece of pieces) {
    buf += piece;
    if (buf.length >= 1 << 16) {
      await write(buf);
      buf = '';
      if (stdoutClosed) return;
    }
  }
  await write(buf + '\n');
}

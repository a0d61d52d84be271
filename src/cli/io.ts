import { loadTrace, LoadOptions, TraceModel } from '../core/loadTrace';
import { FORMAT_NAMES, FormatName } from '../core/formats';
import { UsageError } from './args';
import { NotATraceError } from '../core/byteSource';

/** A file that could not be read: exit code 2, message names the file and the cause. */
export class UnreadableError extends Error {}

/** Validates a `--format` value against the public format names. */
export function formatOption(value: string | undefined): FormatName | undefined {
  if (value === undefined) return undefined;
  if (!(FORMAT_NAMES as readonly string[]).includes(value)) throw new UsageError(`unknown format ${value}; expected one of ${FORMAT_NAMES.join(', ')}`);
  return value as FormatName;
}

/** Loads a trace for the CLI, turning file-system errors into {@link UnreadableError}. */
export async function loadForCli(file: string, options: LoadOptions = {}): Promise<TraceModel> {
  try {
    return await loadTrace(file, options);
  } catch (err) {
    // "FILE is a zip archive, not a JSONL trace": already one line that names the file.
    if (err instanceof NotATraceError) throw new UnreadableError(err.message);
    const e = err as NodeJS.ErrnoException;
    const cause = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new UnreadableError(`${file}: cannot read: ${cause}`);
  }
}

/** Writes to stdout and resolves once flushed, so large outputs are not cut off by process exit. */
export function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

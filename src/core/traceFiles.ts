import { Buffer } from 'buffer';
import { isUtf8 } from './io/platform';
import { join, pathSep } from './io/paths';
import { appendAll } from './arrays';
import { NotATraceError } from './byteSource';
import { detectFile, isConfidentTrace } from './detectFile';
import { FORMAT_LIST } from './formats';
import { fileSystem } from './io/fileSystem';
import { shownPath, TracePath } from './tracePath';

/** Folders a directory walk never enters: tools' folders, the blob stores, and every format's side folders. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'blobs', ...FORMAT_LIST.flatMap((f) => f.sideFolders ?? [])]);

/**
 * Default-editor patterns that belong to no one format: our own `*.trace.jsonl` convention, and compressed JSONL,
 * which the text editor cannot show at all.
 */
export const GENERIC_DEFAULT_PATTERNS: readonly string[] = ['*.trace.jsonl', '*.jsonl.gz', '*.ndjson.gz'];

/** Files the viewer opens by default: every format's {@link FormatModule.fileNamePatterns}, then the generic ones. */
export const VIEWER_DEFAULT_PATTERNS: readonly string[] = [...new Set([...FORMAT_LIST.flatMap((f) => f.fileNamePatterns ?? []), ...GENERIC_DEFAULT_PATTERNS])];

/**
 * Files the viewer is offered for (Reopen With…) without being their default: any JSONL, and any JSON, since
 * OTLP exports, Jaeger JSON, Gemini CLI chats and deepstrike event arrays are `.json` (a JSON file that is not a
 * trace then says so in the viewer).
 */
export const VIEWER_OPTION_PATTERNS: readonly string[] = ['*.jsonl', '*.ndjson', '*.json', '*.json.gz'];

/** True for names that hold traces whatever their content: JSONL files, OTLP exports and JSON arrays of events, maybe gzipped. */
export function isTraceFileName(name: string): boolean {
  return /\.(jsonl|ndjson)(\.gz)?$/i.test(name) || /\.(otlp|events)\.json(\.gz)?$/i.test(name);
}

/** Names that may hold a trace, which only their content can tell: other `.json` files. */
function isMaybeTraceFileName(name: string): boolean {
  return /\.json(\.gz)?$/i.test(name);
}

/** Why a directory walk left files out. */
export type SkipReason = 'json-not-trace' | 'binary' | 'unreadable' | 'other-name';

/** The words for each reason in the CLI's "skipped" lines. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  'json-not-trace': '.json files that no trace format recognises with confidence',
  binary: '.json files that are binary (archives, images…)',
  unreadable: '.json files that could not be read',
  'other-name': 'files not named as traces: not .jsonl, .ndjson, .json or one of those gzipped',
};

/** Files of one reason that a directory walk left out. */
export interface SkippedFiles {
  reason: SkipReason;
  count: number;
  /** The first few, for the message. */
  examples: string[];
}

/** The trace files the CLI's FILE|DIR arguments name, and what the directory walks left out. */
export interface TraceFileExpansion {
  /** A file whose name is not valid UTF-8 is a Buffer path, which opens it (a string would name another file). */
  files: TracePath[];
  /** One entry per reason that occurred, in {@link SKIP_REASON_TEXT} order. */
  skipped: SkippedFiles[];
}

/**
 * Expands the CLI's FILE arguments: files as given, directories to the trace files below them (sorted). A
 * directory's `.jsonl`/`.ndjson`/OTLP files (also gzipped) are taken by name; its other `.json` files only when
 * their content is a runtime format with confidence, so `package.json` or a settings file is never "verified".
 */
export async function expandTraceFiles(args: string[]): Promise<TraceFileExpansion> {
  const out: TracePath[] = [];
  const skipped = new Map<SkipReason, string[]>();
  const skip = (reason: SkipReason, path: TracePath) => {
    const list = skipped.get(reason) ?? [];
    list.push(shownPath(path));
    skipped.set(reason, list);
  };
  for (const a of args) {
    let info;
    try {
      info = await fileSystem().stat(a);
    } catch {
      out.push(a); // let loading report it as unreadable
      continue;
    }
    if (!info.isDirectory()) out.push(a);
    else appendAll(out, await walk(a, skip));
  }
  const order = Object.keys(SKIP_REASON_TEXT) as SkipReason[];
  return {
    files: out,
    skipped: order.filter((r) => skipped.has(r)).map((reason) => ({ reason, count: skipped.get(reason)!.length, examples: skipped.get(reason)!.slice(0, 3) })),
  };
}

/** {@link expandTraceFiles}, files only, as text (a name that is not valid UTF-8 shows U+FFFD). */
export async function expandTraceArgs(args: string[]): Promise<string[]> {
  return (await expandTraceFiles(args)).files.map(shownPath);
}

async function walk(root: string, skip: (reason: SkipReason, path: TracePath) => void): Promise<TracePath[]> {
  const stack: TracePath[] = [root];
  const found: TracePath[] = [];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    // Names as bytes: one that is not valid UTF-8 stays openable (see childPath).
    for (const ent of await fileSystem().listBytes(dir)) {
      const p = childPath(dir, ent.name);
      const name = ent.name.toString('utf8');
      if (ent.kind === 'directory') {
        if (!SKIP_DIRS.has(name)) stack.push(p);
      } else if (ent.kind !== 'file') continue;
      else if (isTraceFileName(name)) found.push(p);
      else if (!isMaybeTraceFileName(name)) skip('other-name', p);
      else {
        const verdict = await judgeJson(p);
        if (verdict === 'trace') found.push(p);
        else skip(verdict, p);
      }
    }
  }
  return found.sort(byShownPath);
}

/** `dir/name` as a string when both are text (the common case), else as bytes that open it. */
function childPath(dir: TracePath, name: Buffer): TracePath {
  if (typeof dir === 'string' && isUtf8(name)) return join(dir, name.toString('utf8'));
  return Buffer.concat([Buffer.from(dir), Buffer.from(pathSep()), name]);
}

/** The order of the shown paths (as before for text names), then of the bytes for names that show alike. */
function byShownPath(a: TracePath, b: TracePath): number {
  const x = shownPath(a);
  const y = shownPath(b);
  return x < y ? -1 : x > y ? 1 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

async function judgeJson(path: TracePath): Promise<'trace' | Exclude<SkipReason, 'other-name'>> {
  try {
    return isConfidentTrace(await detectFile(path)) ? 'trace' : 'json-not-trace';
  } catch (err) {
    return err instanceof NotATraceError ? 'binary' : 'unreadable';
  }
}

import { formatDuration, formatTokens as displayTokens } from '../display';
import { EventCategory, EventStatus, HashRef, IdMention } from '../model';
import { makeTimestampReader } from './isoTime';
import { isObj, type Obj } from '../json/jsonObject';
import { DIGEST_LENGTHS, parseDigest } from '../blobs/digestValue';

export { isObj, type Obj } from '../json/jsonObject';
export { parseDigest } from '../blobs/digestValue';

/** The string at `o[k]`, or null. */
export function str(o: unknown, k: string): string | null {
  if (!isObj(o)) return null;
  const v = o[k];
  return typeof v === 'string' ? v : null;
}
/** The finite number at `o[k]`, or null. */
export function num(o: unknown, k: string): number | null {
  if (!isObj(o)) return null;
  const v = o[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
/** The object at `o[k]`, or null. */
export function obj(o: unknown, k: string): Obj | null {
  if (!isObj(o)) return null;
  const v = o[k];
  return isObj(v) ? v : null;
}
/** The non-empty string at a path of keys (`folderAt(v, 'payload', 'cwd')`), or null: where a writer names its run's folder. */
export function folderAt(o: unknown, ...keys: string[]): string | null {
  let v: unknown = o;
  for (const k of keys) {
    if (!isObj(v)) return null;
    v = v[k];
  }
  return typeof v === 'string' && v !== '' ? v : null;
}
/** Sorted own keys of an object. */
export function keysOf(o: Obj): string[] {
  return Object.keys(o).sort();
}
/** True when `o` has exactly these keys (any order). */
export function hasExactKeys(o: Obj, keys: string[]): boolean {
  const k = Object.keys(o);
  return k.length === keys.length && keys.every((x) => x in o);
}

/** Strings go through one shared reader: the common ISO layout without Date.parse, anything else with it. */
const readIsoTime = makeTimestampReader();

/** Parses an RFC 3339 / ISO time string to epoch milliseconds (what Date.parse gives), or null; a finite number is taken as is. */
export function parseTime(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return typeof v === 'string' ? readIsoTime(v) : null;
}

export { formatCount, formatDuration } from '../display';

/** `1.2k→340 tokens`, or '' when neither side is known (event labels name the unit; the viewer's columns do not). */
export function formatTokens(input: number | null | undefined, output: number | null | undefined): string {
  return displayTokens(input, output, 'tokens');
}

/** Joins label parts, skipping empty ones. */
export function label(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join(' ');
}

// eslint-disable-next-line no-control-regex
const LABEL_SPACE = /[\s\u0000-\u001f\u007f-\u009f]+/g;
/**
 * A terminal's escape sequences, as a shell command's output holds them (`ESC[?2026h`, colours `ESC[31m`, titles
 * `ESC]0;…BEL`): a label drops them rather than showing their control characters.
 */
// eslint-disable-next-line no-control-regex
const TERMINAL_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;

function flatten(s: string): string {
  return (s.includes('\u001b') || s.includes('\u009b') ? s.replace(TERMINAL_ESCAPE, '') : s).replace(LABEL_SPACE, ' ').trim();
}

/**
 * Shortens a long value for a label: terminal escape sequences are dropped, whitespace and other control
 * characters collapse to one space, then it is cut at `max`.
 */
export function short(s: string, max = 48): string {
  // Labels of long outputs and prompts were flattening whole megabytes to keep 48 characters. Flattening only
  // shrinks text, so when a prefix alone flattens to more than max the label is decided by it (same result).
  if (s.length > max * 4) {
    const head = flatten(s.slice(0, max * 4));
    if (head.length > max) return head.slice(0, max - 1) + '…';
  }
  // Most labels are already flat (no whitespace but single inner spaces, no C1 control): kept as they are, with
  // no new string made.
  const flat = FLAT_ALREADY.test(s) ? s : flatten(s);
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/**
 * Text that flattening leaves as it is: no whitespace or C1 control but single spaces between other characters
 * (`\s` is JavaScript's whitespace, which `trim` also strips).
 */
// eslint-disable-next-line no-control-regex
const FLAT_ALREADY = /^(?:[^\s\u0000-\u001f\u007f-\u009f]+(?: [^\s\u0000-\u001f\u007f-\u009f]+)*)?$/;


/**
 * Whether collectHashRefs could find anything among these values: true for an object or array, or a string of a
 * length a digest has; false lets a caller skip making the object it would walk.
 */
export function mayHoldDigest(values: Iterable<unknown>): boolean {
  for (const v of values) {
    if (typeof v === 'string' ? DIGEST_LENGTHS.has(v.length) : typeof v === 'object' && v !== null) return true;
  }
  return false;
}

/** A value met by collectHashRefs' walk: `key` is its key (a string) or index (a number) in `up`; the root has none. */
interface WalkEntry {
  v: unknown;
  up: WalkEntry | null;
  key: string | number;
}

/** The JSON path of a walked value, as the walk spells it: `a.b[2].c` (the root's is ''). */
function pathOf(e: WalkEntry): string {
  // Iterative: a walk may go 10,000 levels deep.
  const chain: WalkEntry[] = [];
  for (let x: WalkEntry | null = e; x !== null && x.up !== null; x = x.up) chain.push(x);
  let path = '';
  for (let i = chain.length - 1; i >= 0; i--) {
    const key = chain[i].key;
    path = typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  }
  return path;
}

/**
 * Collects every digest-looking string in a value (iteratively, bounded), with its JSON path.
 * Fields listed in `skip` (own ids, chain hashes) are not references to content.
 */
export function collectHashRefs(value: unknown, skip: ReadonlySet<string> = new Set(), allowBare16 = false, limit = 256): HashRef[] {
  const out: HashRef[] = [];
  // Each entry: a value, the entry it is in, and its key or index there. A path is spelled out only for the
  // digests found, not for every value walked.
  const stack: WalkEntry[] = [{ v: value, up: null, key: '' }];
  let visited = 0;
  while (stack.length > 0 && out.length < limit && visited < 10_000) {
    const e = stack.pop()!;
    const v = e.v;
    visited++;
    if (typeof v === 'string') {
      const d = parseDigest(v, allowBare16);
      if (d) out.push({ field: pathOf(e), ...d });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], up: e, key: i });
    } else if (isObj(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (skip.has(k)) continue;
        stack.push({ v: v[k], up: e, key: k });
      }
    }
  }
  return out;
}

/** Collects `field: id` mentions for the named fields found at the top level or one level down. */
export function collectMentions(o: Obj, fields: readonly string[]): IdMention[] {
  const out: IdMention[] = [];
  const visit = (x: Obj, prefix: string) => {
    for (const f of fields) {
      const v = x[f];
      if (typeof v === 'string' && v.length > 0) out.push({ field: prefix + f, id: v });
    }
  };
  visit(o, '');
  for (const [k, v] of Object.entries(o)) if (isObj(v)) visit(v, `${k}.`);
  return out;
}

/** Maps common status words to a status. */
export function statusFromWord(word: string | null | undefined): EventStatus | null {
  if (!word) return null;
  const w = word.toLowerCase();
  if (/(error|fail|crash|panic|abort|timeout|timed_out|exceeded)/.test(w)) return 'error';
  if (/(denied|deny|reject|cancel|warn|blocked|refused|interrupt|skipped)/.test(w)) return 'warning';
  return null;
}

/** `an array`, `a string`, `null`, `missing`… for messages. */
export function describeType(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** Guesses a category from a kind name. */
export function categoryFromKind(kind: string): EventCategory {
  // Kinds repeat line after line: each is matched once (a bounded memo; a file of ever-new kinds just stops adding).
  const known = CATEGORY_OF_KIND.get(kind);
  if (known !== undefined) return known;
  const c = matchCategory(kind);
  if (CATEGORY_OF_KIND.size < 4096) CATEGORY_OF_KIND.set(kind, c);
  return c;
}

const CATEGORY_OF_KIND = new Map<string, EventCategory>();

function matchCategory(kind: string): EventCategory {
  const k = kind.toLowerCase();
  if (/session/.test(k)) return 'session';
  if (/\brun|run_|^run/.test(k)) return 'run';
  if (/task/.test(k)) return 'task';
  if (/turn/.test(k)) return 'turn';
  if (/(inference|model|llm|completion|response|assistant)/.test(k)) return 'inference';
  if (/(tool|function|call|exec|command|shell)/.test(k)) return 'tool';
  if (/approv/.test(k)) return 'approval';
  if (/(policy|permission|guard)/.test(k)) return 'policy';
  if (/(error|fail|panic)/.test(k)) return 'error';
  if (/(message|user|prompt|chat)/.test(k)) return 'message';
  if (/span/.test(k)) return 'span';
  return 'other';
}

/** Argument names that say what a tool call is about, in the order a row's label prefers them. */
const SUMMARY_ARGS = ['command', 'filePath', 'filepath', 'file_path', 'absolute_path', 'path', 'pattern', 'query', 'url', 'description', 'prompt'];

/**
 * The label's one-line summary of a tool call's arguments (an object): a shell command, a path, a pattern or query,
 * else its first string argument; null when there is none.
 */
export function argsSummary(args: unknown): string | null {
  if (!isObj(args)) return null;
  for (const k of SUMMARY_ARGS) if (typeof args[k] === 'string') return args[k] as string;
  const first = Object.values(args).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : null;
}

/**
 * What one tool step did, as a format reads it from its lines: the facts a row's label says. Every format with tool
 * calls hands these to `toolCallLabel` / `toolResultLabel`, so the wording is made here once, never per format.
 */
export interface ToolStep {
  /** The tool's name as the writer gives it (`Bash`, `exec_command`, `run_shell_command`). */
  tool: string | null;
  /** The one argument that says what the call does: a command, a path, a pattern (argsSummary). */
  arg?: string | null;
  /** The run's working folder: a path argument under it is shown relative to it. */
  cwd?: string | null;
  /** A command's exit code, when its result says it. */
  exitCode?: number | null;
  /** The result is an error (without an exit code, or besides it). */
  failed?: boolean;
  /** What a failed call without an exit code said (its error message), shown after the outcome. */
  error?: string | null;
  /** Lines the tool read or wrote, when its result says it. */
  lines?: number | null;
  /** From the call to its result. */
  durationMs?: number | null;
}

/** How much of a tool's argument a row's label shows. */
const STEP_ARG_MAX = 64;

/** A path under `cwd` relative to it; a long path keeps its end (the file's name), a long command its start. */
function stepArg(arg: string | null | undefined, cwd: string | null | undefined): string {
  if (!arg) return '';
  let a = arg;
  if (cwd) {
    const base = cwd.endsWith('/') || cwd.endsWith('\\') ? cwd : `${cwd}/`;
    if (a.startsWith(base) && a.length > base.length) a = a.slice(base.length);
  }
  const flat = short(a, STEP_ARG_MAX * 4);
  const pathLike = !/\s/.test(flat) && /[/\\]/.test(flat);
  if (pathLike && flat.length > STEP_ARG_MAX) return `…${flat.slice(flat.length - STEP_ARG_MAX + 1)}`;
  return short(flat, STEP_ARG_MAX);
}

/** A tool call's row: `Bash: npm test`, `Read: src/app.ts`, or the tool's name alone. */
export function toolCallLabel(step: ToolStep): string {
  const tool = step.tool || 'tool';
  const arg = stepArg(step.arg, step.cwd);
  return arg ? `${tool}: ${arg}` : tool;
}

/**
 * A tool result's row, the call it answers and what came of it: `Bash: npm test → exit 1, 2.3 s`,
 * `Read: src/app.ts (120 lines) → ok, 12 ms`, `Read: missing.txt → error, 26 ms: File does not exist.`.
 */
export function toolResultLabel(step: ToolStep): string {
  const lines = typeof step.lines === 'number' && Number.isFinite(step.lines) ? ` (${step.lines.toLocaleString('en-US')} line${step.lines === 1 ? '' : 's'})` : '';
  const outcome = typeof step.exitCode === 'number' ? `exit ${step.exitCode}` : step.failed ? 'error' : 'ok';
  const facts = [outcome, formatDuration(step.durationMs)].filter((x) => x !== '');
  const error = step.failed && typeof step.exitCode !== 'number' && step.error ? `: ${short(step.error, 64)}` : '';
  return `${toolCallLabel(step)}${lines} → ${facts.join(', ')}${error}`;
}

/** A model call's row: `model claude-sonnet-4: 1,234 in / 56 out` (what is known of it). */
export function modelCallLabel(model: string | null | undefined, tokensIn: number | null | undefined, tokensOut: number | null | undefined): string {
  const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('en-US') : '?');
  const tokens = tokensIn == null && tokensOut == null ? '' : `${n(tokensIn)} in / ${n(tokensOut)} out`;
  const head = model ? `model ${model}` : 'model call';
  return tokens ? `${head}: ${tokens}` : head;
}

/**
 * The exit code a shell tool's output text states at a line's start (`Exit code 2`, `Exit Code: 1`, `Process exited with
 * code 1`, `Command exited with code 2`, `(exit code 2)`), in its first or last 4 KiB; null when it states none.
 */
export function exitCodeInText(text: string | null | undefined): number | null {
  if (!text) return null;
  const ends = text.length > 8192 ? `${text.slice(0, 4096)}\n${text.slice(-4096)}` : text;
  // A coloured output's escapes are not text: `ESC[31mExit code 2` states its code at the line's start.
  const head = ends.includes('\u001b') || ends.includes('\u009b') ? ends.replace(TERMINAL_ESCAPE, '') : ends;
  const m = /(?:^|\n|\()\s*(?:Exit [Cc]ode:?|Process exited with code|Command exited with code|exit code:?|Exited with code) (-?\d+)/.exec(head);
  return m ? Number(m[1]) : null;
}

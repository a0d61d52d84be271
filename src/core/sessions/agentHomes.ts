import type { FormatModule } from '../format';
import type { FormatName } from '../formatNames';
import { FORMAT_LIST } from '../formats';
import { join } from '../io/paths';

/**
 * Where agents keep their sessions, derived from the one source of truth: each format's `fileNamePatterns`
 * (`FormatModule.fileNamePatterns`). A pattern with a folder (`**∕.claude/projects/**∕*.jsonl`) names its home
 * (`.claude/projects`); a format whose pattern is a base name only (Codex's `rollout-*.jsonl`) cannot say where its
 * files live, so its home is in {@link HOMES_NOT_IN_PATTERNS}. A format added with a pattern is found with no change here.
 */

/**
 * Agent homes under the user's home folder that no format's pattern names: Codex's pattern is a base name
 * (`rollout-*.jsonl`), so its home is named here. Every other agent's home comes from its format's patterns.
 */
export const HOMES_NOT_IN_PATTERNS: readonly string[] = ['.codex/sessions'];

/** A compiled `fileNamePatterns` glob: VS Code's `filenamePattern` syntax (without a `/`, it matches the base name). */
export interface PathPattern {
  format: FormatName;
  glob: string;
  /** The folder the pattern names below any prefix (`.claude/projects`), null for a base-name pattern. */
  home: string | null;
  test(path: string): boolean;
}

/** `**`, `*`, `?` and `{a,b}` of a glob as a regular expression over a path with `/`. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob.slice(i + 1, end).split(',').map((s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The literal folder a glob names after its leading `**∕`, up to its first wildcard; null when there is none. */
export function homeOfGlob(glob: string): string | null {
  if (!glob.includes('/')) return null;
  const segs = glob.replace(/^(\*\*\/)+/, '').split('/');
  const lit: string[] = [];
  for (const s of segs.slice(0, -1)) {
    if (/[*?{[]/.test(s)) break;
    lit.push(s);
  }
  return lit.length > 0 ? lit.join('/') : null;
}

function compile(format: FormatName, glob: string): PathPattern {
  const re = globRegExp(glob);
  const baseOnly = !glob.includes('/');
  return {
    format,
    glob,
    home: homeOfGlob(glob),
    test: (path) => {
      const p = path.replace(/\\/g, '/');
      return re.test(baseOnly ? p.slice(p.lastIndexOf('/') + 1) : p);
    },
  };
}

/** Every format's patterns, in registry order. */
export function sessionPatterns(formats: readonly FormatModule[] = FORMAT_LIST): PathPattern[] {
  return formats.flatMap((f) => (f.fileNamePatterns ?? []).map((g) => compile(f.name, g)));
}

/** The agent homes, relative to the user's home folder: those the patterns name, then {@link HOMES_NOT_IN_PATTERNS}. */
export function agentHomes(formats: readonly FormatModule[] = FORMAT_LIST): string[] {
  const derived = sessionPatterns(formats).flatMap((p) => (p.home !== null ? [p.home] : []));
  return [...new Set([...derived, ...HOMES_NOT_IN_PATTERNS])];
}

/** The roots a listing walks by default: each agent home under the user's home folder (the CLI's, the extension's). */
export function agentHomeRoots(userHome: string, formats: readonly FormatModule[] = FORMAT_LIST): string[] {
  return agentHomes(formats).map((h) => join(userHome, ...h.split('/')));
}

/**
 * The search for the workspace's trace files (the Agent Traces view's "Workspace trace files"): every format's
 * `fileNamePatterns` (a base-name one anywhere below) and every `.jsonl` / `.ndjson` file, whose content the one
 * sniffer then judges; `exclude` leaves out node_modules, .git, blob stores and every format's side folders.
 */
export function workspaceTraceSearch(formats: readonly FormatModule[] = FORMAT_LIST): { include: string; exclude: string } {
  const own = formats.flatMap((f) => (f.fileNamePatterns ?? []).map((g) => (g.includes('/') ? g : `**/${g}`)));
  const include = [...new Set([...own, '**/*.jsonl', '**/*.ndjson'])];
  return { include: `{${include.join(',')}}`, exclude: `**/{${[...skippedFolders(formats)].join(',')}}/**` };
}

/** Folders a walk never enters: tools' folders, blob stores, and every format's side folders. */
export function skippedFolders(formats: readonly FormatModule[] = FORMAT_LIST): Set<string> {
  return new Set(['node_modules', '.git', 'blobs', ...formats.flatMap((f) => f.sideFolders ?? [])]);
}

/** The patterns a path matches (none: not a session file of any format). */
export function patternsMatching(path: string, patterns: readonly PathPattern[]): PathPattern[] {
  return patterns.filter((p) => p.test(path));
}

/**
 * The project folder a path names below a pattern's home (`.claude/projects/<project>/…`, `.gemini/tmp/<project>/…`),
 * as the writer names it; null when the path is not below one, or its file sits right in the home.
 */
export function projectFolderOf(path: string, patterns: readonly PathPattern[]): string | null {
  const p = path.replace(/\\/g, '/');
  for (const pat of patterns) {
    if (pat.home === null) continue;
    const at = p.lastIndexOf(`/${pat.home}/`);
    if (at < 0) continue;
    const rest = p.slice(at + pat.home.length + 2).split('/');
    if (rest.length >= 2 && rest[0] !== '') return rest[0];
  }
  return null;
}

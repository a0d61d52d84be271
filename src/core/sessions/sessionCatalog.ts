import { fileSystem } from '../io/fileSystem';
import { basename, join, pathSep } from '../io/paths';
import { FORMAT_LIST, isFallbackFormat } from '../formats';
import type { FormatName } from '../formatNames';
import { loadTraceKeepingReading } from '../loadTrace';
import { openTraceReader } from '../traceReader';
import type { SessionFollower } from './sessionFollower';
import { integrityKindsOf } from '../formatRules';
import type { CheckResult } from '../checks/runChecks';
import type { CheckMode } from '../rules/types';
import { detectFile, isConfidentTrace } from '../detectFile';
import { summarizeSessionCells } from '../summary';
import { sessionFilesOf, type FileReadWatch, type WatchRead } from '../sessionUsage';
import type { ModelPrice } from '../usage/prices';
import type { TraceModel } from '../traceModel';
import { PathPattern, patternsMatching, projectFolderOf, sessionPatterns, skippedFolders } from './agentHomes';
import { FileStamp, parseSessionCache, sameStamp, SessionCacheStore, sessionCacheText, SessionRecord, SessionVerdict, VerdictRules } from './sessionCache';

/** Folders a walk never enters: tools' folders, blob stores, and every format's side folders. */
const SKIP_DIRS: ReadonlySet<string> = skippedFolders();

/** Files read at a time by default. */
const DEFAULT_CONCURRENCY = 4;
/** Longest title kept, in characters. */
const TITLE_CHARS = 100;
/** Events looked at for the first user prompt. */
const TITLE_EVENTS = 2000;

/** Options of {@link listSessions}. */
export interface ListSessionsOptions {
  /** Folders to walk (each with everything below it). */
  roots: readonly string[];
  /**
   * Files to read besides what the walk finds (the workspace's trace files; the files that changed since the last
   * listing): each is a session when a format's pattern puts it in an agent's folder, or when its content is surely
   * a trace (the one sniffer, core/detectFile.ts). Their records are kept in the cache as the walk's are.
   */
  files?: readonly string[];
  /** Only this agent's sessions (a format name). */
  agent?: FormatName;
  /** Where records are kept between listings; absent: every file is read. */
  cache?: SessionCacheStore;
  /** The user's prices, before the bundled table. A listing with its own prices reads every file and keeps no cache. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /**
   * The user's rule overrides (the editor's `agentTrace.rules`, as Verify and Check use them): the verdicts are made
   * with them, and the cache is keyed by them, so a changed setting reads the sessions again.
   */
  rules?: VerdictRules;
  isCancelled?: () => boolean;
  /** Called after each session file, with how many of the candidates are done. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Sees each file this listing reads (main files and their sessions' other files) as it is read: the search index
   * (core/sessions/sessionSearch.ts) rides the listing's one read of a file.
   */
  watchRead?: WatchRead;
  /** Files read at a time (their reads wait on the disk more than on this thread); default 4. */
  concurrency?: number;
  /**
   * Growing files followed across listings (a long-lived caller's, the Agent Traces view's worker): a session seen
   * grown is read whole once and its reader kept; each later growth reads only the new bytes (see
   * core/sessions/sessionFollower.ts). Absent: every changed file is read whole.
   */
  follow?: SessionFollower;
}

/** What {@link listSessions} found. */
export interface SessionListing {
  /** One record per session, sorted by start time (newest first), then file. */
  records: SessionRecord[];
  /** Roots that do not exist or are not folders. */
  missingRoots: string[];
  /** The files of `files` listed as sessions that no root's walk found (the workspace's own trace files). */
  outsideRoots: string[];
  /** Session files read in this listing, and those whose record came from the cache unchanged. */
  read: number;
  fromCache: number;
  /** Of the files read, those of which only the bytes appended since the last read were read (followed files). */
  appended: number;
}

/** A file the walk found that some format's pattern matches, with its stamp. */
interface Candidate {
  stamp: FileStamp;
  patterns: PathPattern[];
}

/**
 * Every session under the roots: the files some format's `fileNamePatterns` match (core/sessions/agentHomes.ts),
 * each read once through the loader and summarised as `summary` does (usage with its subagents' files: one path),
 * except those whose record in the cache still matches their size and time (and their subagents'). A session's
 * subagent files are its parts, not sessions of their own. A file that cannot be read is listed with its error and
 * the listing goes on. A grown file is read again whole, unless `follow` holds its reader: then only its new bytes.
 */
export async function listSessions(options: ListSessionsOptions): Promise<SessionListing> {
  const patterns = sessionPatterns();
  const walked = await walkRoots(options.roots, patterns);
  const { missingRoots } = walked;
  const fromWalk = new Set(walked.candidates.map((c) => c.stamp.path));
  const extra: Candidate[] = [];
  for (const f of new Set(options.files ?? [])) {
    if (fromWalk.has(f)) continue;
    const stamp = await stampOf(f);
    if (stamp) extra.push({ stamp, patterns: patternsMatching(f, patterns) });
  }
  const candidates = [...walked.candidates, ...extra];
  const useCache = options.cache !== undefined && !options.prices;
  const cache = useCache ? parseSessionCache(await options.cache!.read().catch(() => null), options.rules) : parseSessionCache(null);
  const byPath = new Map(candidates.map((c) => [c.stamp.path, c]));
  const claimed = new Set<string>();
  const records: SessionRecord[] = [];
  const notSessions: FileStamp[] = [];
  let read = 0;
  let fromCache = 0;
  let appended = 0;
  let done = 0;
  const visit = async (c: Candidate): Promise<void> => {
    if (options.isCancelled?.() || claimed.has(c.stamp.path)) return;
    const old = cache.records.get(c.stamp.path);
    let rec: SessionRecord | null;
    // A record made by an append has no verdict for its last lines: only its follower may keep it unchanged.
    const whole = !old?.verdictPending || options.follow?.has(c.stamp.path) === true;
    if (old && whole && sameStamp(c.stamp, old.stamp) && (await partsUnchanged(old.parts, byPath))) {
      rec = old;
      fromCache++;
    } else if (sameStamp(c.stamp, cache.notSessions.get(c.stamp.path))) {
      rec = null;
      fromCache++;
    } else {
      rec = await readSession(c, { prices: options.prices, rules: options.rules, watchRead: options.watchRead, follow: options.follow, old });
      read++;
      if (rec?.verdictPending) appended++;
    }
    options.onProgress?.(++done, candidates.length);
    if (rec === null) {
      notSessions.push(c.stamp);
      return;
    }
    for (const p of rec.parts) claimed.add(p.path);
    records.push(rec);
  };
  // Files that may be another's parts (in a folder named after a candidate's stem: Claude Code's
  // `<id>/subagents/…`, Qwen Code's `subagents/<id>/…`) wait until the main files have claimed theirs, so none is
  // read as a session of its own first.
  const stems = new Set(candidates.map((c) => stem(c.stamp.path)));
  const mayBePart = (c: Candidate) => dirSegments(c.stamp.path).some((seg) => stems.has(seg));
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  for (const phase of [candidates.filter((c) => !mayBePart(c)), candidates.filter(mayBePart)]) {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < phase.length) await visit(phase[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, phase.length) }, worker));
  }
  // A file listed before the session that claims it (a walk in another order) is still not a session of its own.
  const kept = records.filter((r) => !claimed.has(r.stamp.path));
  const sep = pathSep();
  const under = (p: string) => options.roots.some((root) => p.startsWith(root.endsWith(sep) ? root : root + sep));
  // A followed file the walk no longer finds (deleted, moved) lets its reader and model go.
  if (options.follow && !options.isCancelled?.()) for (const p of options.follow.paths()) if (under(p) && !byPath.has(p)) options.follow.drop(p);
  if (useCache && !options.isCancelled?.()) {
    // What the cache holds of files outside these roots stays: another listing (other roots) may want it.
    const next = { records: new Map([...cache.records].filter(([p]) => !under(p))), notSessions: new Map([...cache.notSessions].filter(([p]) => !under(p))) };
    for (const r of kept) next.records.set(r.stamp.path, r);
    for (const s of notSessions) next.notSessions.set(s.path, s);
    await options.cache!.write(sessionCacheText(next, options.rules));
  }
  const shown = options.agent === undefined ? kept : kept.filter((r) => r.entry.agent === options.agent);
  shown.sort((a, b) => (b.entry.startTime ?? '').localeCompare(a.entry.startTime ?? '') || a.entry.file.localeCompare(b.entry.file));
  const outsideRoots = shown.filter((r) => !fromWalk.has(r.stamp.path)).map((r) => r.stamp.path);
  return { records: shown, missingRoots, outsideRoots, read, fromCache, appended };
}

async function partsUnchanged(parts: readonly FileStamp[], byPath: ReadonlyMap<string, Candidate>): Promise<boolean> {
  for (const p of parts) {
    const now = byPath.get(p.path)?.stamp ?? (await stampOf(p.path));
    if (!sameStamp(p, now ?? undefined)) return false;
  }
  return true;
}

/** A file's stamp (path, size, time), or null when it is gone or no file. */
export async function stampOf(path: string): Promise<FileStamp | null> {
  try {
    const st = await fileSystem().stat(path);
    return st.isFile() ? { path, size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The files below the roots that some format's pattern matches, sorted by path; and the roots that are not folders. */
async function walkRoots(roots: readonly string[], patterns: readonly PathPattern[]): Promise<{ candidates: Candidate[]; missingRoots: string[] }> {
  const missingRoots: string[] = [];
  const found = new Map<string, Candidate>();
  for (const root of roots) {
    const st = await fileSystem().stat(root).catch(() => null);
    if (st === null || !st.isDirectory()) {
      missingRoots.push(root);
      continue;
    }
    const stack = [root];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      const entries = await fileSystem().list(dir).catch(() => []);
      for (const ent of entries) {
        const p = join(dir, ent.name);
        if (ent.kind === 'directory') {
          if (!SKIP_DIRS.has(ent.name)) stack.push(p);
          continue;
        }
        if (ent.kind !== 'file' || found.has(p)) continue;
        const matched = patternsMatching(p, patterns);
        if (matched.length === 0) continue;
        const stamp = await stampOf(p);
        if (stamp) found.set(p, { stamp, patterns: matched });
      }
    }
  }
  const candidates = [...found.values()].sort((a, b) => (a.stamp.path < b.stamp.path ? -1 : a.stamp.path > b.stamp.path ? 1 : 0));
  return { candidates, missingRoots };
}

/** How {@link readSession} reads. */
interface ReadOptions {
  prices?: Readonly<Record<string, ModelPrice>>;
  rules?: VerdictRules;
  watchRead?: WatchRead;
  follow?: SessionFollower;
  /** The file's record from the last listing, if any. */
  old?: SessionRecord;
}

/**
 * Reads one session file through the loader and summarises it. Null when it is not a session: content no format
 * recognises in a file only a base-name pattern matched (`events.jsonl` may be anyone's). A file in an agent's own
 * folder that cannot be read, or reads as no format, is a record with its error. A followed file that grew is read
 * from where its reader stopped (its verdict pending); a file that grew since the last listing is read whole and
 * followed from then on.
 */
async function readSession(c: Candidate, o: ReadOptions): Promise<SessionRecord | null> {
  const path = c.stamp.path;
  const { prices, rules, watchRead, follow, old } = o;
  const inHome = c.patterns.find((p) => p.home !== null);
  let model: TraceModel | null = null;
  let checked: Promise<Map<CheckMode, CheckResult>> | undefined;
  let watch: FileReadWatch | undefined;
  let after: FileStamp | undefined;
  try {
    // A file only a base-name pattern matched may be anyone's: its head tells, before the whole of it is read.
    if (!inHome && !isConfidentTrace(await detectFile(path))) return null;
    const followed = follow?.get(path);
    if (followed && old && sameStamp(followed.stamp, old.stamp) && c.stamp.size >= followed.stamp.size) {
      // Only what was appended: read, parsed and indexed (the search index adds the new lines' documents).
      watch = await watchRead?.(path, c.stamp);
      const out = await followed.reader.append({ onRecord: watch?.onRecord }).catch(() => null);
      if (out && out.kind !== 'needs-full-read') {
        model = out.model;
        after = followed.stamp;
        follow!.keep(path, { reader: followed.reader, stamp: c.stamp });
      }
    }
    if (model === null) {
      follow?.drop(path);
      watch = await watchRead?.(path, c.stamp);
      // Verify and check ride along the one read (as on the viewer's open): the row's verdict costs no second read.
      const load = { checks: { modes: ['verify', 'check'] as CheckMode[], options: { rules: rules ? { ...rules } : undefined } }, onRecord: watch?.onRecord };
      if (follow && old && c.stamp.size > old.stamp.size) {
        // Grown since the last listing: read whole once, then followed.
        const reader = await openTraceReader(path, load);
        ({ model, checks: checked } = reader);
        follow.keep(path, { reader, stamp: c.stamp });
      } else ({ model, checkResults: checked } = await loadTraceKeepingReading(path, load));
    }
  } catch (e) {
    follow?.drop(path);
    watch?.done(null, e instanceof Error ? e.message : String(e));
    if (!inHome) return null;
    return errorRecord(c, inHome.format, e instanceof Error ? e.message : String(e));
  }
  watch?.done(model, null, after);
  if (isFallbackFormat(model.format)) {
    if (!inHome) return null;
    return errorRecord(c, inHome.format, `not read as ${inHome.format}: ${model.detection.reason}`);
  }
  const format = model.format;
  // An append runs no checks: the verdict of the file as last checked stays, marked pending.
  const verdict = after ? (old?.verdict ?? null) : await (checked ?? Promise.resolve(null)).then((r) => (r ? verdictOf(format, r) : null), () => null);
  const { summary: s, cells } = await summarizeSessionCells(model, { prices, watchRead });
  const files = await sessionFilesOf(model);
  const parts: FileStamp[] = [];
  for (const f of files) parts.push((await stampOf(f.path)) ?? { path: f.path, size: -1, mtimeMs: -1 });
  const u = s.usage.total;
  return {
    entry: {
      agent: model.format,
      file: path,
      sessionId: s.groups[0] ?? stem(path),
      title: titleOf(model),
      // Where the run worked, as its format reads it from its records (FormatModule.workingFolder); else the
      // project folder the file is kept under.
      project: model.workingFolder ?? projectFolderOf(path, c.patterns),
      startTime: s.startTime,
      endTime: s.endTime,
      events: s.events,
      subagents: files.filter((f) => f.role === 'subagent').length,
      usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens, costUsd: u.costUsd },
      errors: s.totals.errors,
      error: null,
    },
    byModel: s.usage.byModel.map((m) => ({ model: m.model, inputTokens: m.inputTokens, outputTokens: m.outputTokens, costUsd: m.costUsd })),
    byDayModel: cells,
    priced: s.usage.priced,
    stamp: c.stamp,
    parts,
    verdict,
    ...(after ? { verdictPending: true as const } : {}),
  };
}

/**
 * The row's verdict from verify's and check's results: errors and warnings counted once each (check runs the
 * verification rules too), the first by line, and the chain's verdict for a format whose verification proves one.
 */
export function verdictOf(format: FormatName, results: ReadonlyMap<CheckMode, CheckResult>): SessionVerdict | null {
  if (results.size === 0 || [...results.values()].some((r) => r.cancelled)) return null;
  const seen = new Set<string>();
  let errors = 0;
  let warnings = 0;
  let firstError: SessionVerdict['first'] = null;
  let firstWarning: SessionVerdict['first'] = null;
  for (const [mode, r] of results) {
    for (const f of r.findings) {
      if (f.severity === 'info') continue;
      const key = `${f.rule}\u0000${f.line}\u0000${f.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const at = { mode, rule: f.rule, line: f.line, message: f.message };
      if (f.severity === 'error') {
        errors++;
        if (firstError === null || f.line < firstError.line) firstError = at;
      } else {
        warnings++;
        if (firstWarning === null || f.line < firstWarning.line) firstWarning = at;
      }
    }
  }
  const verify = results.get('verify');
  const chain = verify && integrityKindsOf(format).has('chain') ? (verify.ok ? 'intact' : 'broken') : null;
  return { state: errors > 0 ? 'fail' : warnings > 0 ? 'warn' : 'pass', errors, warnings, chain, first: firstError ?? firstWarning };
}

function errorRecord(c: Candidate, agent: FormatName, error: string): SessionRecord {
  return {
    entry: {
      agent, file: c.stamp.path, sessionId: stem(c.stamp.path), title: null, project: projectFolderOf(c.stamp.path, c.patterns),
      startTime: null, endTime: null, events: 0, subagents: 0, usage: { inputTokens: null, outputTokens: null, costUsd: null }, errors: 0, error,
    },
    byModel: [],
    byDayModel: [],
    priced: null,
    stamp: c.stamp,
    parts: [],
    verdict: null,
  };
}

/** The folders of a path, without the file's name. */
function dirSegments(path: string): string[] {
  return path.replace(/\\/g, '/').split('/').slice(0, -1);
}

/** The file's base name without its extensions. */
function stem(path: string): string {
  const b = basename(path.replace(/\\/g, '/'));
  const dot = b.indexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** A user prompt's label as the formats write it: `user: …` (Codex: `message user: …`). */
const USER_LABEL = /^(?:message\s+)?user:\s*(.*)$/s;

/**
 * The session's first user prompt as its title: the first message or turn event labelled as the user's, skipping
 * the context a tool injects as the user (`<environment_context>`, `<session_context>`), on one line, cut short.
 */
export function titleOf(model: TraceModel): string | null {
  const t = model.events;
  for (let i = 0, end = Math.min(t.size, TITLE_EVENTS); i < end; i++) {
    const cat = t.categoryOf(i);
    if (cat !== 'message' && cat !== 'turn') continue;
    const m = USER_LABEL.exec(t.labelOf(i));
    if (!m) continue;
    const text = m[1].replace(/\s+/g, ' ').trim();
    if (text === '' || text.startsWith('<')) continue;
    return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
  }
  return null;
}

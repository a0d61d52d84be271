import type { FormatName } from '../formatNames';
import { FORMAT_LIST } from '../formats';
import { PRICE_TABLE_DATE } from '../usage/prices';
import type { CheckMode } from '../rules/types';
import type { RuleSetting } from '../checks/runChecks';
import type { UsageCell } from '../usage/usageCells';

/** A session's tokens and cost as the viewer counts them (the session's usage report, subagents included). */
export interface SessionUsageTotals {
  inputTokens: number | null;
  outputTokens: number | null;
  /** Null when nothing the session used is priced: unknown, not free. */
  costUsd: number | null;
}

/** One session of `agent-trace sessions --json` (a subagent's file belongs to its session and is not listed apart). */
export interface SessionEntry {
  /** The format name the file is read as (the agent that wrote it). */
  agent: FormatName;
  file: string;
  sessionId: string | null;
  /** The first user prompt (one line, cut short), or null when the session has none. */
  title: string | null;
  /** The working folder the session ran in (`cwd` as the writer records it), else the project folder its file is kept under. */
  project: string | null;
  startTime: string | null;
  endTime: string | null;
  /** Events of the main file (its subagents' files are counted in `subagents` and `usage`, not here). */
  events: number;
  /** The subagents' files of the session (FormatModule.sessionFiles with role `subagent`). */
  subagents: number;
  usage: SessionUsageTotals;
  /** Events that failed (error status; the summary's `totals.errors`). */
  errors: number;
  /** Why the file could not be read as a session (then the figures are empty), else null. */
  error: string | null;
}

/** One model's share of a session's usage, kept for `agent-trace usage --by model`. */
export interface SessionModelUsage extends SessionUsageTotals {
  model: string;
}

/**
 * What verify and check found in a session (they ride along the catalog's one read of it, as on the viewer's open):
 * `fail` when some finding is an error, `warn` when some is a warning, else `pass`. A finding both modes report
 * (check runs the verification rules too) is counted once.
 */
export interface SessionVerdict {
  state: 'pass' | 'warn' | 'fail';
  errors: number;
  warnings: number;
  /** For a format whose verification proves a hash chain: whether it held (`verify`'s result); null for the others. */
  chain: 'intact' | 'broken' | null;
  /** The first error (else the first warning) by line, with the mode that found it; null when there is none. */
  first: { mode: CheckMode; rule: string; line: number; message: string } | null;
}

/** A file's identity as a listing saw it: a record is used again only while its file and its parts keep it. */
export interface FileStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the catalog knows of one session file: the entry, its per-model usage, and the files it was made from. */
export interface SessionRecord {
  entry: SessionEntry;
  byModel: SessionModelUsage[];
  /**
   * The session's usage per UTC day and model (each model call at its own time, subagents included), adding up to
   * `entry.usage`: a session over midnight counts on both days, one with two models on both (core/usage/usageCells.ts).
   */
  byDayModel: UsageCell[];
  /** Share of the counted tokens whose cost is known (the usage report's `priced`), null when no tokens. */
  priced: number | null;
  /** The main file's stamp when it was read. */
  stamp: FileStamp;
  /** Its session's other files (subagents) with their stamps when read: a change in any re-reads the session. */
  parts: FileStamp[];
  /** What verify and check found in the main file; null when it could not be read, or the checks could not run. */
  verdict?: SessionVerdict | null;
  /**
   * The record was made by reading only what was appended to a followed file (core/sessions/sessionFollower.ts):
   * its figures are the whole file's, its verdict is not made yet. A listing that does not follow the file reads it
   * whole again rather than take this record from the cache.
   */
  verdictPending?: true;
}

/**
 * Where the catalog keeps its records between listings: one JSON text the caller stores (the CLI in `--cache DIR`,
 * the extension in its global storage). The core never writes files; it hands the text over.
 */
export interface SessionCacheStore {
  /** The text last written, null when there is none. */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

/** The cache file's name in the directory the caller gives. */
export const SESSION_CACHE_FILE = 'agent-trace-sessions.json';

/** Bumped when a record's shape or meaning changes: an older cache is then dropped whole. */
const CACHE_VERSION = 3;

/** The user's rule overrides (`agentTrace.rules`) a listing's verdicts were made with: rule id → off or a severity. */
export type VerdictRules = Readonly<Record<string, RuleSetting>>;

/**
 * What a record's figures depend on besides its files: the catalog's version, the formats known (a new format may
 * read a file another way), the price table (costs) and the rule overrides the verdicts were made with (a rule
 * turned off or given another severity changes them). A cache made under another key is not used.
 */
export function cacheKey(rules: VerdictRules = {}): string {
  const overrides = Object.entries(rules).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `v${CACHE_VERSION};${FORMAT_LIST.map((f) => f.name).join(',')};prices ${PRICE_TABLE_DATE}${overrides.length > 0 ? `;rules ${JSON.stringify(overrides)}` : ''}`;
}

interface CacheText {
  key: string;
  records: SessionRecord[];
  /** Files a pattern matched that are no session (content no format claims, in a folder that is not an agent's). */
  notSessions: FileStamp[];
}

/** What a cache holds, by file. */
export interface SessionCacheContent {
  records: Map<string, SessionRecord>;
  notSessions: Map<string, FileStamp>;
}

const isStamp = (s: unknown): s is FileStamp => !!s && typeof (s as FileStamp).path === 'string' && typeof (s as FileStamp).size === 'number' && typeof (s as FileStamp).mtimeMs === 'number';

/** The records of a cache's text, by file; empty for none, another key (other `rules` too), or a text that is not a cache. */
export function parseSessionCache(text: string | null, rules: VerdictRules = {}): SessionCacheContent {
  const out: SessionCacheContent = { records: new Map(), notSessions: new Map() };
  if (text === null) return out;
  try {
    const v = JSON.parse(text) as Partial<CacheText>;
    if (v.key !== cacheKey(rules) || !Array.isArray(v.records) || !Array.isArray(v.notSessions)) return out;
    for (const r of v.records) if (r && r.entry && isStamp(r.stamp) && Array.isArray(r.parts) && Array.isArray(r.byDayModel)) out.records.set(r.stamp.path, r);
    for (const s of v.notSessions) if (isStamp(s)) out.notSessions.set(s.path, s);
  } catch {
    // A damaged cache is no cache: every file is read again.
  }
  return out;
}

/** The text of a cache holding these records, made with these rule overrides. */
export function sessionCacheText(content: SessionCacheContent, rules: VerdictRules = {}): string {
  const body: CacheText = { key: cacheKey(rules), records: [...content.records.values()], notSessions: [...content.notSessions.values()] };
  return JSON.stringify(body);
}

/** True when a stamp still describes the file as it is. */
export function sameStamp(a: FileStamp, b: FileStamp | undefined): boolean {
  return b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentHomeRoots, agentHomes } from '../core/sessions/agentHomes';
import { listSessions, SessionListing } from '../core/sessions/sessionCatalog';
import { SESSION_CACHE_FILE, SessionCacheStore } from '../core/sessions/sessionCache';
import { folderCacheStore } from '../node/folderCache';
import { parseSince, sessionsSince, USAGE_BUCKETS, USAGE_SPLITS, UsageBucketKind, usageCsv, usageOverTime, UsageSplitKind } from '../core/sessions/usageOverTime';
import { ParsedArgs, parseArgs, UsageError } from './args';
import { formatOption, write, writeHuman, writeJson } from './io';
import { cacheDir } from './userCacheDir';
import { openSearchIndex } from '../node/searchIndex';

export const ROOTS_HELP = `  --root DIR      a folder to look in (repeat for more); default: the agents' own folders under
                  your home (${agentHomes().map((h) => `~/${h}`).join(', ')})
  --since DATE    only sessions active since DATE: 2026-12-01, an ISO time, or an age (12h, 7d, 2w)
  --cache DIR     keep what was read in DIR/${SESSION_CACHE_FILE}, so the next run reads only new or changed files
                  (a grown file is read again whole); default: the user's cache folder
                  ($AGENT_TRACE_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache, then agent-trace)
  --no-cache      read every file, keep nothing`;

export const SESSIONS_HELP = `Usage: agent-trace sessions [--root DIR]… [--agent NAME] [--since DATE] [--json] [--cache DIR | --no-cache]

Lists every agent session found: the files each format's own folders and names say are its sessions
(Claude Code, Codex, Gemini CLI, Qwen Code, …). A subagent's file belongs to its session and is not
listed apart. Each session: agent, file, session id, title (the first user prompt), project (its
working folder), start and end, events, subagents, tokens and cost (counted as 'summary' counts
them, subagents included) and failed events. Newest first.

  --json          an array, one object per session: {"agent", "file", "sessionId", "title", "project",
                  "startTime", "endTime", "events", "subagents", "usage": {"inputTokens", "outputTokens",
                  "costUsd"}, "errors", "error"} ("error": why the file could not be read, else null;
                  a cost of null is unknown, not free)
  --agent NAME    only this agent's sessions (a format name)
${ROOTS_HELP}

Exit codes: 0 success (a file that cannot be read is listed with its error), 2 a --root that is no
folder, or bad usage.`;

export const USAGE_HELP = `Usage: agent-trace usage [--by day|week|month|model|project|agent] [--split model|project|agent] [--since DATE] [--root DIR]… [--json | --csv]

Tokens and cost of every agent session found (as 'sessions' lists them), per bucket (default: day).
Each model call counts in the day, week or month of its own time (UTC) and under its own model, so a
session that ran over midnight counts on both days, and one that used two models under both.
A cost that is not known is never counted as 0: each bucket says which sessions had no cost
(unpriced models) and which were only partly priced.

  --by KIND       day, week (ISO), month, model, project or agent
  --split KIND    break each bucket down by model, project or agent ("parts" in --json, a column in --csv)
  --json          {"by", "placedBy": "events", "buckets": [{"key", "sessions", "inputTokens",
                  "outputTokens", "costUsd", "sessionsWithoutCost", "sessionsPartlyPriced",
                  "cacheReadTokens", "cacheWriteTokens"}], "total"}
  --csv           the same as CSV: one row per bucket (per part with --split), then the total; a figure
                  not known is an empty field, never 0
  --agent NAME    only this agent's sessions (a format name)
${ROOTS_HELP}

Exit codes: 0 success, 2 a --root that is no folder, or bad usage.`;

/** The cache folder the options ask for: `--cache DIR`, none with `--no-cache`, else the user's cache folder. */
export function cacheFolder(args: ParsedArgs): string | null {
  if (args.flags.has('--no-cache')) {
    if (args.options.has('--cache')) throw new UsageError('--cache and --no-cache do not go together');
    return null;
  }
  return args.options.get('--cache') ?? cacheDir();
}

/** The cache the options ask for: `file` in {@link cacheFolder}. */
export function cacheOption(args: ParsedArgs, file_ = SESSION_CACHE_FILE): SessionCacheStore | undefined {
  const dir = cacheFolder(args);
  if (dir === null) return undefined;
  return folderCacheStore(dir, file_);
}

export const LIST_FLAGS = ['--json', '--help', '--no-cache'];
export const LIST_VALUED = ['--root', '--agent', '--since', '--cache'];

/** The roots, agent and time the options ask for; the roots default to the agent homes under the user's home folder. */
export function listOptions(args: ParsedArgs): { roots: string[]; agent: ReturnType<typeof formatOption>; since: number | undefined } {
  const agent = formatOption(args.options.get('--agent'));
  const sinceText = args.options.get('--since');
  const since = sinceText === undefined ? undefined : parseSince(sinceText, Date.now());
  if (since === null) throw new UsageError(`--since ${sinceText}: expected a date (2026-12-01), an ISO time or an age (12h, 7d, 2w)`);
  const given = args.lists.get('--root');
  const roots = given ? given.map((r) => path.resolve(r)) : agentHomeRoots(os.homedir());
  // A folder the user named must be one (the agents' own folders are looked in only where they exist).
  for (const r of given ? roots : []) if (!fs.statSync(r, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${r}: no such folder`);
  return { roots, agent, since };
}

/** Lists the sessions the options ask for. */
async function listFor(args: ParsedArgs): Promise<SessionListing> {
  if (args.positional.length > 0) throw new UsageError(`unexpected argument ${args.positional[0]}; folders are given with --root DIR`);
  const { roots, agent, since } = listOptions(args);
  const cache = cacheOption(args);
  // With a cache, the search index rides the listing's reads: a later search reads none of the files read here.
  const index = cache ? openSearchIndex(cacheFolder(args)) : null;
  let listing: SessionListing;
  try {
    listing = await listSessions({ roots, agent, cache, watchRead: index?.watchRead });
  } finally {
    await index?.close();
  }
  return since === undefined ? listing : { ...listing, records: sessionsSince(listing.records, since) };
}

/** `agent-trace sessions`. */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, LIST_FLAGS, LIST_VALUED);
  if (args.flags.has('--help')) return write(SESSIONS_HELP + '\n').then(() => 0);
  const listing = await listFor(args);
  const entries = listing.records.map((r) => r.entry);
  if (args.flags.has('--json')) {
    await writeJson(entries, 3);
    return 0;
  }
  const rows = entries.map((e) => [
    e.startTime ? e.startTime.slice(0, 16).replace('T', ' ') : '?',
    e.agent,
    String(e.events),
    `${tokens(e.usage.inputTokens)}/${tokens(e.usage.outputTokens)}`,
    cost(e.usage.costUsd),
    String(e.errors),
    e.error !== null ? `(cannot read: ${e.error})` : (e.title ?? '(no prompt)'),
  ]);
  const lines = table(['START (UTC)', 'AGENT', 'EVENTS', 'TOKENS IN/OUT', 'COST', 'ERRORS', 'TITLE'], rows);
  lines.push(`${entries.length} session${entries.length === 1 ? '' : 's'} (${listing.read} files read, ${listing.fromCache} from the cache)`);
  await writeHuman(lines.join('\n') + '\n');
  return 0;
}

/** `agent-trace usage`. */
export async function usageCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [...LIST_FLAGS, '--csv'], [...LIST_VALUED, '--by', '--split']);
  if (args.flags.has('--help')) return write(USAGE_HELP + '\n').then(() => 0);
  const by = args.options.get('--by') ?? 'day';
  if (!(USAGE_BUCKETS as readonly string[]).includes(by)) throw new UsageError(`--by ${by}: expected one of ${USAGE_BUCKETS.join(', ')}`);
  const split = args.options.get('--split');
  if (split !== undefined && !(USAGE_SPLITS as readonly string[]).includes(split)) throw new UsageError(`--split ${split}: expected one of ${USAGE_SPLITS.join(', ')}`);
  if (args.flags.has('--json') && args.flags.has('--csv')) throw new UsageError('--json and --csv do not go together');
  const listing = await listFor(args);
  const u = usageOverTime(listing.records, by as UsageBucketKind, split as UsageSplitKind | undefined);
  if (args.flags.has('--json')) {
    await writeJson(u, 3);
    return 0;
  }
  if (args.flags.has('--csv')) {
    await write(usageCsv(u));
    return 0;
  }
  const row = (key: string, b: Omit<(typeof u.buckets)[number], 'key'>) => [key, String(b.sessions), tokens(b.inputTokens), tokens(b.outputTokens), cost(b.costUsd) + (b.sessionsWithoutCost.length + b.sessionsPartlyPriced.length > 0 ? ' +?' : '')];
  const lines = table([by.toUpperCase(), 'SESSIONS', 'INPUT', 'OUTPUT', 'COST'], [...u.buckets.map((b) => row(b.key, b)), row('total', u.total)]);
  if (by === 'day' || by === 'week' || by === 'month') lines.push(`Each model call counts in the ${by} of its own time (UTC): a session may count in more than one.`);
  const unknown = u.total.sessionsWithoutCost;
  const partly = u.total.sessionsPartlyPriced;
  if (unknown.length + partly.length > 0) lines.push(`+? the cost is short: ${unknown.length} session${unknown.length === 1 ? '' : 's'} had no cost (unpriced models), ${partly.length} partly priced:`);
  for (const f of [...unknown, ...partly].slice(0, 10)) lines.push(`  ${f}`);
  if (unknown.length + partly.length > 10) lines.push(`  … ${unknown.length + partly.length - 10} more (--json lists them all)`);
  await writeHuman(lines.join('\n') + '\n');
  return 0;
}

function tokens(n: number | null): string {
  return n === null ? '?' : String(n);
}

function cost(usd: number | null): string {
  return usd === null ? '?' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** Rows under a header, each column as wide as its widest cell; the last column is not padded. */
function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  return all.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  '));
}

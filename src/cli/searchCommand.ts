import { FilterError } from '../core/filter/filterSyntax';
import { SEARCH_INDEX_FILE, SessionSearchIndex } from '../core/sessions/sessionSearch';
import { SESSION_CACHE_FILE } from '../core/sessions/sessionCache';
import { agentHomes } from '../core/sessions/agentHomes';
import { parseArgs, UsageError } from './args';
import { write, writeHuman, writeJson } from './io';
import { cacheFolder, cacheOption, LIST_FLAGS, LIST_VALUED, listOptions } from './sessionsCommand';
import { openSearchIndex } from '../node/searchIndex';

export const SEARCH_HELP = `Usage: agent-trace search QUERY [--root DIR]… [--agent NAME] [--since DATE] [--json] [--limit N] [--cache DIR | --no-cache]

Full-text search over every agent session found (as 'sessions' lists them, subagents' files included):
user prompts, replies, tool inputs and tool outputs. QUERY is written in the viewer's filter language:
bare words and text:"…" are text (a word matches words it starts; a quoted phrase must appear as
written), and these fields narrow:
  agent:codex        the agent (a format name; a,b for either; * and ? as wildcards)
  tool:Bash          the tool the line's event called
  status:error       events that failed (status:ok: the others)
  field:prompt       prompt, reply, tool-input, tool-output or other
  since:7d           sessions active since then (2026-12-01, an ISO time, or an age: 12h, 7d, 2w)
Terms side by side must all hold; "or", "not" (or -) and parentheses combine them.
Hits are grouped by session, newest first, each session's in line order.

  --json          an array of hits: [{"agent", "file", "sessionId", "line", "field", "snippet"}]
                  ("line": the 1-based line of the event in its file, as the viewer shows it)
  --limit N       at most N hits (default 100)
  --agent NAME    only this agent's sessions (a format name)
  --root DIR      a folder to look in (repeat for more); default: the agents' own folders under
                  your home (${agentHomes().map((h) => `~/${h}`).join(', ')})
  --since DATE    only sessions active since DATE: 2026-12-01, an ISO time, or an age (12h, 7d, 2w)
  --cache DIR     keep the index in DIR/${SEARCH_INDEX_FILE} (and the listing in DIR/${SESSION_CACHE_FILE}),
                  so the next run reads only new or changed files (a grown file is read again whole;
                  'sessions' and 'usage' keep the index up to date as they read, so no file is read twice);
                  default: the user's cache folder ($AGENT_TRACE_CACHE_DIR, else $XDG_CACHE_HOME or
                  ~/.cache, then agent-trace)
  --no-cache      index every file for this search, keep nothing

Exit codes: 0 hits found, 1 no hits, 2 a query that cannot be read, a --root that is no folder, or
bad usage.`;

/** `agent-trace search`. */
export async function searchCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, LIST_FLAGS, [...LIST_VALUED, '--limit']);
  if (args.flags.has('--help')) return write(SEARCH_HELP + '\n').then(() => 0);
  if (args.positional.length === 0) throw new UsageError('search needs a QUERY (agent-trace search --help)');
  if (args.positional.length > 1) throw new UsageError(`one QUERY: quote it ("${args.positional.join(' ')}"); folders are given with --root DIR`);
  const query = args.positional[0];
  const limitText = args.options.get('--limit');
  const limit = limitText === undefined ? 100 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit ${limitText}: expected a whole number of 1 or more`);
  const { roots, agent, since } = listOptions(args);
  let sessions;
  try {
    // The query is read before any file is: a query that cannot be read costs no indexing.
    SessionSearchIndex.checkQuery(query);
    const index = openSearchIndex(cacheFolder(args));
    try {
      await index.update({ roots, cache: cacheOption(args) });
      sessions = await index.search(query, { limit, agent, since });
    } finally {
      await index.close();
    }
  } catch (e) {
    if (e instanceof FilterError) throw new UsageError(`query ${JSON.stringify(query)}: ${e.message}`);
    throw e;
  }
  const hits = sessions.flatMap((s) => s.hits);
  if (args.flags.has('--json')) {
    await writeJson(hits, 2);
    return hits.length > 0 ? 0 : 1;
  }
  const lines: string[] = [];
  for (const s of sessions) {
    const when = s.startTime ? s.startTime.slice(0, 16).replace('T', ' ') : '?';
    lines.push(`${when}  ${s.agent}  ${s.title ?? '(no prompt)'}`);
    lines.push(`  ${s.file}`);
    for (const h of s.hits) lines.push(`    ${h.file === s.file ? '' : `${h.file}:`}${h.line}  ${h.field.padEnd(11)}  ${h.snippet}`);
  }
  lines.push(`${hits.length}${hits.length >= limit ? '+' : ''} hit${hits.length === 1 ? '' : 's'} in ${sessions.length} session${sessions.length === 1 ? '' : 's'}`);
  await writeHuman(lines.join('\n') + '\n');
  return hits.length > 0 ? 0 : 1;
}

/**
 * The Agent Usage view's data (issue 39, part 3), without VS Code: the session catalog's records (the listing the
 * Agent Traces view holds) summed by core/sessions/usageOverTime.ts for the view's query, and its CSV.
 */
import type { SessionRecord } from '../core/sessions/sessionCache';
import { parseSince, sessionsSince, usageCsv, usageOverTime } from '../core/sessions/usageOverTime';
import type { UsageHostMessage, UsageQuery } from '../protocol/usage';

/** The view's first query: days of the last 30 days, by model. */
export const DEFAULT_USAGE_QUERY: UsageQuery = { by: 'day', split: 'model', since: '30d' };

/** The records the query's range keeps (sessions active since then, as `usage --since` keeps them). */
function inRange(records: readonly SessionRecord[], query: UsageQuery, now: number): SessionRecord[] {
  if (query.since === 'all') return [...records];
  return sessionsSince(records, parseSince(query.since, now)!);
}

/** The view's data for a query: the buckets with their parts, or the message for a listing with no session. */
export function usageMessage(records: readonly SessionRecord[], query: UsageQuery, now: number): UsageHostMessage {
  const readable = records.filter((r) => r.entry.error === null);
  if (readable.length === 0) {
    return { type: 'usageMessage', kind: 'empty', message: records.length === 0 ? 'No agent sessions found in the agents’ folders or agentTrace.sessionRoots.' : `No readable agent sessions: ${records.length} could not be read.` };
  }
  const kept = inRange(records, query, now);
  const undated = readable.filter((r) => Number.isNaN(Date.parse(r.entry.endTime ?? r.entry.startTime ?? ''))).length;
  return { type: 'usageData', query, usage: usageOverTime(kept, query.by, query.split), sessions: kept.filter((r) => r.entry.error === null).length, unreadable: records.length - readable.length, undated };
}

/** The CSV of what the view shows for a query (core/sessions/usageOverTime.ts `usageCsv`). */
export function usageCsvFor(records: readonly SessionRecord[], query: UsageQuery, now: number): string {
  return usageCsv(usageOverTime(inRange(records, query, now), query.by, query.split));
}

/** A file name for the CSV: `agent-usage-by-day-model-30d.csv`. */
export function usageCsvName(query: UsageQuery): string {
  return `agent-usage-by-${query.by}-${query.split}-${query.since}.csv`;
}

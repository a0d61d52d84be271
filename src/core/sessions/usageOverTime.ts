import type { SessionRecord } from './sessionCache';
import type { UsageCell } from '../usage/usageCells';
import type { UsageBucket, UsageBucketKind, UsageOverTime, UsageSplitKind } from './usageBuckets';
export { USAGE_BUCKETS, USAGE_SPLITS } from './usageBuckets';
export type { UsageBucket, UsageBucketKind, UsageOverTime, UsageSplitKind } from './usageBuckets';

/** Bucket for sessions with no time, project or model. */
const NONE = '(none)';

function emptyBucket(key: string): UsageBucket {
  return { key, sessions: 0, inputTokens: null, outputTokens: null, costUsd: null, sessionsWithoutCost: [], sessionsPartlyPriced: [], cacheReadTokens: null, cacheWriteTokens: null };
}

const add = (a: number | null, b: number | null): number | null => (b === null ? a : (a ?? 0) + b);

/** The ISO week of a UTC day, `2026-W49`. */
export function isoWeek(ms: number): string {
  const d = new Date(ms);
  const day = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day + 3);
  const year = new Date(thursday).getUTCFullYear();
  // The week of the year its Thursday falls in: week 1 holds the year's first Thursday.
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / 604800000);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The day, week or month of a UTC day (`2026-12-01`), `(none)` for no day. */
function dayKey(day: string | null, by: 'day' | 'week' | 'month'): string {
  if (day === null) return NONE;
  const ms = Date.parse(day);
  if (Number.isNaN(ms)) return NONE;
  return by === 'day' ? day : by === 'month' ? day.slice(0, 7) : isoWeek(ms);
}

function timeKey(startTime: string | null, by: 'day' | 'week' | 'month'): string {
  if (startTime === null) return NONE;
  const ms = Date.parse(startTime);
  return Number.isNaN(ms) ? NONE : dayKey(new Date(ms).toISOString().slice(0, 10), by);
}

/** One session's usage in one bucket, before it is added. */
interface Share {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
  /** Input + output tokens with a cost, and without. */
  priced: number;
  unpriced: number;
}

function addShare(into: Share, c: Omit<Share, 'priced' | 'unpriced'>, pricedShare: number | null): void {
  into.inputTokens = add(into.inputTokens, c.inputTokens);
  into.outputTokens = add(into.outputTokens, c.outputTokens);
  into.cacheReadTokens = add(into.cacheReadTokens, c.cacheReadTokens);
  into.cacheWriteTokens = add(into.cacheWriteTokens, c.cacheWriteTokens);
  into.costUsd = add(into.costUsd, c.costUsd);
  const tokens = (c.inputTokens ?? 0) + (c.outputTokens ?? 0);
  const p = c.costUsd === null ? 0 : pricedShare ?? 1;
  into.priced += tokens * p;
  into.unpriced += tokens * (1 - p);
}

/**
 * The sessions' tokens and cost per bucket. By day, week or month each model call counts in the bucket of its own
 * time (UTC; the record's `byDayModel`), by model under its own model, so a session may count in several buckets; a
 * session with no usage counts in its start's bucket (or `(none)`). Every kind's buckets add up to the sessions' own
 * totals. With `split`, each bucket's `parts` break it down by model, project or agent. Sessions that could not be
 * read are left out.
 */
export function usageOverTime(records: readonly SessionRecord[], by: UsageBucketKind, split?: UsageSplitKind): UsageOverTime {
  const buckets = new Map<string, UsageBucket>();
  const parts = new Map<string, Map<string, UsageBucket>>();
  const total: UsageBucket = emptyBucket('');
  const put = (b: UsageBucket, file: string, s: Share) => {
    b.sessions++;
    b.inputTokens = add(b.inputTokens, s.inputTokens);
    b.outputTokens = add(b.outputTokens, s.outputTokens);
    b.cacheReadTokens = add(b.cacheReadTokens, s.cacheReadTokens);
    b.cacheWriteTokens = add(b.cacheWriteTokens, s.cacheWriteTokens);
    b.costUsd = add(b.costUsd, s.costUsd);
    if (s.priced + s.unpriced > 0 && s.costUsd === null) b.sessionsWithoutCost.push(file);
    else if (s.unpriced > 0) b.sessionsPartlyPriced.push(file);
  };
  const bucket = (key: string) => {
    let b = buckets.get(key);
    if (b === undefined) buckets.set(key, (b = emptyBucket(key)));
    return b;
  };
  const part = (key: string, sub: string) => {
    let m = parts.get(key);
    if (m === undefined) parts.set(key, (m = new Map()));
    let b = m.get(sub);
    if (b === undefined) m.set(sub, (b = emptyBucket(sub)));
    return b;
  };
  for (const r of records) {
    if (r.entry.error !== null) continue;
    const e = r.entry;
    // The session's cells; one with no usage (or a record without cells) is one share of its whole usage at its start.
    const cells: (UsageCell | null)[] = r.byDayModel?.length ? r.byDayModel : [null];
    const keyOf = (kind: UsageBucketKind, c: UsageCell | null): string =>
      kind === 'agent' ? e.agent : kind === 'project' ? (e.project ?? NONE) : kind === 'model' ? (c?.model ?? NONE) : c === null ? timeKey(e.startTime, kind) : dayKey(c.day, kind);
    const newShare = (): Share => ({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, priced: 0, unpriced: 0 });
    const whole = newShare();
    const shares = new Map<string, { share: Share; parts: Map<string, Share> }>();
    for (const c of cells) {
      const u = c ?? { ...e.usage, cacheReadTokens: null, cacheWriteTokens: null };
      // A whole session's priced share is the report's; a cell's tokens are priced or not as a whole.
      const pricedShare = c === null ? r.priced : null;
      const key = keyOf(by, c);
      let s = shares.get(key);
      if (s === undefined) shares.set(key, (s = { share: newShare(), parts: new Map() }));
      addShare(whole, u, pricedShare);
      addShare(s.share, u, pricedShare);
      if (!split) continue;
      const sub = keyOf(split, c);
      let p = s.parts.get(sub);
      if (p === undefined) s.parts.set(sub, (p = newShare()));
      addShare(p, u, pricedShare);
    }
    put(total, e.file, whole);
    for (const [k, s] of shares) {
      put(bucket(k), e.file, s.share);
      for (const [sub, p] of s.parts) put(part(k, sub), e.file, p);
    }
  }
  const byKey = (a: UsageBucket, b: UsageBucket) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const out = [...buckets.values()].sort(byKey);
  if (split) for (const b of out) b.parts = [...(parts.get(b.key)?.values() ?? [])].sort(byKey);
  const { key: _key, ...totalOut } = total;
  void _key;
  return { by, placedBy: 'events', ...(split ? { split } : {}), buckets: out, total: totalOut };
}

const CSV_COLUMNS = ['sessions', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd', 'sessionsWithoutCost', 'sessionsPartlyPriced'] as const;

/** A CSV field: quoted when it holds a comma, quote or line break; a leading `=+-@` is defused for spreadsheets. */
function csvField(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) && !/^-?\d/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * {@link usageOverTime} as CSV (RFC 4180, CRLF line ends): a header, one row per bucket (or, with a split, per part
 * of each bucket), then the total. A figure that is not known is an empty field, never 0; the columns of sessions
 * without cost or partly priced count them (the JSON lists their files).
 */
export function usageCsv(u: UsageOverTime): string {
  const head = [u.by, ...(u.split ? [u.split] : []), ...CSV_COLUMNS];
  const row = (keys: string[], b: Omit<UsageBucket, 'key'>) => [
    ...keys, String(b.sessions), ...[b.inputTokens, b.outputTokens, b.cacheReadTokens, b.cacheWriteTokens, b.costUsd].map((n) => (n === null ? '' : String(n))),
    String(b.sessionsWithoutCost.length), String(b.sessionsPartlyPriced.length),
  ];
  const rows: string[][] = [head];
  for (const b of u.buckets) {
    if (u.split && b.parts) for (const p of b.parts) rows.push(row([b.key, p.key], p));
    else rows.push(row(u.split ? [b.key, ''] : [b.key], b));
  }
  rows.push(row(u.split ? ['total', ''] : ['total'], u.total));
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * A `--since` value as milliseconds: a date (`2026-12-01`, UTC midnight), a time (`2026-12-01T10:00:00Z`) or an age
 * before `now` (`7d`, `12h`, `2w`). Null when it is none of those.
 */
export function parseSince(text: string, now: number): number | null {
  const age = /^(\d+)([hdw])$/.exec(text.trim());
  if (age) return now - Number(age[1]) * { h: 3600000, d: 86400000, w: 604800000 }[age[2] as 'h' | 'd' | 'w'];
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** The records of sessions active at or after `since` (their end, else their start); those with no time are left out. */
export function sessionsSince(records: readonly SessionRecord[], since: number): SessionRecord[] {
  return records.filter((r) => {
    const t = Date.parse(r.entry.endTime ?? r.entry.startTime ?? '');
    return !Number.isNaN(t) && t >= since;
  });
}

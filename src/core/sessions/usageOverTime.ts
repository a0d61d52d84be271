import type { SessionRecord } from './sessionCache';

/** The buckets of `agent-trace usage --by`. */
export const USAGE_BUCKETS = ['day', 'week', 'month', 'model', 'project', 'agent'] as const;
export type UsageBucketKind = (typeof USAGE_BUCKETS)[number];

/** Tokens and cost of the sessions in one bucket. */
export interface UsageBucket {
  /** `2026-12-01` (day, UTC), `2026-W49` (ISO week), `2026-12` (month), a model, project or agent name. */
  key: string;
  sessions: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The sum of the costs known; null when no session of the bucket has one. Never a missing cost counted as 0. */
  costUsd: number | null;
  /** Files of the sessions with tokens and no cost at all (unpriced models), so the cost is known to be short. */
  sessionsWithoutCost: string[];
  /** Files of the sessions only part of whose tokens are priced. */
  sessionsPartlyPriced: string[];
}

/** `agent-trace usage --json`. */
export interface UsageOverTime {
  by: UsageBucketKind;
  /**
   * How a session is placed in time: `start` (the whole session in the day, week or month it started, UTC). A session
   * is not split over the days its events span.
   */
  placedBy: 'start';
  buckets: UsageBucket[];
  total: Omit<UsageBucket, 'key'>;
}

/** Bucket for sessions with no time, project or model. */
const NONE = '(none)';

function emptyBucket(key: string): UsageBucket {
  return { key, sessions: 0, inputTokens: null, outputTokens: null, costUsd: null, sessionsWithoutCost: [], sessionsPartlyPriced: [] };
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

function timeKey(startTime: string | null, by: 'day' | 'week' | 'month'): string {
  if (startTime === null) return NONE;
  const ms = Date.parse(startTime);
  if (Number.isNaN(ms)) return NONE;
  const iso = new Date(ms).toISOString();
  return by === 'day' ? iso.slice(0, 10) : by === 'month' ? iso.slice(0, 7) : isoWeek(ms);
}

/**
 * The sessions' tokens and cost per bucket. By day, week or month a session counts whole in the bucket of its start
 * (UTC); by model each session adds its per-model usage (a session with no named model counts under `(none)`), so
 * the buckets of every kind but `model` add up to the sessions' own totals. Sessions that could not be read are left out.
 */
export function usageOverTime(records: readonly SessionRecord[], by: UsageBucketKind): UsageOverTime {
  const buckets = new Map<string, UsageBucket>();
  const total: UsageBucket = emptyBucket('');
  // A model's share is priced or not as a whole; only a session's total can be partly priced.
  const put = (key: string, r: SessionRecord, u: { inputTokens: number | null; outputTokens: number | null; costUsd: number | null }, into?: UsageBucket, priced = r.priced) => {
    let b = into ?? buckets.get(key);
    if (b === undefined) buckets.set(key, (b = emptyBucket(key)));
    b.sessions++;
    b.inputTokens = add(b.inputTokens, u.inputTokens);
    b.outputTokens = add(b.outputTokens, u.outputTokens);
    b.costUsd = add(b.costUsd, u.costUsd);
    const tokens = (u.inputTokens ?? 0) + (u.outputTokens ?? 0) > 0;
    if (tokens && u.costUsd === null) b.sessionsWithoutCost.push(r.entry.file);
    else if (tokens && priced !== null && priced < 1) b.sessionsPartlyPriced.push(r.entry.file);
  };
  for (const r of records) {
    if (r.entry.error !== null) continue;
    const e = r.entry;
    put('', r, e.usage, total);
    if (by === 'model') {
      if (r.byModel.length === 0) put(NONE, r, e.usage);
      for (const m of r.byModel) put(m.model, r, m, undefined, null);
    } else {
      const key = by === 'agent' ? e.agent : by === 'project' ? (e.project ?? NONE) : timeKey(e.startTime, by);
      put(key, r, e.usage);
    }
  }
  const { key: _key, ...totalOut } = total;
  void _key;
  return { by, placedBy: 'start', buckets: [...buckets.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), total: totalOut };
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

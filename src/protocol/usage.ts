/**
 * Messages between the extension host and the Agent Usage view (`webview/usage/`): usage over time across every
 * agent session the Agent Traces view lists (issue 39, part 3). Plain JSON data only.
 */
import type { UsageOverTime } from '../core/sessions/usageBuckets';

/** How the chart groups time. */
export const USAGE_PERIODS = ['day', 'week', 'month'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];
/** What each period is broken down by (the chart's series). */
export const USAGE_SERIES = ['model', 'project', 'agent'] as const;
export type UsageSeries = (typeof USAGE_SERIES)[number];
/** How far back the sessions go. */
export const USAGE_RANGES = ['7d', '30d', '90d', 'all'] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];

/** What the view shows: the period, the breakdown and the range. */
export interface UsageQuery {
  by: UsagePeriod;
  split: UsageSeries;
  since: UsageRange;
}

/** Host → view. */
export type UsageHostMessage =
  /** The sessions are being listed (the Agent Traces view's listing): `done` of `total` files, when known. */
  | { type: 'usageListing'; done: number | null; total: number | null }
  /**
   * The usage for `query`: the buckets with their parts (`split`), from `sessions` sessions; `unreadable` could not be
   * read; `undated` of the readable sessions (in the range or not) record no time: a range of days keeps none of them,
   * "all" counts them in the period bucket `(none)`, which the view names "no date".
   */
  | { type: 'usageData'; query: UsageQuery; usage: UsageOverTime; sessions: number; unreadable: number; undated: number }
  /** The listing failed, or found nothing to show (`empty`: no sessions at all). */
  | { type: 'usageMessage'; kind: 'empty' | 'error'; message: string };

/** View → host. */
export type UsageViewMessage =
  | { type: 'usageReady'; query: UsageQuery | null }
  | { type: 'usageQuery'; query: UsageQuery }
  /** Save the table as CSV (the host asks where). */
  | { type: 'usageExportCsv'; query: UsageQuery }
  /** List the sessions again. */
  | { type: 'usageRefresh' };

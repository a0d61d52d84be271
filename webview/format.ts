/** Number and time formatting for rows, the header and the detail pane. Pure (unit-tested in Node). */

/** `12 ms`, `1.5 s`, `3 min 4 s`, `2 h 5 min`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const a = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (a < 1) return `${sign}${a.toFixed(a === 0 ? 0 : 2)} ms`;
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${(a / 1000).toFixed(a < 10_000 ? 1 : 0)} s`;
  if (a < 3_600_000) return `${sign}${Math.floor(a / 60_000)} min ${Math.round((a % 60_000) / 1000)} s`;
  return `${sign}${Math.floor(a / 3_600_000)} h ${Math.round((a % 3_600_000) / 60_000)} min`;
}

/** `+1.5 s` from the trace start; `+0 ms` for the first event. */
export function formatOffset(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return (ms < 0 ? '' : '+') + formatDuration(ms);
}

/** `1.2k`, `340`, `2.1M`. */
export function formatCount(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n * 100) / 100);
  if (a < 1_000_000) return `${(n / 1000).toFixed(a < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `1.2k→340`, `1.2k→?`, or '' when neither is known. */
export function formatTokens(tin: number | null | undefined, tout: number | null | undefined): string {
  if (tin == null && tout == null) return '';
  return `${tin == null ? '?' : formatCount(tin)}→${tout == null ? '?' : formatCount(tout)}`;
}

/** `512 B`, `4.0 KB`, `312 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(n < 10 * 1024 ** 2 ? 1 : 0)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

/** A thousands-separated integer: `1,000,000`. */
export function formatInt(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `2026-01-01 10:00:02.123 UTC` from ISO 8601 (UTC, so every reader sees the same clock). */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ''} UTC` : iso;
}

/** `N thing` / `N things`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatInt(n)} ${n === 1 ? word : many}`;
}

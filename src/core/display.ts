/**
 * How numbers, durations, token counts, sizes and times read, for every surface: event labels built by the
 * formats (and so the CLI), the viewer's rows, header and detail pane. Pure and free of Node imports, so the
 * webview bundles this same module instead of keeping a copy that drifts.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * `0 ms`, `12 ms`, `1.5 s`, `42 s`, `3 min 4 s`, `2 h 5 min`; negative values keep their sign
 * (`-1.5 s`); '' for null, NaN and infinities. The value is rounded to the precision shown before the
 * unit is chosen, so rounding carries into the next unit: 59.5 s is `1 min 0 s`, never `60 s`, and
 * 3599.6 s is `1 h 0 min`, never `59 min 60 s`.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  // Whole milliseconds: what event labels (and so the CLI's output) have always said; no "-0 ms".
  if (Math.round(Math.abs(ms)) === 0) return '0 ms';
  const sign = ms < 0 ? '-' : '';
  return sign + unsignedDuration(Math.abs(ms));
}

function unsignedDuration(a: number): string {
  if (Math.round(a) < SECOND) return `${Math.round(a)} ms`;
  // Seconds show one decimal below 10 s and none above; the text decides whether the unit overflowed.
  const tenths = (a / SECOND).toFixed(1);
  if (Number(tenths) < 10) return `${tenths} s`;
  const seconds = Math.round(a / SECOND);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(a / MINUTE);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * An offset from the trace start, to the millisecond: `+0 ms`, `+340 ms`, `+1.500 s`, `+5:00.123` (min:s), `+1:05:00.123`
 * (h:min:s); a negative offset keeps its `-`. Whole milliseconds at every size: rows of a long run a few ms apart
 * read apart (a duration's rounding made every row of a 5-minute trace read `+5 min 0 s`).
 */
export function formatOffset(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const whole = Math.round(Math.abs(ms));
  const sign = ms < 0 && whole > 0 ? '-' : '+';
  if (whole < SECOND) return `${sign}${whole} ms`;
  const milli = String(whole % SECOND).padStart(3, '0');
  const secs = Math.floor(whole / SECOND);
  if (secs < 60) return `${sign}${secs}.${milli} s`;
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = secs < 3600 ? `${Math.floor(secs / 60)}:${two(secs % 60)}` : `${Math.floor(secs / 3600)}:${two(Math.floor(secs / 60) % 60)}:${two(secs % 60)}`;
  return `${sign}${clock}.${milli}`;
}

/** `340`, `1.2k`, `12k`, `2.1M` (negative counts keep their sign); '' for NaN and infinities. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '';
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n * 100) / 100);
  // 9,960 would read 10.0k and 999,600 1000k: the text decides whether the unit overflowed, as for durations.
  const thousands = (a / 1000).toFixed(1);
  if (Number(thousands) < 10) return `${(n / 1000).toFixed(1)}k`;
  if (Number((a / 1000).toFixed(0)) < 1000) return `${(n / 1000).toFixed(0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `1.2k→340`, `1.2k→?`, or '' when neither is known; `unit` is appended when given (`1.2k→340 tokens`). */
export function formatTokens(tin: number | null | undefined, tout: number | null | undefined, unit = ''): string {
  if (tin == null && tout == null) return '';
  return `${tin == null ? '?' : formatCount(tin)}→${tout == null ? '?' : formatCount(tout)}${unit ? ` ${unit}` : ''}`;
}

/** `512 B`, `4.0 KB`, `312 MB`, `1.2 GB`. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(n < 10 * 1024 ** 2 ? 1 : 0)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

/** A thousands-separated integer: `1,000,000`, `-1,234`. */
export function formatInt(n: number): string {
  if (!Number.isFinite(n)) return '';
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

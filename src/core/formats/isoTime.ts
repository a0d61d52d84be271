/** Date.parse, with null for a time it cannot read. */
function dateParse(ts: string): number | null {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : t;
}

/**
 * Epoch ms of a timestamp string, fast for `YYYY-MM-DDTHH:MM:SS[.fraction]Z` as lumen's writer, Claude Code, Codex,
 * Gemini CLI and many others write it (the day is parsed once and cached; the time of day is read digit by digit);
 * anything else goes through `Date.parse`, so every string gets exactly what Date.parse gives it (null for NaN).
 * Not a string: null. A reader keeps the last day it read: one per file reads fastest.
 */
export function makeTimestampReader(): (ts: unknown) => number | null {
  let day = '';
  let dayMs = 0;
  const digits = (s: string, at: number, n: number): number => {
    let x = 0;
    for (let i = at; i < at + n; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return NaN;
      x = x * 10 + c;
    }
    return x;
  };
  return (ts) => {
    if (typeof ts !== 'string') return null;
    const n = ts.length;
    if (n < 20 || ts[10] !== 'T' || ts[13] !== ':' || ts[16] !== ':' || ts[n - 1] !== 'Z' || (n > 20 && ts[19] !== '.')) return dateParse(ts);
    if (day === '' || !ts.startsWith(day)) {
      const ms = Date.parse(ts.slice(0, 10) + 'T00:00:00Z');
      if (Number.isNaN(ms)) return dateParse(ts);
      day = ts.slice(0, 10);
      dayMs = ms;
    }
    const frac = n > 20 ? millis(ts, n - 1) : 0;
    const h = digits(ts, 11, 2);
    const m = digits(ts, 14, 2);
    const sec = digits(ts, 17, 2);
    // Out of range (hour 24, minute or second 60) or not digits: Date.parse decides, as for any other layout.
    if (!(h < 24 && m < 60 && sec < 60)) return dateParse(ts);
    const t = dayMs + ((h * 60 + m) * 60 + sec) * 1000 + frac;
    return Number.isNaN(t) ? dateParse(ts) : t;
  };
}

/**
 * The milliseconds of a fraction that starts at index 20 and ends before `end`: its first 3 digits (missing ones
 * 0); NaN when it has no digit or any character of it is not a digit, as Date.parse rejects such a fraction.
 */
function millis(ts: string, end: number): number {
  if (end <= 20) return NaN;
  let x = 0;
  for (let i = 20; i < end; i++) {
    const c = ts.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    if (i < 23) x = x * 10 + c;
  }
  for (let i = end; i < 23; i++) x *= 10;
  return x;
}

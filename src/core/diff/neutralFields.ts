import { mayBeVolatile, volatileValueClass } from './volatileFields';
import type { TraceModel } from '../traceModel';
import type { FieldChange } from './fieldDiff';

// Durations and times inside a label (`tool_call http.get 12 ms`) change on every run; they are not content.
const LABEL_TIMES = /\d+(\.\d+)?\s?(ms|s|µs|us|ns|min|h)\b|\d{4}-\d\d-\d\dT[\d:.]+Z?/g;

// Whitespace that is not one plain space: a run of spaces, a tab, a line break, a no-break space…
const ODD_SPACE = /[^\S ]| {2}/;

// Labels repeat their words (a model name, a tool) on every event: each word with a digit is classified once.
const wordClasses = new Map<string, boolean>();
const MAX_WORDS = 10_000;

function volatileWord(w: string): boolean {
  let v = wordClasses.get(w);
  if (v === undefined) {
    v = volatileValueClass(w) !== null;
    if (wordClasses.size >= MAX_WORDS) wordClasses.clear();
    wordClasses.set(w, v);
  }
  return v;
}

/** Whether a word of `s` (words between single spaces) looks like an id, a time or a digest. */
function hasVolatileWord(s: string): boolean {
  for (let start = 0; start < s.length; ) {
    let end = s.indexOf(' ', start);
    if (end < 0) end = s.length;
    // Most words cannot be an id, a time or a digest (no digit, too short): only the others are sliced and looked at.
    if (mayBeVolatile(s, start, end) && volatileWord(s.slice(start, end))) return true;
    start = end + 1;
  }
  return false;
}

/** A label with its durations, times and ids taken out (`run_created run_ab0d…`), for comparing two runs' events. */
export function comparableLabel(label: string): string {
  // Durations, times and ids all have digits; a label without any is kept as it is.
  if (!/\d/.test(label)) return label;
  const s = label.replace(LABEL_TIMES, '');
  // Single spaces and no id: splitting into words and joining them again would give `s` back.
  if (!ODD_SPACE.test(s) && !hasVolatileWord(s)) return s;
  return s.split(/\s+/).filter((w) => volatileValueClass(w) === null).join(' ');
}

const NEUTRAL = ['kind', 'category', 'status', 'tool', 'model', 'tokensIn', 'tokensOut'] as const;

/**
 * The facts every adapter reads that differ between two events, for files whose JSON cannot be compared field by
 * field (two shapes of one run, a one-document trace). A fact one side does not know is not a difference.
 */
export function neutralFieldChanges(a: TraceModel, ai: number, b: TraceModel, bi: number): FieldChange[] {
  const ea = a.events.get(ai);
  const eb = b.events.get(bi);
  const out: FieldChange[] = [];
  for (const k of NEUTRAL) {
    const x = ea[k];
    const y = eb[k];
    if (x !== null && y !== null && x !== y) out.push({ path: k, a: x, b: y });
  }
  if (out.length === 0 && comparableLabel(ea.label) !== comparableLabel(eb.label)) out.push({ path: 'label', a: ea.label, b: eb.label });
  return out;
}

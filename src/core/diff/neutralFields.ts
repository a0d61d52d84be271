import { volatileValueClass } from './volatileFields';
import type { TraceModel } from '../traceModel';
import type { FieldChange } from './fieldDiff';

// Durations and times inside a label (`tool_call http.get 12 ms`) change on every run; they are not content.
const LABEL_TIMES = /\d+(\.\d+)?\s?(ms|s|µs|us|ns|min|h)\b|\d{4}-\d\d-\d\dT[\d:.]+Z?/g;

/** A label with its durations, times and ids taken out (`run_created run_ab0d…`), for comparing two runs' events. */
export function comparableLabel(label: string): string {
  // Durations, times and ids all have digits; a label without any is kept as it is.
  if (!/\d/.test(label)) return label;
  return label.replace(LABEL_TIMES, '').split(/\s+/).filter((w) => volatileValueClass(w) === null).join(' ');
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

import type { TraceModel } from '../traceModel';

/** The per-event facts the diff reads again and again, taken from the table once (NaN: unknown). */
export interface EventFacts {
  /** Tool of a tool event, else model, else ''. */
  subject: string[];
  durationMs: Float64Array;
  /** Tokens in plus out. */
  tokens: Float64Array;
}

/** Reads every event's facts once: materializing an event per question would cost far more on 100k events. */
export function eventFacts(model: TraceModel): EventFacts {
  const n = model.events.size;
  const subject = new Array<string>(n);
  const durationMs = new Float64Array(n);
  const tokens = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // The usage columns only: a whole event per index (label, id, status…) cost more than the rest of this pass.
    const e = model.events.usageColumnsOf(i);
    subject[i] = e.tool ?? e.model ?? '';
    durationMs[i] = e.durationMs ?? NaN;
    tokens[i] = e.tokensIn === null && e.tokensOut === null ? NaN : (e.tokensIn ?? 0) + (e.tokensOut ?? 0);
  }
  return { subject, durationMs, tokens };
}

/** A fact as `number | null`. */
export function known(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}

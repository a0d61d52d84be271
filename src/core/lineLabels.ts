// Labels made from a line's value. Kept apart from derivedLabels.ts (which reads files) so every reader of lines,
// and the webview's types, may use it.

/**
 * The facts of an event a label may use besides its line: its interned fields, and its duration, tokens and status
 * as the table holds them. A format whose labels read `durationMs` or `status` must not change them after the event
 * was added (`BuilderSource.setDuration`/`setStatus`), or a label made again would differ from the one first made.
 */
export interface LabelFacts {
  kind: string;
  model?: string | null;
  tool?: string | null;
  group?: string | null;
  durationMs?: number | null;
  tokensIn?: number | null;
  tokensOut?: number | null;
  /** The event's status (model.ts's EventStatus, spelled out here: model.ts imports this file). */
  status?: 'ok' | 'warning' | 'error';
}

/**
 * A format's label of one event made again from its line's parsed value, or null when it cannot be (the label
 * depends on other lines). The loader keeps only the labels this gives back unchanged, so it may be partial.
 */
export type LabelDeriver = (value: unknown, facts: LabelFacts) => string | null;

/** `derive` of a value, or null when it throws (a label never stops a read). */
export function deriveSafely(derive: LabelDeriver, value: unknown, facts: LabelFacts): string | null {
  try {
    return derive(value, facts);
  } catch {
    return null;
  }
}

/**
 * Makes the label a builder left to its line (`EventDraft.lineLabel`) from the value of the record the draft is
 * emitted with, unless `onDemand` (the sink makes it again from the line when asked, or keeps no labels).
 */
export function settleLineLabel(draft: { label: string; lineLabel?: LabelDeriver } & LabelFacts, value: unknown, onDemand: boolean): void {
  if (!draft.lineLabel || onDemand) return;
  draft.label = deriveSafely(draft.lineLabel, value, draft) ?? '';
  draft.lineLabel = undefined;
}

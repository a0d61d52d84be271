import { FormatName } from '../model';
import { RuleInfo } from './types';

/** A catalog row: the rule's own name (without the format prefix), mode, severity, summary, explanation, example. */
export type RuleEntry = [id: string, mode: RuleInfo['mode'], severity: RuleInfo['severity'], summary: string, explanation: string, example?: string];

/** Turns catalog rows into rules with ids `<prefix>/<id>` for one format. */
export function rulesFromEntries(prefix: string, format: FormatName, entries: readonly RuleEntry[]): RuleInfo[] {
  return entries.map(([id, mode, severity, summary, explanation, example]) => ({
    id: `${prefix}/${id}`,
    format,
    mode,
    severity,
    summary,
    explanation,
    ...(example ? { example } : {}),
  }));
}

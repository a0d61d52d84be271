/**
 * What a rule of the catalog is, apart from the check interfaces in rules/types.ts: the loader and the tree
 * builder make findings from catalogs (ruleEntries.ts), and rules/types.ts names the trace model, which names
 * the tree, so a catalog reaching rules/types.ts would be an import cycle.
 */
import type { FormatName, Severity } from '../model';
import type { CheckMode } from './checkMode';

/** A rule of the catalog: one stable id, its default severity and what it means. */
export interface RuleInfo {
  /** `<area>/<rule>`, stable forever; new rules get new ids. */
  id: string;
  /** Which format's rule; `generic` rules apply to every format. */
  format: FormatName | 'generic' | 'any';
  mode: CheckMode;
  severity: Severity;
  /** One line. */
  summary: string;
  /** A paragraph: what the rule checks, why, and what a failure usually means. */
  explanation: string;
  /** A short example of a violating trace (a line or two). */
  example?: string;
}

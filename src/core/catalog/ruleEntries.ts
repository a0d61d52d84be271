import type { Finding, Severity } from '../model';
import type { RuleInfo } from './ruleInfo';

/** A catalog row: the rule's own name (without the format prefix), mode, severity, summary, explanation, example. */
export type RuleEntry = readonly [id: string, mode: RuleInfo['mode'], severity: RuleInfo['severity'], summary: string, explanation: string, example?: string];

/** Turns catalog rows into rules with ids `<prefix>/<id>` for one format (`any` and `generic` for the rules every format gets). */
export function rulesFromEntries(prefix: string, format: RuleInfo['format'], entries: readonly RuleEntry[]): RuleInfo[] {
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

/**
 * A documented second severity of a rule: the catalog entry states the rule's usual severity, and this the
 * one case where the same rule is reported at another (its explanation says so too).
 */
export interface SeverityOverride {
  severity: Severity;
  /** When the other severity applies, for people reading the catalog. */
  when: string;
}

/** What a finding carries besides rule, severity, line and message, in the order it is written out. */
export type FindingExtra = Pick<Finding, 'seq' | 'eventId'>;

/**
 * One format's rule catalog and the only way its checks make findings, so a severity is written once: in the
 * catalog row. `Id` is the union of the catalog's rule ids, so a finding of an undeclared rule does not
 * compile; `OverrideId` the rules with a {@link SeverityOverride}.
 */
export interface RuleCatalog<Id extends string, OverrideId extends Id = never> {
  readonly rules: RuleInfo[];
  /** The catalog severity of a rule. */
  severityOf(id: Id): Severity;
  /** The documented override severity of a rule that has one. */
  overrideOf(id: OverrideId): Severity;
  /** A finding of `id` at its catalog severity; `extra` (seq, event id) is written between line and message. */
  finding(id: Id, line: number, message: string, extra?: FindingExtra): Finding;
  /** A finding of `id` at its documented override severity (see the catalog's overrides). */
  overridden(id: OverrideId, line: number, message: string, extra?: FindingExtra): Finding;
}

/**
 * Builds a format's {@link RuleCatalog} from its rows (ids `<prefix>/<row id>`) and the documented severity
 * overrides, keyed by row id.
 */
export function ruleCatalog<
  const P extends string,
  const E extends readonly RuleEntry[],
  const O extends { readonly [K in E[number][0]]?: SeverityOverride } = Record<never, SeverityOverride>,
>(prefix: P, format: RuleInfo['format'], entries: E, overrides?: O): RuleCatalog<`${P}/${E[number][0]}`, `${P}/${keyof O & string}`> {
  const rules = rulesFromEntries(prefix, format, entries);
  const byId = new Map(rules.map((r) => [r.id, r]));
  const other = new Map(Object.entries((overrides ?? {}) as Record<string, SeverityOverride>).map(([k, v]) => [`${prefix}/${k}`, v.severity]));
  const make = (rule: string, severity: Severity, line: number, message: string, extra?: FindingExtra): Finding => ({ rule, severity, line, ...extra, message });
  return {
    rules,
    severityOf: (id) => byId.get(id)!.severity,
    overrideOf: (id) => other.get(id)!,
    finding: (id, line, message, extra) => make(id, byId.get(id)!.severity, line, message, extra),
    overridden: (id, line, message, extra) => make(id, other.get(id)!, line, message, extra),
  };
}

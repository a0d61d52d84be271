/**
 * What part of a trace's integrity a verification rule speaks for, so results read by cause: a missing blob
 * is a content problem, not a broken chain, and a format without a hash chain never says "chain broken".
 * Decided from the rule id (one table, in order: the first pattern that matches wins), not from format names.
 */
import type { RuleModule } from '../rules/types';

/**
 * `chain`: a hash or digest chain links lines (lumen, the deepstrike kernel journal);
 * `sequence`: sequence numbers run without gaps or repeats;
 * `content`: blobs and payload digests match what names them;
 * `structure`: lines parse, ids are unique, parent links resolve.
 */
export type IntegrityKind = 'chain' | 'sequence' | 'content' | 'structure';

const KIND_PATTERNS: readonly [RegExp, IntegrityKind][] = [
  // An info rule that says the format has no chain is not a chain rule.
  [/\/no-chain$/, 'structure'],
  [/^blob\/|\/blob-|-blob-hash$|\/payload-|\/ledger-(request|response)-hash$|\/sha-format$|\/bundle-|\/replay-digest$/, 'content'],
  [/seq/, 'sequence'],
  [/chain|\/journal-|\/event-hash$|\/hash-format$/, 'chain'],
];

/** The integrity kind of a rule id (see {@link IntegrityKind}). */
export function integrityKindOf(ruleId: string): IntegrityKind {
  for (const [re, kind] of KIND_PATTERNS) if (re.test(ruleId)) return kind;
  return 'structure';
}

/**
 * Rules of a chain that only some files carry (the deepstrike kernel journal, written beside or into a
 * session log): their silence does not mean a chain was checked, so they do not make a format "have a chain".
 */
const OPTIONAL_CHAIN = /\/journal-/;

/**
 * The integrity kinds every file checked by these rule modules carries (those of one format: `integrityKindsOf`
 * in formatRules.ts): the kinds of their verify rules, minus optional chains (a finding of such a rule shows its
 * kind for that file).
 */
export function integrityKindsOfModules(modules: readonly RuleModule[]): ReadonlySet<IntegrityKind> {
  const set = new Set<IntegrityKind>(['structure']);
  for (const m of modules) for (const r of m.rules) if (r.mode === 'verify' && !OPTIONAL_CHAIN.test(r.id)) set.add(integrityKindOf(r.id));
  return set;
}

import { FORMAT_LIST, formatModule } from '../formats';
import { FormatName } from '../model';
import { blobRules } from './blobRules';
import { genericRules } from './genericRules';
import { RuleInfo, RuleModule } from '../rules/types';

/** Every rule module: the generic and blob rules, which apply to all formats, then each format's own. */
export const RULE_MODULES: readonly RuleModule[] = [
  genericRules,
  blobRules,
  ...FORMAT_LIST.flatMap((f) => (f.rules ? [f.rules] : [])),
];

/** The modules that apply to a format: the generic ones first, then the format's own. */
export function modulesFor(format: FormatName): RuleModule[] {
  const own = formatModule(format).rules;
  return own ? [genericRules, blobRules, own] : [genericRules, blobRules];
}

/** The whole catalog, sorted by id; ids are unique (a test asserts it). */
export function allRules(): RuleInfo[] {
  return RULE_MODULES.flatMap((m) => m.rules).sort((a, b) => a.id.localeCompare(b.id));
}

/** Looks up a rule by id. */
export function ruleById(id: string): RuleInfo | undefined {
  return allRules().find((r) => r.id === id);
}

import { FormatName } from '../model';
import { agentledgerRules } from '../formats/agentledger/rules';
import { blobRules } from './blobRules';
import { claudeCodeRules } from '../formats/claude-code/rules';
import { codexRules } from '../formats/codex/rules';
import { deepstrikeRules } from '../formats/deepstrike/rules';
import { genericRules } from './genericRules';
import { harnessLedgerRules } from '../formats/harness-ledger/rules';
import { lumenRules } from '../formats/lumen/rules';
import { murmurRules } from '../formats/murmur/rules';
import { otlpRules } from '../formats/otlp/rules';
import { RuleInfo, RuleModule } from './types';

/** Every rule module; the generic one applies to all formats. */
export const RULE_MODULES: readonly RuleModule[] = [
  genericRules,
  blobRules,
  murmurRules,
  harnessLedgerRules,
  lumenRules,
  agentledgerRules,
  deepstrikeRules,
  claudeCodeRules,
  codexRules,
  otlpRules,
];

/** The modules that apply to a format: the generic one first, then the format's own. */
export function modulesFor(format: FormatName): RuleModule[] {
  return RULE_MODULES.filter((m) => m.format === 'generic' || m.format === format);
}

/** The whole catalog, sorted by id; ids are unique (a test asserts it). */
export function allRules(): RuleInfo[] {
  return RULE_MODULES.flatMap((m) => m.rules).sort((a, b) => a.id.localeCompare(b.id));
}

/** Looks up a rule by id. */
export function ruleById(id: string): RuleInfo | undefined {
  return allRules().find((r) => r.id === id);
}

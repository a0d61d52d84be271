/**
 * The rules of each format, through the registry: the check engine (`checks/`) knows no format, so this is where
 * a format name becomes the rule modules that apply to it and the engine is run with them.
 */
import { FORMAT_LIST, formatModule } from './formats';
import type { FormatName } from './model';
import type { TraceModel } from './traceModel';
import type { CheckMode, RuleInfo, RuleModule } from './rules/types';
import { CheckResult, checkModel, GENERIC_RULE_MODULES, ruleModulesOf, RunOptions } from './checks/runChecks';
import { IntegrityKind, integrityKindsOfModules } from './checks/integrityKind';

/** Every rule module: the generic and blob rules, which apply to all formats, then each format's own. */
export const RULE_MODULES: readonly RuleModule[] = [
  ...GENERIC_RULE_MODULES,
  ...FORMAT_LIST.flatMap((f) => (f.rules ? [f.rules] : [])),
];

/** The modules that apply to a format: the generic ones first, then the format's own. */
export function modulesFor(format: FormatName): RuleModule[] {
  return ruleModulesOf(formatModule(format));
}

/** The whole catalog, sorted by id; ids are unique (a test asserts it). */
export function allRules(): RuleInfo[] {
  return RULE_MODULES.flatMap((m) => m.rules).sort((a, b) => a.id.localeCompare(b.id));
}

/** Looks up a rule by id. */
export function ruleById(id: string): RuleInfo | undefined {
  return allRules().find((r) => r.id === id);
}

/**
 * Runs the verifiers (`verify`) or conformance checkers (`check`) of the trace's format over one re-read of its
 * lines, adds the loader's own findings, applies the user's rule settings and sorts by line (`checkModel` of the
 * engine, with the format's module from the registry).
 */
export function runChecks(model: TraceModel, mode: CheckMode, options: RunOptions = {}): Promise<CheckResult> {
  return checkModel(model, mode, formatModule(model.format), options);
}

const formatKinds = new Map<FormatName, ReadonlySet<IntegrityKind>>();

/** The integrity kinds every file of a format carries (see `integrityKindsOfModules` in checks/integrityKind.ts). */
export function integrityKindsOf(format: FormatName): ReadonlySet<IntegrityKind> {
  let kinds = formatKinds.get(format);
  if (!kinds) formatKinds.set(format, (kinds = integrityKindsOfModules(modulesFor(format))));
  return kinds;
}

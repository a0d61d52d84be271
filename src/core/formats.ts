import type { FormatModule } from './format';
import { FORMAT_NAMES, FormatName } from './formatNames';
import { murmurFormat } from './formats/murmur/module';
import { harnessLedgerFormat } from './formats/harness-ledger/module';
import { lumenFormat } from './formats/lumen/module';
import { agentledgerFormat } from './formats/agentledger/module';
import { deepstrikeFormat } from './formats/deepstrike/module';
import { claudeCodeFormat } from './formats/claude-code/module';
import { codexFormat } from './formats/codex/module';
import { geminiCliFormat } from './formats/gemini-cli/module';
import { qwenCodeFormat } from './formats/qwen-code/module';
import { opencodeFormat } from './formats/opencode/module';
import { copilotCliFormat } from './formats/copilot-cli/module';
import { piFormat } from './formats/pi/module';
import { continueFormat } from './formats/continue/module';
import { otlpFormat } from './formats/otlp/module';
import { genericFormat } from './formats/generic/module';

/**
 * Every format, by the name users see. The one registry: detection tries them in this order (ties keep it),
 * the rule catalog, the viewer and the CLI read their facts from here. Adding a format is one folder under
 * `formats/` and one line here.
 */
export const FORMATS = {
  murmur: murmurFormat,
  'harness-ledger': harnessLedgerFormat,
  lumen: lumenFormat,
  agentledger: agentledgerFormat,
  deepstrike: deepstrikeFormat,
  'claude-code': claudeCodeFormat,
  codex: codexFormat,
  'gemini-cli': geminiCliFormat,
  'qwen-code': qwenCodeFormat,
  opencode: opencodeFormat,
  'copilot-cli': copilotCliFormat,
  pi: piFormat,
  continue: continueFormat,
  otlp: otlpFormat,
  generic: genericFormat,
} as const satisfies Record<FormatName, FormatModule>;

export { FORMAT_NAMES };
export type { FormatName };

/** Every format module, in registry order. */
export const FORMAT_LIST: readonly FormatModule[] = Object.values(FORMATS);

/** The module of a format. */
export function formatModule(name: FormatName): FormatModule {
  const m = (FORMATS as Record<string, FormatModule | undefined>)[name];
  if (!m) throw new Error(`unknown format ${name}`);
  return m;
}

/** True for a name of the public contract. */
export function isFormatName(name: string): name is FormatName {
  return Object.prototype.hasOwnProperty.call(FORMATS, name);
}

/**
 * True for the format a file is read as when no runtime format claims it (generic JSONL): what detection
 * falls back to. Asked here so that no code outside the registry tests the format's name.
 */
export function isFallbackFormat(name: FormatName): boolean {
  return formatModule(name) === FORMATS.generic;
}

/**
 * The category code of the writer's bookkeeping lines in a trace of `name` (Claude Code's `queue-operation`,
 * `attachment`, `progress`…, Codex's echoed items, Gemini CLI's `$set` patches: category `other`), or -1 where that
 * category holds the user's own events (`otherKindsAreEvents`: the generic format). One rule for every view: the
 * timeline counts these lines rather than drawing them, and the viewer never opens on one.
 */
export function bookkeepingCategory(name: FormatName, categories: readonly string[]): number {
  return formatModule(name).otherKindsAreEvents ? -1 : categories.indexOf('other');
}

import { FormatName } from './model';
import { agentledgerAdapter } from './formats/agentledger/adapter';
import { claudeCodeAdapter } from './formats/claude-code/adapter';
import { codexAdapter } from './formats/codex/adapter';
import { deepstrikeAdapter } from './formats/deepstrike/adapter';
import { genericAdapter } from './formats/generic/adapter';
import { harnessLedgerAdapter } from './formats/harness-ledger/adapter';
import { lumenAdapter } from './formats/lumen/adapter';
import { murmurAdapter } from './formats/murmur/adapter';
import { otlpAdapter } from './formats/otlp/adapter';
import { FormatAdapter } from './format';

/** Every adapter, one per format name. */
export const ADAPTERS: readonly FormatAdapter[] = [
  murmurAdapter,
  harnessLedgerAdapter,
  lumenAdapter,
  agentledgerAdapter,
  deepstrikeAdapter,
  claudeCodeAdapter,
  codexAdapter,
  otlpAdapter,
  genericAdapter,
];

/** The adapter of a format. */
export function adapterFor(name: FormatName): FormatAdapter {
  const a = ADAPTERS.find((x) => x.name === name);
  if (!a) throw new Error(`unknown format ${name}`);
  return a;
}

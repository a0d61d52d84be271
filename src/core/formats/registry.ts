import { FormatName } from '../model';
import { agentledgerAdapter } from './agentledger';
import { claudeCodeAdapter } from './claudeCode';
import { codexAdapter } from './codex';
import { deepstrikeAdapter } from './deepstrike';
import { genericAdapter } from './generic';
import { harnessLedgerAdapter } from './harnessLedger';
import { lumenAdapter } from './lumen';
import { murmurAdapter } from './murmur';
import { otlpAdapter } from './otlp';
import { FormatAdapter } from './types';

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

/**
 * The extension's settings (`agentTrace.*`), read in one place. Their names, types and defaults are the manifest's
 * (`contributes.configuration` of package.json, bundled at build), not restated here: a setting left unset, or set
 * to a value of another type than the manifest declares, reads as the manifest's default. vscode-free; the adapter
 * that asks VS Code is src/vscode/settings.ts.
 */
import manifest from '../../package.json';

const PROPERTIES: Record<string, { type: string; default: unknown }> = manifest.contributes.configuration.properties;
const PREFIX = 'agentTrace.';

/** Every `agentTrace.*` setting with the type the code reads it as (the manifest's `type` and `default` say the same). */
export interface AgentTraceSettings {
  maxFileSizeMB: number;
  workers: number;
  liveUpdates: boolean;
  offerViewer: boolean;
  expandAllMaxEvents: number;
  compareDurationThresholdMs: number;
  compareTokenThreshold: number;
  blobRoots: string[];
  pricing: unknown;
  rules: Record<string, unknown>;
  checkOnOpen: boolean;
  checkOnOpenMaxMB: number;
  otlpEndpoint: string;
  otlpHeaders: Record<string, string>;
  otlpIncludeContent: boolean;
  sessionRoots: string[];
  sessionHomes: boolean;
}

export type SettingName = keyof AgentTraceSettings;

type Unprefixed<T> = T extends `agentTrace.${infer K}` ? K : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Does not compile when the manifest and {@link AgentTraceSettings} name different settings. */
const SAME_NAMES: Same<Unprefixed<keyof typeof manifest.contributes.configuration.properties>, SettingName> = true;
void SAME_NAMES;

/** The settings' names as the manifest lists them, without the `agentTrace.` prefix. */
export const SETTING_NAMES = Object.keys(PROPERTIES).map((k) => k.slice(PREFIX.length)) as SettingName[];

/**
 * The settings a workspace may not set while it is untrusted (Restricted Mode): where the trace's spans are sent
 * and with which headers, which folders blobs are read from, which folders the Agent Traces view walks, and the prices costs are computed with. A cloned
 * repository's `.vscode/settings.json` must not steer them; they are read from the user's settings only until the
 * workspace is trusted. package.json's `capabilities.untrustedWorkspaces.restrictedConfigurations` lists the same
 * names (test/vscode/restrictedSettings.test.ts holds them together).
 */
export const RESTRICTED_SETTINGS: readonly SettingName[] = ['otlpEndpoint', 'otlpHeaders', 'otlpIncludeContent', 'blobRoots', 'pricing', 'sessionRoots'];

/** Whether `value` is of the manifest's JSON-schema `type`. */
function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** One setting: what `get` gives for `agentTrace.<name>` when it is of the manifest's type, else the manifest's default. */
export function readSetting<K extends SettingName>(get: (name: string) => unknown, name: K): AgentTraceSettings[K] {
  const property = PROPERTIES[PREFIX + name];
  const value = get(name);
  if (isOfType(value, property.type)) return value as AgentTraceSettings[K];
  // A copy of an array or object default, so no caller can change the manifest's. The user's value is handed on as
  // VS Code gives it: its configuration objects are proxies, which structuredClone refuses (DataCloneError), and
  // cloning them here stopped the extension from activating.
  const d = property.default;
  return (typeof d === 'object' && d !== null ? JSON.parse(JSON.stringify(d)) : d) as AgentTraceSettings[K];
}

/** Every setting (see {@link readSetting}); `get` takes a name without the `agentTrace.` prefix. */
export function readSettings(get: (name: string) => unknown): AgentTraceSettings {
  return Object.fromEntries(SETTING_NAMES.map((n) => [n, readSetting(get, n)])) as unknown as AgentTraceSettings;
}

import * as vscode from 'vscode';
import type { RuleSetting } from '../core/checks/runChecks';
import type { BlobSettings } from '../viewer/blobResolver';
import { AgentTraceSettings, readSetting, RESTRICTED_SETTINGS, SettingName } from '../viewer/settings';

/**
 * One `agentTrace.*` setting as the user set it, else the manifest's default (src/viewer/settings.ts). In an
 * untrusted workspace (Restricted Mode) a setting of {@link RESTRICTED_SETTINGS} comes from the user's own
 * settings only: the workspace's and its folders' values are ignored until the workspace is trusted.
 */
export function setting<K extends SettingName>(name: K): AgentTraceSettings[K] {
  const cfg = vscode.workspace.getConfiguration('agentTrace');
  if (!vscode.workspace.isTrusted && RESTRICTED_SETTINGS.includes(name)) {
    const seen = cfg.inspect(name);
    return readSetting(() => seen?.globalValue ?? seen?.defaultValue, name);
  }
  return readSetting((key) => cfg.get(key), name);
}

/** The user's `agentTrace.rules` setting (rule id → off | error | warning | info), other values left out. */
export function ruleSettings(): Record<string, RuleSetting> {
  const raw = setting('rules');
  const out: Record<string, RuleSetting> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' && ['off', 'error', 'warning', 'info'].includes(v)) out[k] = v as RuleSetting;
  return out;
}

/**
 * The `agentTrace.blobRoots` setting and the workspace folders (bases for relative roots): where the Content tab,
 * Open Blob, blob links and the checks (Verify, the checks on open) look for blobs besides the format's own folders.
 */
export function blobSettings(): BlobSettings {
  return {
    extraRoots: setting('blobRoots').filter((x) => typeof x === 'string'),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  };
}

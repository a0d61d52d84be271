import * as vscode from 'vscode';
import { AgentTraceSettings, readSetting, SettingName } from '../viewer/settings';

/** One `agentTrace.*` setting as the user set it, else the manifest's default (src/viewer/settings.ts). */
export function setting<K extends SettingName>(name: K): AgentTraceSettings[K] {
  const cfg = vscode.workspace.getConfiguration('agentTrace');
  return readSetting((key) => cfg.get(key), name);
}

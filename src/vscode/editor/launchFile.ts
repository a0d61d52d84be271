/**
 * The trace `npm start` asks to show first. The web workbench opens its launch file before extensions
 * register, and uses a custom editor for it only when its per-browser editor cache already knows one, so a
 * browser that never saw the viewer shows the file as text. The start script names the file in the server's
 * environment too; on activation the extension shows it in the viewer: it switches a text tab of that file,
 * or opens it when no tab shows it yet. A viewer tab of it is left as it is.
 */
import * as vscode from 'vscode';
import { VIEW_TYPE } from '../../protocol';
import { switchToViewer } from './switchView';

/** Environment variable naming the absolute path of the trace to show on start. */
export const LAUNCH_FILE_ENV = 'AGENT_TRACE_VIEWER_LAUNCH_FILE';

/** Which view of `uri` the open tabs show: the viewer, text only, or none. */
export function launchTabState(uri: vscode.Uri): 'viewer' | 'text' | 'none' {
  let text = false;
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputCustom && input.uri.toString() === uri.toString() && input.viewType.startsWith(VIEW_TYPE)) return 'viewer';
      if (input instanceof vscode.TabInputText && input.uri.toString() === uri.toString()) text = true;
    }
  }
  return text ? 'text' : 'none';
}

/** Shows the launch trace in the viewer (see the file comment); does nothing without the variable. */
export async function showLaunchFile(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const path = env[LAUNCH_FILE_ENV];
  if (!path) return;
  const uri = vscode.Uri.file(path);
  const state = launchTabState(uri);
  if (state === 'viewer') return;
  if (state === 'text') {
    // Bring the text tab forward first, so the viewer replaces it in its own group.
    await vscode.window.showTextDocument(uri, { preview: false }).then(undefined, () => undefined);
    return switchToViewer(uri);
  }
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { preview: false });
}

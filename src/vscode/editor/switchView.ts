/**
 * "Open in Agent Trace Viewer" and "Open as Text" switch the tab of the file in place: the new view opens in
 * the same group and the other view of the same file there is closed, instead of a second tab piling up.
 * Open as Text lands on the event that was selected in the viewer.
 */
import * as vscode from 'vscode';
import { VIEW_TYPE } from '../../protocol';

const isViewerType = (viewType: string) => viewType === VIEW_TYPE || viewType.startsWith(`${VIEW_TYPE}.`);

/** Tabs of `group` that show `uri` in the other view: text tabs when going to the viewer, viewer tabs when going to text. */
export function otherViewTabs(group: vscode.TabGroup, uri: vscode.Uri, to: 'viewer' | 'text'): vscode.Tab[] {
  return group.tabs.filter((t) => {
    const input = t.input;
    if (to === 'viewer') return input instanceof vscode.TabInputText && input.uri.toString() === uri.toString();
    return input instanceof vscode.TabInputCustom && isViewerType(input.viewType) && input.uri.toString() === uri.toString();
  });
}

/**
 * Closes the other view's tabs in the group that is in `viewColumn` now. Tab objects are snapshots that go
 * stale when the group changes (opening the new view changes it), so they are looked up again here.
 */
async function closeOtherView(viewColumn: vscode.ViewColumn, uri: vscode.Uri, to: 'viewer' | 'text'): Promise<void> {
  const group = vscode.window.tabGroups.all.find((g) => g.viewColumn === viewColumn);
  const others = group ? otherViewTabs(group, uri, to) : [];
  if (others.length > 0) await vscode.window.tabGroups.close(others, true).then(undefined, () => undefined);
}

/** Opens `uri` in the trace viewer in the active group, replacing its text tab there. */
export async function switchToViewer(uri: vscode.Uri): Promise<void> {
  const column = vscode.window.tabGroups.activeTabGroup.viewColumn;
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { viewColumn: column, preview: false });
  await closeOtherView(column, uri, 'viewer');
}

/** Opens `uri` as text in the active group at `line` (1-based), replacing its viewer tab there. */
export async function switchToText(uri: vscode.Uri, line: number | undefined): Promise<void> {
  const column = vscode.window.tabGroups.activeTabGroup.viewColumn;
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (err) {
    // VS Code refuses files over about 50 MB: the viewer tab stays.
    void vscode.window.showErrorMessage(`Cannot open the trace as text (VS Code opens files up to about 50 MB in its text editor): ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const l = Math.max(0, Math.min(doc.lineCount - 1, (line ?? 1) - 1));
  const selection = new vscode.Range(l, 0, l, 0);
  await vscode.window.showTextDocument(doc, { viewColumn: column, preview: false, selection });
  await closeOtherView(column, uri, 'text');
}

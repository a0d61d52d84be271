/**
 * The status bar item of the active trace viewer: format, events, the selected event's line and the verdict of the
 * last checks (text from src/viewer/statusBarText.ts), on the theme's error or warning background when the verdict
 * failed; a click verifies the trace. Hidden while no viewer is active.
 */
import * as vscode from 'vscode';
import { StatusFacts, statusBarText } from '../../viewer/statusBarText';
import { COMMANDS } from '../commandIds';

/** See the file comment. */
export class TraceStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentTrace.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Agent Trace Viewer';
  }

  /** Shows the facts of the active viewer's trace at `uri`, or hides the item (null: no viewer is active). */
  show(uri: vscode.Uri | null, facts: StatusFacts | null): void {
    if (!uri || !facts) return this.item.hide();
    const t = statusBarText(facts);
    this.item.text = t.text;
    this.item.tooltip = t.tooltip;
    this.item.backgroundColor = t.tone ? new vscode.ThemeColor(`statusBarItem.${t.tone}Background`) : undefined;
    this.item.command = { command: COMMANDS.verifyChain, title: 'Verify Chain', arguments: [uri] };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

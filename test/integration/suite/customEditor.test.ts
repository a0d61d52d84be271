import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { VIEW_TYPE, activatedExtension, describeActiveTab, onlyJsonl, sampleUri, waitFor } from './helpers';

/** Waits until the active tab is the trace viewer on `uri`. */
function viewerTabOn(uri: vscode.Uri): Promise<vscode.TabInputCustom> {
  return waitFor(
    `the trace viewer on ${uri.toString()}`,
    () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === VIEW_TYPE && input.uri.toString() === uri.toString() ? input : undefined;
    },
    describeActiveTab,
  );
}

suite('custom editor', () => {
  suiteSetup(async () => {
    await activatedExtension();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('vscode.openWith resolves a lumen trace in the agentTrace.viewer editor', async () => {
    const uri = await onlyJsonl('lumen/.lumen/trace');
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const input = await viewerTabOn(uri);
    assert.equal(input.viewType, VIEW_TYPE);
    // A custom editor, not a text editor, holds the file.
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  test('a murmur trace.jsonl opens in the viewer by default (priority "default" selector)', async () => {
    const uri = sampleUri('murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    await viewerTabOn(uri);
  });

  test('agentTrace.openInViewer opens any .jsonl in the viewer, agentTrace.openAsText reopens it as text', async () => {
    const dir = 'claude-code';
    const uri = await onlyJsonl(dir);
    await vscode.commands.executeCommand('agentTrace.openInViewer', uri);
    await viewerTabOn(uri);
    // Without an argument openAsText uses the viewer the provider made active: proves the panel was resolved.
    await vscode.commands.executeCommand('agentTrace.openAsText');
    const doc = await waitFor(
      `a text editor on ${uri.toString()}`,
      () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.toString() === uri.toString() ? e.document : undefined;
      },
      describeActiveTab,
    );
    assert.ok(doc.lineCount > 1, `the text editor shows ${doc.lineCount} line(s)`);
  });
});

import * as vscode from 'vscode';
import { registerBlobFeatures } from './blobs';
import { registerCommands } from './commands';
import { TraceModels } from './commands/traceModels';
import { registerTraceEditor } from './editor';
import { registerIdProviders, registerTextGoToDefinition, takeRecentDefinition } from './language/idProviders';

/** Wires the extension's editors, commands and providers. */
export function activate(context: vscode.ExtensionContext): void {
  const viewers = registerTraceEditor(context);
  const models = new TraceModels();
  registerCommands(context, viewers, models);
  registerIdProviders(context, models);
  registerTextGoToDefinition(context, models);
  // Ctrl+click in the text view of a trace file opens its default editor, the viewer: show the event there.
  context.subscriptions.push(
    viewers.onDidChangeActiveViewer((h) => {
      const line = h && takeRecentDefinition(h.uri);
      if (h && line !== undefined) void viewers.revealLine(h.uri, line);
    }),
  );
  registerBlobFeatures(context, viewers);
}

export function deactivate(): void {}

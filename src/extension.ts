import * as vscode from 'vscode';
import { registerBlobFeatures } from './blobView';
import { registerCommands } from './commands';
import { TraceModels } from './commands/traceModels';
import { registerTraceEditor } from './editor';
import { registerIdProviders } from './language/idProviders';

/** Wires the extension's editors, commands and providers. */
export function activate(context: vscode.ExtensionContext): void {
  const viewers = registerTraceEditor(context);
  const models = new TraceModels();
  registerCommands(context, viewers, models);
  registerIdProviders(context, models);
  registerBlobFeatures(context, viewers);
}

export function deactivate(): void {}

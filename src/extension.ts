import * as vscode from 'vscode';
import { registerTraceEditor } from './editor';

/** Wires the extension's editors, commands and providers. */
export function activate(context: vscode.ExtensionContext): void {
  registerTraceEditor(context);
}

export function deactivate(): void {}

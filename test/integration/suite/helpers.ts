// Shared by the integration suites: where the samples are, the extension under test, and waiting for states.
import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-trace-viewer.agent-trace-viewer';
export const VIEW_TYPE = 'agentTrace.viewer';

/** The extension under test, activated. */
export async function activatedExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  return ext;
}

/** A file of the workspace (the project's samples/ folder, or a copy of it), by path relative to it. */
export function sampleUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests need the samples folder open as the workspace');
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

/** The only `.jsonl` file in a workspace folder (sample file names are generated ids). */
export async function onlyJsonl(relativeDir: string): Promise<vscode.Uri> {
  const dir = sampleUri(relativeDir);
  const names = (await vscode.workspace.fs.readDirectory(dir)).map(([n]) => n).filter((n) => n.endsWith('.jsonl'));
  if (names.length !== 1) throw new Error(`expected one .jsonl in ${relativeDir}, found ${JSON.stringify(names)}`);
  return vscode.Uri.joinPath(dir, names[0]);
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` and the last state after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined, describe: () => string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; now: ${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the active tab of the active group shows, for messages. */
export function describeActiveTab(): string {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (!tab) return 'no active tab';
  const input = tab.input;
  if (input instanceof vscode.TabInputCustom) return `custom editor ${input.viewType} on ${input.uri.toString()}`;
  if (input instanceof vscode.TabInputText) return `text editor on ${input.uri.toString()}`;
  return `tab "${tab.label}" (${input === undefined ? 'no input' : (input as object).constructor.name})`;
}

/** The rule id of a diagnostic (`code` is a string or `{ value, target }`). */
export function ruleOf(d: vscode.Diagnostic): string {
  const code = d.code;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** Diagnostics of a file as `line:severity:rule` (0-based line), for messages and comparisons. */
export function describeDiagnostics(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).map((d) => `${d.range.start.line}:${vscode.DiagnosticSeverity[d.severity]}:${ruleOf(d)}`);
}

/**
 * Runs a check command on one file and waits for it. The commands publish their diagnostics before they
 * return (the notification they show is not awaited), and return one result per file checked.
 */
export async function runUntilDiagnostics(command: string, uri: vscode.Uri): Promise<void> {
  const results = await vscode.commands.executeCommand<unknown>(command, uri);
  if (!Array.isArray(results) || results.length !== 1) throw new Error(`${command} returned ${JSON.stringify(results)} for ${uri.fsPath}`);
}

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
 * Runs a command on a file and resolves when the extension publishes diagnostics for that file (an empty set
 * counts: a clean result must clear old entries). Does not wait for the command's promise, which may stay
 * pending while its result notification is open; rejects when the command fails or returns without publishing.
 */
export function runUntilDiagnostics(command: string, uri: vscode.Uri, timeoutMs = 30_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      sub.dispose();
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.fsPath === uri.fsPath)) finish();
    });
    const timer = setTimeout(() => finish(new Error(`${command} published no diagnostics for ${uri.fsPath} within ${timeoutMs} ms`)), timeoutMs);
    vscode.commands.executeCommand(command, uri).then(
      () => finish(new Error(`${command} returned without publishing diagnostics for ${uri.fsPath}`)),
      (err: unknown) => finish(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

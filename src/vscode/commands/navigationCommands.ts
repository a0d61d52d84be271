import * as vscode from 'vscode';
import { TraceViewerApi } from '../viewerApi';
import { VIEW_TYPE } from '../../protocol';
import { TraceModels } from '../traceModels';

/** Largest number of events offered in the Go to Event quick pick at once. */
const MAX_PICKS = 50_000;

/** The trace a command acts on: the argument, the active viewer, or the active text editor. */
export function activeTrace(viewers: TraceViewerApi, uri?: vscode.Uri): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  return viewers.activeUri() ?? vscode.window.activeTextEditor?.document.uri;
}

/** Opens `uri` in the trace viewer and reveals `line` there. */
export async function openInViewerAt(viewers: TraceViewerApi, uri: vscode.Uri, line: number): Promise<void> {
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
  // The viewer reveals once loaded; retry for a few seconds while it reads the file.
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await viewers.revealLine(uri, line)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** "Agent Trace: Go to Event…": a quick pick over ids, kinds and labels. */
export async function goToEvent(models: TraceModels, viewers: TraceViewerApi, uri?: vscode.Uri): Promise<void> {
  const target = activeTrace(viewers, uri);
  if (!target || target.scheme !== 'file') {
    void vscode.window.showWarningMessage('Agent Trace: open a trace first.');
    return;
  }
  const model = await models.get(target);
  const t = model.events;
  const items: (vscode.QuickPickItem & { line: number })[] = [];
  for (let i = 0; i < t.size && i < MAX_PICKS; i++) {
    items.push({ label: t.labelOf(i), description: `${t.kindOf(i)}${t.id(i) ? ' · ' + t.id(i) : ''}`, detail: `line ${t.lineOf(i)}`, line: t.lineOf(i) });
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: `Go to Event (${t.size} events${t.size > MAX_PICKS ? `, first ${MAX_PICKS} listed` : ''})`,
    placeHolder: 'Type an id, a kind or words of a label',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!pick) return;
  if (await viewers.revealLine(target, pick.line)) return;
  const pos = new vscode.Position(pick.line - 1, 0);
  await vscode.window.showTextDocument(target, { selection: new vscode.Range(pos, pos) });
}

/** A `vscode://` link that opens `file` at `line` (handled by {@link TraceUriHandler}). */
export function eventLink(extensionId: string, file: string, line: number): vscode.Uri {
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: extensionId, path: '/open', query: new URLSearchParams({ file, line: String(line) }).toString() });
}

/** "Copy Link to Event": the link of the event at the cursor (text editor) or selected line. */
export async function copyLinkToEvent(extensionId: string, viewers: TraceViewerApi, uri?: vscode.Uri, line?: number): Promise<void> {
  const target = activeTrace(viewers, uri);
  const at = line ?? (vscode.window.activeTextEditor?.document.uri.toString() === target?.toString() ? vscode.window.activeTextEditor!.selection.active.line + 1 : 1);
  if (!target) return;
  const link = eventLink(extensionId, target.fsPath, at);
  await vscode.env.clipboard.writeText(link.toString());
  void vscode.window.showInformationMessage(`Agent Trace: copied link to line ${at}.`);
}

/** Opens links made by "Copy Link to Event": `vscode://<publisher.name>/open?file=…&line=…`. */
export class TraceUriHandler implements vscode.UriHandler {
  constructor(private readonly viewers: TraceViewerApi) {}
  async handleUri(uri: vscode.Uri): Promise<void> {
    if (uri.path !== '/open') return;
    const q = new URLSearchParams(uri.query);
    const file = q.get('file');
    const line = Number(q.get('line') ?? '1');
    if (!file || !Number.isInteger(line) || line < 1) {
      void vscode.window.showErrorMessage('Agent Trace: the link has no file or line.');
      return;
    }
    await openInViewerAt(this.viewers, vscode.Uri.file(file), line);
  }
}

/** "Reveal in Trace Viewer": from the text editor's cursor line to the same event in the viewer. */
export async function revealInViewer(viewers: TraceViewerApi): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  if (!ed) return;
  await openInViewerAt(viewers, ed.document.uri, ed.selection.active.line + 1);
}

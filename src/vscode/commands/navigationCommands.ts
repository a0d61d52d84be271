import * as vscode from 'vscode';
import { TraceViewerApi } from '../viewerApi';
import { VIEW_TYPE } from '../../protocol';
import { TraceModels } from '../traceModels';
import { eventLinkQuery, eventLinkQueryText, LinkFolder, parseEventLink } from '../../viewer/eventLinks';

/** Largest number of events offered in the Go to Event quick pick at once. */
const MAX_PICKS = 50_000;

/** The trace a command acts on: the argument, the active viewer, or the active text editor. */
export function activeTrace(viewers: TraceViewerApi, uri?: vscode.Uri): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  return viewers.activeUri() ?? vscode.window.activeTextEditor?.document.uri;
}

/** Opens `uri` in the trace viewer (the one already open, where it is) and reveals `line` there. */
export async function openInViewerAt(viewers: TraceViewerApi, uri: vscode.Uri, line: number): Promise<void> {
  if (!viewers.showViewer?.(uri)) await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
  // The viewer reveals once loaded; retry for a few seconds while it reads the file.
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await viewers.revealLine(uri, line)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The rule-code link of a finding in the Problems panel: opens the trace in the viewer with its event selected. */
export async function showProblem(viewers: TraceViewerApi, uri?: unknown, line?: unknown): Promise<void> {
  if (typeof uri !== 'string' || typeof line !== 'number' || !Number.isInteger(line) || line < 1) {
    void vscode.window.showErrorMessage('Agent Trace: this problem link names no trace line.');
    return;
  }
  await openInViewerAt(viewers, vscode.Uri.parse(uri), line);
}

type EventPick = vscode.QuickPickItem & { line: number };

/** A line number typed as `14`, `:14` or `line 14` (as VS Code's Go to Line reads it), else null. */
export function typedLine(value: string): number | null {
  const m = /^\s*(?::|line\s+)?(\d{1,9})\s*$/i.exec(value);
  return m ? Number(m[1]) : null;
}

/**
 * The Go to Event quick pick. A number is a line: "14" lists the events of line 14 only. Matched fuzzily against
 * every label, "14" ranked a label with "14" in it (line 5's "1.4k tokens") above line 14's own event.
 */
function pickEvent(items: EventPick[], title: string): Promise<EventPick | undefined> {
  const qp = vscode.window.createQuickPick<EventPick>();
  qp.title = title;
  qp.placeholder = 'Type a line number, an id, a kind or words of a label';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.items = items;
  return new Promise((resolve) => {
    let done = false;
    const finish = (p: EventPick | undefined) => {
      if (done) return;
      done = true;
      resolve(p);
      qp.dispose();
    };
    qp.onDidChangeValue((v) => {
      const line = typedLine(v);
      // Shown whatever VS Code's own matching makes of `:14`.
      qp.items = line === null ? items : items.filter((x) => x.line === line).map((x) => ({ ...x, alwaysShow: true }));
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

/** "Agent Trace: Go to Event…": a quick pick over line numbers, ids, kinds and labels. */
export async function goToEvent(models: TraceModels, viewers: TraceViewerApi, uri?: vscode.Uri): Promise<void> {
  const target = activeTrace(viewers, uri);
  if (!target || target.scheme !== 'file') {
    void vscode.window.showWarningMessage('Agent Trace: open a trace first.');
    return;
  }
  const model = await models.get(target);
  const t = model.events;
  const items: EventPick[] = [];
  for (let i = 0; i < t.size && i < MAX_PICKS; i++) {
    // The trace's own events: a subagent's, read with the session (TraceModel.parts), are on lines of its own file.
    if (t.partOf(i) !== 0) continue;
    items.push({ label: t.labelOf(i), description: `${t.kindOf(i)}${t.id(i) ? ' · ' + t.id(i) : ''}`, detail: `line ${t.lineOf(i)}`, line: t.lineOf(i) });
  }
  const pick = await pickEvent(items, `Go to Event (${t.size} events${t.size > MAX_PICKS ? `, first ${MAX_PICKS} listed` : ''})`);
  if (!pick) return;
  if (await viewers.revealLine(target, pick.line)) return;
  const pos = new vscode.Position(pick.line - 1, 0);
  await vscode.window.showTextDocument(target, { selection: new vscode.Range(pos, pos) });
}

/** The workspace folders on disk, as links see them. */
function linkFolders(): LinkFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

/**
 * A link that opens `file` at `line` (handled by {@link TraceUriHandler}): `<uriScheme>://<publisher.name>/open?…`,
 * workspace-relative when the file is inside a workspace folder, absolute otherwise; its query encoded once. Where
 * the window runs in a browser (code-server, vscode.dev) or remotely, `asExternalUri` gives the address the user's
 * browser can open (the product's own scheme, `code-oss://`, opens nothing there).
 */
export async function eventLink(extensionId: string, file: string, line: number): Promise<string> {
  const link = `${vscode.env.uriScheme}://${extensionId}/open?${eventLinkQueryText(eventLinkQuery(file, line, linkFolders()))}`;
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(link));
  // Unchanged on the desktop: keep the text built here (Uri.toString would encode the query a second time).
  return external.scheme === vscode.env.uriScheme && external.authority === extensionId ? link : external.toString(true);
}

/** The line a link points at: the argument, else the viewer's selected event, else the text cursor, else 1. */
function linkLine(viewers: TraceViewerApi, target: vscode.Uri, line?: number): number {
  if (line !== undefined) return line;
  const ed = vscode.window.activeTextEditor;
  const textCursor = ed && ed.document.uri.toString() === target.toString() ? ed.selection.active.line + 1 : undefined;
  // The palette or the viewer's title bar: the viewer is active, its selection is what the user points at.
  if (viewers.activeUri()?.toString() === target.toString()) return viewers.selectedLine(target) ?? textCursor ?? 1;
  return textCursor ?? viewers.selectedLine(target) ?? 1;
}

/** "Copy Link to Event": the link of the event selected in the viewer, or at the text cursor. */
export async function copyLinkToEvent(extensionId: string, viewers: TraceViewerApi, uri?: vscode.Uri, line?: number): Promise<void> {
  const target = activeTrace(viewers, uri);
  if (!target || target.scheme !== 'file') {
    void vscode.window.showWarningMessage('Agent Trace: open a trace first.');
    return;
  }
  const at = linkLine(viewers, target, line);
  await vscode.env.clipboard.writeText(await eventLink(extensionId, target.fsPath, at));
  void vscode.window.showInformationMessage(`Agent Trace: copied link to line ${at} of ${vscode.workspace.asRelativePath(target)}.`);
}

/**
 * Opens links made by "Copy Link to Event": `…/open?path=<workspace-relative>&line=N` (tried in the named
 * folder, then every workspace folder) or `…/open?file=<absolute>&line=N`.
 */
export class TraceUriHandler implements vscode.UriHandler {
  constructor(private readonly viewers: TraceViewerApi) {}
  async handleUri(uri: vscode.Uri): Promise<void> {
    if (uri.path !== '/open') return;
    const target = parseEventLink(uri.query, linkFolders());
    if (!target) {
      void vscode.window.showErrorMessage('Agent Trace: the link has no file or line.');
      return;
    }
    for (const file of target.candidates) {
      const exists = await vscode.workspace.fs.stat(vscode.Uri.file(file)).then(() => true, () => false);
      if (exists) return openInViewerAt(this.viewers, vscode.Uri.file(file), target.line);
    }
    const q = new URLSearchParams(uri.query);
    void vscode.window.showErrorMessage(`Agent Trace: ${q.get('path') ?? q.get('file')} is not in this workspace.`);
  }
}

/** "Reveal in Trace Viewer": from the text editor's cursor line to the same event in the viewer. */
export async function revealInViewer(viewers: TraceViewerApi): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  if (!ed) return;
  await openInViewerAt(viewers, ed.document.uri, ed.selection.active.line + 1);
}

/**
 * One viewer panel: sets up the webview (strict CSP, resources only from the extension's dist/ and media/),
 * validates its messages and hands them to a {@link ViewerSession}, and turns the session's requests into
 * VS Code actions (text editor, clipboard, browser, commands).
 */
import * as vscode from 'vscode';
import type { CheckMode } from '../../core/rules/types';
import type { DigestAlgorithm } from '../../core/model';
import type { BlobStore } from '../../core/blobStore';
import type { BlobContentMessage, ViewerLayout } from '../../protocol';
import { VIEW_TYPE } from '../../protocol';
import { COMMANDS } from '../commandIds';
import { switchToText } from './switchView';
import type { DocumentEvent, TraceDocument } from './traceDocument';
import { isSafeExternalUrl, parseViewMessage } from '../../protocol/validate';
import { SessionHost, ViewerSession } from '../../viewer/viewerSession';
import { bundlePageHtml } from '../webviewPage';

/** workspaceState key of the viewer's pane sizes. */
const LAYOUT_KEY = 'agentTrace.viewerLayout';

/** Command that opens a blob read-only (registered by the blob feature; blob links in the text use it). */
export const OPEN_BLOB_COMMAND = COMMANDS.openBlob;

/** Resolves a content blob of a trace (set by the blob feature). */
export type BlobResolver = (traceUri: vscode.Uri, digest: string, algorithm: DigestAlgorithm) => Promise<Omit<BlobContentMessage, 'type' | 'requestId'>>;

/**
 * What the viewer's own buttons do, plugged in by the features that own them when the extension activates:
 * the viewer calls them directly, not through the command bus (they ship in the same bundle).
 */
export interface ViewerFeatures {
  /** Verify / Check buttons: runs the checks on the trace, with progress and the Problems panel. */
  runChecks(traceUri: vscode.Uri, mode: CheckMode): Promise<unknown>;
  /** Opens a content blob of the trace read-only. */
  openBlob(traceUri: vscode.Uri, digest: string, algorithm: DigestAlgorithm): Promise<void>;
  /** The Content tab's blob previews. */
  resolveBlob: BlobResolver;
  /** The trace's blob store (with the blob roots setting), for find in blob text. */
  blobStore?: (traceUri: vscode.Uri) => Promise<BlobStore | null>;
}

/** See the file comment. */
export class TraceViewer implements vscode.Disposable {
  readonly session: ViewerSession;
  /** Called when the selected event changes (the status bar follows it). */
  onSelection: (() => void) | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly document: TraceDocument,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    features: () => Partial<ViewerFeatures>,
    expandAllMaxEvents: number,
    private readonly layoutStore?: vscode.Memento,
  ) {
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    const webview = panel.webview;
    webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
    this.session = new ViewerSession(this.sessionHost(features), { expandAllMaxEvents });
    this.disposables.push(
      webview.onDidReceiveMessage((raw) => {
        const msg = parseViewMessage('viewer', raw);
        if (msg) void this.session.handle(msg).catch((err) => console.error('agent trace viewer:', err));
      }),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.session.webviewReset();
      }),
      document.onDidChange((e) => this.onDocument(e)),
    );
    webview.html = bundlePageHtml(webview, dist, 'webview');
    // The quick first look counts too: a panel resolved after it must not wait for the full read. A complete
    // model opens as ready (a later panel has seen no append or rewrite to announce).
    const shown = document.shown;
    if (shown) this.session.setModel(shown.model, shown.state === 'loading' ? 'loading' : 'ready', shown.state === 'loading' ? shown.message : null);
    if (document.lastProblem) this.onDocument(document.lastProblem);
    for (const [mode, result] of document.checkResults) this.session.setCheckResults(mode, result);
    if (document.staleChecks.size > 0) this.session.markChecksStale();
  }

  /** Reveals and selects the event on a 1-based line, bringing the panel forward. */
  revealLine(line: number): void {
    this.panel.reveal(undefined, false);
    this.session.revealLine(line);
  }

  private onDocument(e: DocumentEvent): void {
    switch (e.type) {
      case 'progress':
        return this.session.setLoading(this.fileName(), e.bytesRead, e.fileSize);
      case 'model':
        return this.session.setModel(e.model, e.state, e.message);
      case 'fileState':
        return this.session.setFileState(e.state, e.message);
      case 'error':
        return this.session.setError(e.message, e.actions);
      case 'checks':
        return this.session.setCheckResults(e.mode, e.result);
      case 'clearChecks':
        return this.session.clearCheckResults();
      case 'checksStale':
        return this.session.markChecksStale();
      default:
        return assertNever(e);
    }
  }

  private sessionHost(features: () => Partial<ViewerFeatures>): SessionHost {
    const uri = this.document.uri;
    return {
      post: (m) => void this.panel.webview.postMessage(m),
      selectionChanged: () => this.onSelection?.(),
      // A line of a session's other file (a subagent's transcript, read with the trace) opens that file.
      revealInTextEditor: (line, path) => void revealInTextEditor(path === undefined ? uri : sessionFileUri(uri, path), line),
      copy: (text) => void vscode.env.clipboard.writeText(text),
      openExternal: (url) => {
        if (isSafeExternalUrl(url)) void vscode.env.openExternal(vscode.Uri.parse(url));
      },
      runChecks: (mode) => void features().runChecks?.(uri, mode),
      openAsText: () => void switchToText(uri, this.session.selectedEventLine ?? undefined),
      reload: (ignoreSizeLimit) => void this.document.load({ ignoreSizeLimit, message: 'Reloaded from disk.' }),
      openBlob: (digest, algorithm) => void features().openBlob?.(uri, digest, algorithm),
      // A file of the same session (a subagent's transcript), in the viewer, on the trace's own file system.
      openTrace: (path) => void vscode.commands.executeCommand('vscode.openWith', sessionFileUri(uri, path), VIEW_TYPE),
      // Pane sizes per workspace: a new viewer starts from the last ones used.
      layout: this.layoutStore && {
        get: () => this.layoutStore!.get<ViewerLayout>(LAYOUT_KEY) ?? null,
        set: (layout) => void this.layoutStore!.update(LAYOUT_KEY, layout),
      },
      blobStore: () => features().blobStore?.(uri) ?? Promise.resolve(null),
      resolveBlob: (digest, algorithm) => {
        const r = features().resolveBlob;
        // Only before activation has wired the blob feature (a panel restored very early).
        return r ? r(uri, digest, algorithm) : Promise.resolve({ digest, state: 'unresolved', preview: null, bytes: null, message: 'Blobs are not ready yet: try again in a moment.' });
      },
    };
  }

  private fileName(): string {
    return this.document.uri.path.slice(this.document.uri.path.lastIndexOf('/') + 1);
  }

  dispose(): void {
    this.session.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The URI of a file of the trace's session (a path the core listed), on the trace's own file system. */
function sessionFileUri(trace: vscode.Uri, path: string): vscode.Uri {
  return trace.scheme === 'file' ? vscode.Uri.file(path) : trace.with({ path: path.replace(/\\/g, '/') });
}

/** Opens the trace in the text editor with the line selected (VS Code refuses files over its size limit). */
export async function revealInTextEditor(uri: vscode.Uri, line: number): Promise<void> {
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const l = Math.max(0, Math.min(doc.lineCount - 1, line - 1));
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(l, 0, l, doc.lineAt(l).text.length), preview: false, viewColumn: vscode.ViewColumn.Beside });
  } catch (err) {
    void vscode.window.showErrorMessage(`Cannot open the trace as text (VS Code opens files up to about 50 MB in its text editor): ${err instanceof Error ? err.message : String(err)}`);
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled document event ${JSON.stringify(x)}`);
}

/**
 * Content blobs in VS Code: the viewer's blob resolver (Content tab), "Open Blob" as a read-only virtual
 * document, and blob hashes as links in the raw text of a trace.
 */
import * as vscode from 'vscode';
import { shortDigest } from '../../core/blobStore';
import type { TraceModel } from '../../core/loadTrace';
import type { DigestAlgorithm, HashRef } from '../../core/model';
import { OPEN_BLOB_COMMAND, TraceEditorApi } from '../editor';
import { BlobDocumentProvider, blobDocumentUri, BLOB_SCHEME } from './blobDocuments';
import { BlobLinkProvider, BLOB_LINK_SELECTOR } from './blobLinks';
import { blobState, TraceBlobs } from '../../viewer/blobResolver';
import { blobSettings } from '../settings';

export { BLOB_SCHEME } from './blobDocuments';

/** Registers blob features (Open Blob virtual documents, blob links, the viewer's blob resolver). */
export function registerBlobFeatures(context: vscode.ExtensionContext, viewers: TraceEditorApi): TraceBlobs {
  const blobs = new TraceBlobs(blobSettings);
  const modelOf = (uri: vscode.Uri) => viewers.getOpenViewer(uri)?.model;
  const docs = new BlobDocumentProvider(blobs, modelOf);
  viewers.setFeatures({
    resolveBlob: (uri, digest, algorithm) => blobs.answer(uri.fsPath, modelOf(uri), digest, algorithm),
    blobStore: (uri) => {
      const model = modelOf(uri);
      return model ? blobs.store(uri.fsPath, model.format) : Promise.resolve(null);
    },
    openBlob: (uri, digest, algorithm) => openBlob(blobs, docs, viewers, uri, digest, algorithm),
  });
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, docs),
    vscode.languages.registerDocumentLinkProvider(BLOB_LINK_SELECTOR, new BlobLinkProvider(blobs)),
    vscode.commands.registerCommand(OPEN_BLOB_COMMAND, (trace?: unknown, digest?: unknown, algorithm?: unknown) => openBlob(blobs, docs, viewers, trace, digest, algorithm)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentTrace.blobRoots')) blobs.forget();
    }),
    // A trusted workspace's own blob roots now count (src/vscode/settings.ts): look blobs up again.
    vscode.workspace.onDidGrantWorkspaceTrust(() => blobs.forget()),
    viewers.onDidOpenTrace((uri) => blobs.forget(uri.fsPath)),
  );
  return blobs;
}

/** A trace URI from a command argument: a Uri, or its string form (command links pass JSON). */
function asUri(v: unknown): vscode.Uri | undefined {
  if (v instanceof vscode.Uri) return v;
  if (typeof v === 'string' && v.length > 0) return v.includes(':') ? vscode.Uri.parse(v) : vscode.Uri.file(v);
  return undefined;
}

/** Opens a blob read-only; without arguments, picks one of the active trace's blobs. */
export async function openBlob(blobs: TraceBlobs, docs: BlobDocumentProvider, viewers: TraceEditorApi, trace?: unknown, digest?: unknown, algorithm?: unknown): Promise<void> {
  let traceUri = asUri(trace);
  let target: { digest: string; algorithm: DigestAlgorithm } | undefined;
  if (traceUri && typeof digest === 'string' && (algorithm === 'sha256' || algorithm === 'fnv1a64')) target = { digest, algorithm };
  else {
    traceUri = traceUri ?? viewers.activeViewer?.uri;
    const model = traceUri ? viewers.getOpenViewer(traceUri)?.model : undefined;
    if (!traceUri || !model) {
      void vscode.window.showInformationMessage('Open a trace in the Agent Trace viewer first, then pick one of its blobs.');
      return;
    }
    target = await pickBlob(model);
    if (!target) return;
  }
  const { result } = await blobs.resolve(traceUri.fsPath, viewers.getOpenViewer(traceUri)?.model, target.digest, target.algorithm);
  const uri = blobDocumentUri({ trace: traceUri.toString(), ...target }, blobState(result.status));
  const doc = await vscode.workspace.openTextDocument(uri);
  const language = docs.languages.get(uri.toString()) ?? 'plaintext';
  const shown = doc.languageId === language ? doc : await vscode.languages.setTextDocumentLanguage(doc, language);
  // Beside the trace and pinned: a preview tab would replace the trace's tab, and Go Back would reopen it.
  await vscode.window.showTextDocument(shown, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  if (result.status !== 'verified') void vscode.window.showWarningMessage(result.message);
}

/** A quick pick of the distinct blobs the trace's events reference. */
async function pickBlob(model: TraceModel): Promise<{ digest: string; algorithm: DigestAlgorithm } | undefined> {
  const seen = new Map<string, { ref: HashRef; line: number }>();
  for (const i of model.events.eventsWithHashRefs()) {
    for (const ref of model.events.hashRefsOf(i)) if (!seen.has(ref.digest)) seen.set(ref.digest, { ref, line: model.events.lineOf(i) });
    if (seen.size >= 5000) break;
  }
  if (seen.size === 0) {
    void vscode.window.showInformationMessage('This trace references no content blobs.');
    return undefined;
  }
  const items = [...seen.values()].map(({ ref, line }) => ({ label: `${ref.algorithm}:${shortDigest(ref.digest)}`, description: ref.field, detail: `first referenced on line ${line}`, ref }));
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Open which blob?', matchOnDescription: true });
  return pick ? { digest: pick.ref.digest, algorithm: pick.ref.algorithm } : undefined;
}

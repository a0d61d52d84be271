import * as vscode from 'vscode';
import { nodeAtLine } from '../../viewer/traceRows';
import { basename } from 'node:path';
import { COMMANDS } from '../commandIds';
import { TraceViewerApi } from '../viewerApi';
import { TraceModels } from '../traceModels';
import { activeTrace } from './navigationCommands';
import { otlpJsonRequests, otlpSourceSpansOf } from '../../core/export/otlpExport';
import { OtlpPostError, otlpTracesUrl, parseOtlpHeaders, postOtlpJson, shownOtlpUrl } from '../../core/export/otlpHttp';
import { markdownExport, traceToMarkdown } from '../../report/markdown/markdownTranscript';
import { TraceBlobs } from '../../viewer/blobResolver';
import type { TraceModel } from '../../core/loadTrace';
import { buildReport, readReportAssets } from '../../report/buildReport';
import { otlpContentOf } from '../../report/otlpContent';
import { setting } from '../settings';

/** Spans per request, as in the CLI: within a collector's default request size. */
const POST_BATCH = 1000;

/** The trace a share command acts on, or a warning when there is none. */
function target(viewers: TraceViewerApi, uri?: unknown): vscode.Uri | undefined {
  const t = activeTrace(viewers, uri instanceof vscode.Uri ? uri : undefined);
  if (!t || t.scheme !== 'file') void vscode.window.showWarningMessage('Agent Trace: open a trace first.');
  return t && t.scheme === 'file' ? t : undefined;
}

/** Asks for the endpoint, prefilled from `agentTrace.otlpEndpoint`; undefined when the user cancels. */
async function askEndpoint(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Send to OTLP Endpoint',
    prompt: 'OTLP/HTTP endpoint; spans are POSTed as JSON to <endpoint>/v1/traces',
    value: setting('otlpEndpoint'),
    validateInput: (v) => {
      try {
        otlpTracesUrl(v);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

/** "Agent Trace: Send to OTLP Endpoint…": the trace's spans, with GenAI attributes, to a collector. */
async function sendToOtlp(context: vscode.ExtensionContext, models: TraceModels, uri: vscode.Uri): Promise<void> {
  const endpoint = await askEndpoint();
  if (endpoint === undefined) return;
  try {
    const headers = { ...parseOtlpHeaders(process.env.OTEL_EXPORTER_OTLP_HEADERS), ...setting('otlpHeaders') };
    const version = String(context.extension.packageJSON.version);
    // The title and every message name the endpoint with its user name and password masked (the sender's own rule).
    const title = `Sending ${basename(uri.fsPath)} to ${shownOtlpUrl(endpoint)}…`;
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async (progress) => {
      const model = await models.get(uri);
      // The conversation only when the user asked for it (agentTrace.otlpIncludeContent, off by default).
      // It is read as the spans are made, each request when the one before it was accepted.
      const content = setting('otlpIncludeContent') ? otlpContentOf(model, blobsForExport()) : undefined;
      const options = { version, fileName: basename(uri.fsPath), batchSize: POST_BATCH, sourceSpans: await otlpSourceSpansOf(model), content: content?.content, contentThrough: content?.through };
      const bodies = otlpJsonRequests(model, options);
      return { ...(await postOtlpJson(endpoint, bodies, { headers, version, onRetry: (message) => progress.report({ message }) })), spans: model.events.size };
    });
    const via = r.url === r.endpointUrl ? '' : ` (redirected from ${r.endpointUrl})`;
    const rejected = r.rejectedSpans > 0 ? ` The receiver rejected ${r.rejectedSpans}${r.messages.length ? ': ' + r.messages.join('; ') : ''}.` : '';
    void (rejected ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(`Agent Trace: sent ${r.spans} spans to ${r.url}${via}.${rejected}`);
  } catch (err) {
    void vscode.window.showErrorMessage(`Agent Trace: ${err instanceof OtlpPostError ? err.message : `could not send the trace: ${(err as Error).message}`}`);
  }
}

/** Blob lookup as the viewer does it: the format's layout plus `agentTrace.blobRoots` and the workspace folders. */
function blobsForExport(): TraceBlobs {
  return new TraceBlobs(() => ({
    extraRoots: setting('blobRoots'),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
  }));
}

/** The event selected in the viewer of `uri` (its subtree is exported), or undefined for the whole trace. */
function selectedRoot(viewers: TraceViewerApi, uri: vscode.Uri, model: TraceModel): number | undefined {
  const line = viewers.selectedLine(uri);
  if (line === undefined) return undefined;
  const node = nodeAtLine(model, line);
  return node !== null && node >= 0 ? node : undefined;
}

/** "Copy as Markdown": the selected event's subtree (a run, a turn, a tool call), or the whole trace. */
async function copyAsMarkdown(viewers: TraceViewerApi, models: TraceModels, uri: vscode.Uri): Promise<void> {
  const model = await models.get(uri);
  const root = selectedRoot(viewers, uri, model);
  // The export's own path and limit: what a GitHub comment holds, cut at a block boundary with a note.
  const { text, cut } = await markdownExport(model, { root, blobs: blobsForExport() });
  await vscode.env.clipboard.writeText(text);
  const what = root === undefined ? 'the trace' : `line ${model.events.lineOf(root)} and its children`;
  const fit = cut ? `; cut to fit a GitHub comment: the last ${cut.leftOut} of ${cut.blocks} blocks, from line ${cut.fromLine}, left out; Export Transcript as Markdown writes them all` : '';
  void vscode.window.showInformationMessage(`Agent Trace: copied ${what} as Markdown (${text.length.toLocaleString()} characters${fit}).`);
}

/** "Export Transcript as Markdown": the whole trace (or the selected subtree) to a `.md` file. */
async function exportMarkdown(viewers: TraceViewerApi, models: TraceModels, uri: vscode.Uri): Promise<void> {
  const dest = await vscode.window.showSaveDialog({ defaultUri: uri.with({ path: uri.path.replace(/(\.[^./]+)*$/, '.md') }), filters: { Markdown: ['md'] }, title: 'Export Transcript as Markdown' });
  if (!dest) return;
  const model = await models.get(uri);
  // A file has no comment's limit: the whole transcript.
  const text = await traceToMarkdown(model, { root: selectedRoot(viewers, uri, model), blobs: blobsForExport(), maxChars: 0 });
  await vscode.workspace.fs.writeFile(dest, Buffer.from(text, 'utf8'));
  void vscode.window.showInformationMessage(`Agent Trace: wrote ${basename(dest.fsPath)}.`);
}

/** "Export as HTML Report…": the viewer's page with the trace embedded, to open in any browser, offline. */
async function exportHtmlReport(context: vscode.ExtensionContext, models: TraceModels, uri: vscode.Uri): Promise<void> {
  const blobs = await vscode.window.showQuickPick(
    [{ label: 'Without blob contents', include: false }, { label: 'With blob previews', description: 'prompts and outputs stored beside the trace', include: true }],
    { title: 'Export as HTML Report' },
  );
  if (!blobs) return;
  const dest = await vscode.window.showSaveDialog({ defaultUri: uri.with({ path: uri.path.replace(/(\.[^./]+)*$/, '.report.html') }), filters: { HTML: ['html'] }, title: 'Export as HTML Report' });
  if (!dest) return;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${basename(uri.fsPath)} as an HTML report…` }, async () => {
    const model = await models.get(uri);
    const assets = readReportAssets(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath);
    const generator = `Agent Trace Viewer ${String(context.extension.packageJSON.version)}`;
    const { html, leftOut } = await buildReport(model, assets, { blobs: blobs.include ? blobsForExport() : undefined, generator });
    await vscode.workspace.fs.writeFile(dest, Buffer.from(html, 'utf8'));
    void vscode.window.showInformationMessage(`Agent Trace: wrote ${basename(dest.fsPath)}${leftOut > 0 ? ` (${leftOut} later events left out)` : ''}.`);
  });
}

/** Registers the commands that share a trace with people who do not have it open (OTLP, Markdown, HTML report). */
export function registerShareCommands(context: vscode.ExtensionContext, viewers: TraceViewerApi, models: TraceModels): void {
  const reg = (id: string, f: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, f));
  reg(COMMANDS.sendToOtlp, (uri?: unknown) => {
    const t = target(viewers, uri);
    return t && sendToOtlp(context, models, t);
  });
  reg(COMMANDS.copyAsMarkdown, (uri?: unknown) => {
    const t = target(viewers, uri);
    return t && copyAsMarkdown(viewers, models, t);
  });
  reg(COMMANDS.exportHtmlReport, (uri?: unknown) => {
    const t = target(viewers, uri);
    return t && exportHtmlReport(context, models, t).catch((err: unknown) => void vscode.window.showErrorMessage(`Agent Trace: could not export the report: ${(err as Error).message}`));
  });
  reg(COMMANDS.exportMarkdown, (uri?: unknown) => {
    const t = target(viewers, uri);
    return t && exportMarkdown(viewers, models, t);
  });
}

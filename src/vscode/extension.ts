import '../node/register';
import * as vscode from 'vscode';
import { registerBlobFeatures } from './blobs';
import { registerCommands } from './commands';
import { registerShareCommands } from './commands/shareCommands';
import { TraceModels } from './traceModels';
import { registerTraceEditor } from './editor';
import { showLaunchFile } from './editor/launchFile';
import { registerTraceOffer } from './editor/traceOffer';
import { registerOutline } from './language/outline';
import { watchPricingSetting } from './pricingSetting';
import { registerCompareCommands } from './compare/compareCommands';
import { registerSessionsView } from './sessions/sessionsCommands';
import { registerSessionSearch } from './sessions/sessionSearchPick';
import { SessionsWorker } from '../node/workerSessions';
import { registerUsagePanel } from './sessions/usagePanel';
import { registerIdProviders, registerTextGoToDefinition, takeRecentDefinition } from './language/idProviders';

/** Wires the extension's editors, commands and providers. */
export function activate(context: vscode.ExtensionContext): void {
  watchPricingSetting(context);
  const viewers = registerTraceEditor(context);
  // One model cache: the viewer's documents first, then the disk.
  const models = new TraceModels(viewers);
  const checks = registerCommands(context, viewers, models);
  // The viewer's Verify and Check buttons call the checks directly.
  viewers.setFeatures({ runChecks: (uri, mode) => checks.run(mode === 'verify' ? 'verifyChain' : 'checkConformance', uri) });
  registerIdProviders(context, models);
  registerTextGoToDefinition(context, models);
  registerOutline(context, models);
  // Ctrl+click in the text view of a trace file opens its default editor, the viewer: show the event there.
  context.subscriptions.push(
    viewers.onDidChangeActiveViewer((h) => {
      const line = h && takeRecentDefinition(h.uri);
      if (h && line !== undefined) void viewers.revealLine(h.uri, line);
    }),
  );
  // A trace opened as text (outside its tool's folder) offers the viewer.
  registerTraceOffer(context);
  registerBlobFeatures(context, viewers);
  // `npm start`: the trace it names opens in the viewer, also in a browser whose editor cache never saw it.
  void showLaunchFile().catch(() => undefined);
  registerShareCommands(context, viewers, models);
  registerCompareCommands(context, models, viewers);
  // The Agent Traces view's listings and the search index, in a worker thread, kept in the extension's storage.
  const storage = context.globalStorageUri as vscode.Uri | undefined;
  const sessionsWorker = new SessionsWorker(storage?.scheme === 'file' ? storage.fsPath : null);
  context.subscriptions.push({ dispose: () => void sessionsWorker.close().catch(() => undefined) });
  const sessions = registerSessionsView(context, sessionsWorker);
  registerSessionSearch(context, sessions, viewers, sessionsWorker);
  registerUsagePanel(context, sessions);
}

export function deactivate(): void {}

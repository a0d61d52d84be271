/**
 * The trace viewer: a read-only custom editor, its commands, and a small API for the features that show
 * their results in it (verification, conformance, navigation, blobs).
 */
import * as vscode from 'vscode';
import type { CheckResult } from '../../core/checks/runChecks';
import type { CheckMode } from '../../core/rules/types';
import type { TraceModel } from '../../core/loadTrace';
import { VIEW_TYPE, VIEW_TYPE_ANY_JSONL } from '../../protocol';
import { COMMANDS } from '../commandIds';
import { resolveWorkers } from '../../core/parallel/workerCount';
import { blobSettings, ruleSettings, setting } from '../settings';
import type { TraceViewerApi } from '../viewerApi';
import { switchToText, switchToViewer } from './switchView';
import { DocumentCheck, DocumentSettings, TraceDocument } from './traceDocument';
import { BlobResolver, TraceViewer, ViewerFeatures } from './traceViewer';
import { TraceStatusBar } from './statusBar';

export { OPEN_BLOB_COMMAND } from './traceViewer';
export type { BlobResolver, ViewerFeatures } from './traceViewer';

/** One open trace in the viewer (all its panels), as other features see it. */
export interface TraceViewerHandle {
  readonly uri: vscode.Uri;
  /** The model shown now (possibly a quick partial look while the full read runs). */
  readonly model: TraceModel | undefined;
  /** Resolves with the first complete model, or undefined when the file could not be read. */
  whenLoaded(): Promise<TraceModel | undefined>;
  /** Fires after every complete (re)load: first open, live append, rewrite. */
  readonly onDidLoadModel: vscode.Event<TraceModel>;
  /** Reveals, selects and scrolls to the event on a 1-based line, in the most recently active panel. */
  revealLine(line: number): void;
  /** Shows verification or conformance results: badges on events, the header summary, the Checks list. */
  showCheckResults(mode: CheckMode, result: CheckResult): void;
  /** Opens the viewer's find bar. */
  focusFind(): void;
  /** The line of the event selected in the most recently active panel. */
  selectedLine(): number | undefined;
}

/** What `registerTraceEditor` gives the rest of the extension: the commands' {@link TraceViewerApi} and more. */
export interface TraceEditorApi extends TraceViewerApi {
  getOpenViewer(uri: vscode.Uri): TraceViewerHandle | undefined;
  readonly activeViewer: TraceViewerHandle | undefined;
  readonly onDidChangeActiveViewer: vscode.Event<TraceViewerHandle | undefined>;
  /** Fires when a trace is opened in a viewer panel (before it is loaded). */
  readonly onDidOpenViewer: vscode.Event<TraceViewerHandle>;
  /** Plugs in the blob resolver used by the Content tab. */
  setBlobResolver(resolver: BlobResolver): void;
  /** Plugs in what the viewer's buttons call (checks, Open Blob); merged with what was set before. */
  setFeatures(features: Partial<ViewerFeatures>): void;
}

/** Context key set while a viewer panel is active (for keybindings and menus). */
const ACTIVE_CONTEXT = 'agentTrace.viewerActive';

class Handle implements TraceViewerHandle {
  readonly viewers: TraceViewer[] = [];
  constructor(readonly doc: TraceDocument) {}
  get uri(): vscode.Uri {
    return this.doc.uri;
  }
  get model(): TraceModel | undefined {
    return this.doc.shown?.model ?? this.doc.model;
  }
  get onDidLoadModel(): vscode.Event<TraceModel> {
    return this.doc.onDidLoadModel;
  }
  whenLoaded(): Promise<TraceModel | undefined> {
    return this.doc.whenLoaded();
  }
  revealLine(line: number): void {
    this.viewers[0]?.revealLine(line);
  }
  showCheckResults(mode: CheckMode, result: CheckResult): void {
    this.doc.setCheckResults(mode, result);
  }
  focusFind(): void {
    this.viewers[0]?.session.focusFind();
  }
  selectedLine(): number | undefined {
    return this.viewers[0]?.session.selectedEventLine ?? undefined;
  }
}

/** Registers the custom editor and its commands; returns the viewer API. */
export function registerTraceEditor(context: vscode.ExtensionContext): TraceEditorApi {
  const handles = new Map<string, Handle>();
  const activeEmitter = new vscode.EventEmitter<TraceViewerHandle | undefined>();
  const openEmitter = new vscode.EventEmitter<TraceViewerHandle>();
  const loadedEmitter = new vscode.EventEmitter<vscode.Uri>();
  const appendedEmitter = new vscode.EventEmitter<vscode.Uri>();
  let active: Handle | undefined;
  let features: Partial<ViewerFeatures> = {};
  const status = new TraceStatusBar();
  const showStatus = () => {
    const h = active;
    const model = h?.model;
    if (!h || !model) return status.show(null, null);
    const checks = [...h.doc.checkResults].map(([mode, result]) => ({ mode, result, stale: h.doc.staleChecks.has(mode) }));
    status.show(h.uri, { format: model.format, events: model.events.size, selectedLine: h.selectedLine() ?? null, checks, loading: model.partial === true });
  };
  const setActive = (h: Handle | undefined) => {
    if (h === active) return;
    active = h;
    showStatus();
    void vscode.commands.executeCommand('setContext', ACTIVE_CONTEXT, h !== undefined);
    activeEmitter.fire(h);
  };
  const checkedEmitter = new vscode.EventEmitter<DocumentCheck & { uri: vscode.Uri }>();
  const settings = (): DocumentSettings & { expandAllMaxEvents: number } => {
    const checkOnOpen = setting('checkOnOpen') ? { maxBytes: setting('checkOnOpenMaxMB') * 2 ** 20, rules: ruleSettings(), blobOptions: blobSettings() } : null;
    return { maxFileSizeMB: setting('maxFileSizeMB'), liveUpdates: setting('liveUpdates'), expandAllMaxEvents: setting('expandAllMaxEvents'), workers: resolveWorkers(setting('workers')), checkOnOpen };
  };

  const provider: vscode.CustomReadonlyEditorProvider<TraceDocument> = {
    async openCustomDocument(uri) {
      const doc = new TraceDocument(uri, settings);
      const h = new Handle(doc);
      handles.set(uri.toString(), h);
      void doc.load();
      doc.watch();
      doc.onDidDispose(() => {
        handles.delete(uri.toString());
        if (active === h) setActive(undefined);
      });
      // A trace is (re)opened when a complete model arrives, except after a live append.
      doc.onDidChange((e) => {
        if (e.type === 'model' && e.state !== 'appended' && e.state !== 'loading') loadedEmitter.fire(uri);
        if (e.type === 'model' && e.state === 'appended') appendedEmitter.fire(uri);
      });
      doc.onDidCheckOnRead((c) => checkedEmitter.fire({ ...c, uri }));
      doc.onDidChange((e) => {
        if (active === h && (e.type === 'model' || e.type === 'checks' || e.type === 'clearChecks' || e.type === 'checksStale')) showStatus();
      });
      return doc;
    },
    async resolveCustomEditor(doc, panel) {
      const h = handles.get(doc.uri.toString());
      if (!h) return;
      const viewer = new TraceViewer(doc, panel, context.extensionUri, () => features, settings().expandAllMaxEvents, context.workspaceState);
      h.viewers.unshift(viewer);
      viewer.onSelection = () => {
        if (active === h && h.viewers[0] === viewer) showStatus();
      };
      const track = () => {
        if (panel.active) {
          h.viewers.splice(h.viewers.indexOf(viewer), 1);
          h.viewers.unshift(viewer);
          setActive(h);
        } else if (active === h && !h.viewers.some((v) => v.panel.active)) setActive(undefined);
      };
      panel.onDidChangeViewState(track);
      panel.onDidDispose(() => {
        viewer.dispose();
        h.viewers.splice(h.viewers.indexOf(viewer), 1);
        if (active === h && h.viewers.length === 0) setActive(undefined);
      });
      track();
      openEmitter.fire(h);
    },
  };

  context.subscriptions.push(
    status,
    activeEmitter,
    openEmitter,
    loadedEmitter,
    appendedEmitter,
    checkedEmitter,
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, { supportsMultipleEditorsPerDocument: true }),
    vscode.window.registerCustomEditorProvider(VIEW_TYPE_ANY_JSONL, provider, { supportsMultipleEditorsPerDocument: true }),
    vscode.commands.registerCommand(COMMANDS.openInViewer, (uri?: vscode.Uri) => withTrace(uri ?? activeResource(), switchToViewer)),
    vscode.commands.registerCommand(COMMANDS.openAsText, (uri?: vscode.Uri) =>
      withTrace(uri ?? active?.uri ?? activeResource(), (u) => switchToText(u, handles.get(u.toString())?.selectedLine())),
    ),
    vscode.commands.registerCommand(COMMANDS.find, () => active?.focusFind()),
  );

  return {
    getOpenViewer: (uri) => handles.get(uri.toString()),
    get activeViewer() {
      return active;
    },
    onDidChangeActiveViewer: activeEmitter.event,
    onDidOpenViewer: openEmitter.event,
    setBlobResolver: (resolveBlob) => (features = { ...features, resolveBlob }),
    setFeatures: (f) => (features = { ...features, ...f }),
    activeUri: () => active?.uri,
    loadedModel: async (uri) => {
      const h = handles.get(uri.toString());
      if (!h) return undefined;
      const first = await h.whenLoaded();
      // After live appends the document holds a newer complete model than the first one.
      return h.model && !h.model.partial && !h.model.cancelled ? h.model : first;
    },
    showViewer: (uri) => {
      const panel = handles.get(uri.toString())?.viewers[0]?.panel;
      if (!panel) return false;
      panel.reveal(panel.viewColumn);
      return true;
    },
    revealLine: async (uri, line) => {
      const h = handles.get(uri.toString());
      if (!h || h.viewers.length === 0 || !(await h.whenLoaded())) return false;
      h.revealLine(line);
      return true;
    },
    selectedLine: (uri) => handles.get(uri.toString())?.selectedLine(),
    selectLine: (uri, line) => {
      const viewer = handles.get(uri.toString())?.viewers[0];
      viewer?.session.revealLine(line);
      return viewer !== undefined;
    },
    showCheckResults: (uri, mode, result) => handles.get(uri.toString())?.showCheckResults(mode, result),
    showChecksSkipped: (uri, message) => handles.get(uri.toString())?.viewers.forEach((v) => v.session.setChecksSkipped(message)),
    onDidOpenTrace: loadedEmitter.event,
    onDidAppend: appendedEmitter.event,
    onDidCheckOnOpen: checkedEmitter.event,
  };
}

/** The file of the active editor tab (text or custom editor). */
function activeResource(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}

async function withTrace(uri: vscode.Uri | undefined, open: (uri: vscode.Uri) => Promise<void>): Promise<void> {
  if (!uri) {
    void vscode.window.showInformationMessage('Open a trace file first.');
    return;
  }
  await open(uri);
}

/**
 * One viewer's host-side state and message handling, without `vscode`: the row projection and paging,
 * selection and details, find, filter, findings, and carrying all of it over when the model is replaced
 * (a quick first look replaced by the full read, an append, a rewrite). The VS Code panel (`traceViewer.ts`)
 * and the webview tests' stub host both drive this class.
 */
import type { CheckResult } from '../core/checks/runChecks';
import type { CheckMode } from '../core/rules/types';
import type { TraceModel } from '../core/loadTrace';
import type { BookkeepingState, ErrorMessage, FileState, HostMessage, PersistedViewState, RowFilter, WebviewMessage } from '../protocol';
import { NO_FILTER } from '../protocol';
import { bookkeepingCategory, formatModule } from '../core/formats';
import { EVENT_CATEGORIES } from '../core/model';
import { sessionFilesOf } from '../core/sessionUsage';
import { sessionSummaryOrigin } from '../core/summary';
import { SessionTranscript } from './transcript/sessionTranscript';
import { SessionDetail } from './sessionDetail';
import { SessionTimeline } from './timeline/sessionTimeline';
import { assertNever, forwardToHost, SessionHost, SessionOptions } from './sessionHost';
import { FindingsState } from './findingsState';
import { SessionFind } from './sessionFind';
import { SessionFilter } from './sessionFilter';
import { SessionHeader } from './sessionHeader';
import { RowProjection } from './rowModel';
import { SessionExpansion } from './sessionExpansion';

export type { SessionHost, SessionOptions } from './sessionHost';
import { bookkeepingCount, buildRows, nearestNodeBefore, nodeAtLine, nodeAtPlace, partOfNode, placeOfNode, traceStartTime, treeSourceOf, validNode } from './traceRows';

/** See the file comment. */
export class ViewerSession {
  private model: TraceModel | null = null;
  private modelVersion = 0;
  private rows: RowProjection | null = null;
  private t0: number | null = null;
  private readonly findings = new FindingsState();
  private readonly find: SessionFind;
  private selected: number | null = null;
  private selectedLine: number | null = null;
  private topLine: number | null = null;
  private filter: RowFilter = NO_FILTER;
  private readonly rowFilter = new SessionFilter(() => {
    this.applyFilter();
    this.sendRowsState();
  });
  /** Compact view of linear chains; null = the format's default (FormatModule.linearChains). */
  private compact: boolean | null = null;
  /** The writer's bookkeeping lines as rows; null = the default (folded out of the tree). */
  private showBookkeeping: boolean | null = null;
  /** The rows shown leave the bookkeeping lines out. */
  private rowsHideBookkeeping = false;
  private checksSkipped: string | null = null;
  private readonly expansion: SessionExpansion;
  private fileState: FileState = 'loading';
  private fileMessage: string | null = null;
  private error: ErrorMessage | null = null;
  private loading: HostMessage | null = null;
  private ready = false;
  private restored = false;
  private readonly detail: SessionDetail;
  private readonly transcript: SessionTranscript;
  private readonly timeline = new SessionTimeline(() => this.model, () => this.modelVersion, (m) => this.post(m));
  private readonly header: SessionHeader;
  /** The init message about to be sent is for an append to the model shown (its header may follow later). */
  private appending = false;
  /** The first model shown got its first meaningful event selected (so the detail pane opens on it). */
  private autoSelected = false;
  private disposed = false;

  constructor(private readonly host: SessionHost, options: SessionOptions = { expandAllMaxEvents: 20_000 }) {
    this.expansion = new SessionExpansion(options.expandAllMaxEvents);
    this.header = new SessionHeader({ model: () => this.model, modelVersion: () => this.modelVersion, post: (m) => this.post(m) }, options.countTotalsAfterRowsAbove);
    this.detail = new SessionDetail({ model: () => this.model, modelVersion: () => this.modelVersion, findingsAt: (line, part) => this.findings.atLine(line, part), post: (m) => this.post(m), host });
    this.transcript = new SessionTranscript({ model: () => this.model, modelVersion: () => this.modelVersion, post: (m) => this.post(m) });
    this.find = new SessionFind({
      post: (m) => this.post(m),
      model: () => this.model,
      passes: (node) => this.rows?.passes(node) ?? false,
      onMatchesChanged: () => this.touchRows(),
      reveal: (node) => this.revealNode(node, true),
      // Asked at each search: the blob feature may be plugged in after the session exists.
      blobStore: () => this.host.blobStore?.() ?? Promise.resolve(null),
    });
  }

  /** The 1-based line of the selected event, or null when none is selected. */
  get selectedEventLine(): number | null {
    // A session part's event is on a line of another file (TraceModel.parts): none of this one.
    return this.selected !== null && this.model && partOfNode(this.model, this.selected) === 0 ? this.selectedLine : null;
  }

  /** The model currently shown, if any. */
  get current(): TraceModel | null {
    return this.model;
  }

  /** Indexing progress while no model is shown yet (or a reload runs). */
  setLoading(fileName: string, bytesRead: number, fileSize: number): void {
    this.loading = { type: 'loading', fileName, bytesRead, fileSize };
    this.post(this.loading);
  }

  /** Shows a new model, carrying selection, expansion, filter, find and scroll position over by line. */
  setModel(model: TraceModel, fileState: FileState = 'ready', fileMessage: string | null = null): void {
    if (this.rows && this.model) this.expansion.capture(this.model, this.rows);
    this.appending = fileState === 'appended' && this.model !== null;
    this.model = model;
    this.modelVersion++;
    this.error = null;
    this.loading = null;
    this.fileState = fileState;
    this.fileMessage = fileMessage;
    this.t0 = traceStartTime(model);
    this.findings.setModel(model);
    this.rows = this.projection(model, this.hideWanted(this.filterActive()));
    this.expansion.apply(model, this.rows);
    this.applyFilter();
    this.selected = this.selectedLine !== null ? nodeAtPlace(model, this.selectedLine) : null;
    this.sendInit();
    this.find.rerun();
  }

  /** Opens file `index` of the session's files (the header's `usage.files`; 0 is this file) in the viewer. */
  private async openSessionFile(index: number): Promise<void> {
    const model = this.model;
    if (!model || !this.host.openTrace) return;
    const file = (await sessionFilesOf(model))[index - 1];
    if (file) this.host.openTrace(file.path);
  }

  /** Opens the line in the text editor: of the trace, or of its session's file `file` (TraceModel.parts). */
  private revealInTextEditor(line: number, file?: number): void {
    if (file === undefined) return this.host.revealInTextEditor(line);
    const part = this.model?.parts?.[file];
    if (part) this.host.revealInTextEditor(line, part.path);
  }

  /** Opens the file of the session this one was forked from, when it is beside this one (the header's `origin`). */
  private async openOriginFile(): Promise<void> {
    const model = this.model;
    if (!model || !this.host.openTrace) return;
    const file = (await sessionSummaryOrigin(model))?.file;
    if (file) this.host.openTrace(file);
  }

  /** Stops work scheduled for later (the panel closed). */
  dispose(): void {
    this.disposed = true;
    this.header.dispose();
  }

  /** The file changed on disk in a way that needs saying (deleted, rewritten, unreadable). */
  setFileState(state: FileState, message: string | null): void {
    this.fileState = state;
    this.fileMessage = message;
    this.post({ type: 'fileState', state, message });
  }

  /** Shows a fatal problem in place of the tree (with actions); a later model replaces it. */
  setError(message: string, actions: ErrorMessage['actions']): void {
    this.error = { type: 'error', message, actions };
    this.post(this.error);
  }

  /** Records and shows a verification or conformance result (badges, header, Checks list). */
  setCheckResults(mode: CheckMode, result: CheckResult): void {
    const summary = this.findings.setResult(mode, result);
    this.post({ type: 'checkResults', summary, findings: this.findings.resultOf(mode)!.findings });
    this.post({ type: 'loadFindings', findings: this.findings.loadFindings() });
    if (this.filter.status !== 'all' || this.filter.expr) this.applyFilter();
    this.touchRows();
    if (this.selected !== null) void this.detail.send(this.selected);
  }

  /** Says that checks were not run on open (over the size limit) and how to run them; null clears it. */
  setChecksSkipped(message: string | null): void {
    this.checksSkipped = message;
    this.post({ type: 'checksSkipped', message });
  }

  /** Says the check results are outdated (the trace grew since they ran) until new ones arrive. */
  markChecksStale(): void {
    for (const mode of this.findings.markStale()) {
      const r = this.findings.resultOf(mode)!;
      this.post({ type: 'checkResults', summary: r.summary, findings: r.findings });
    }
  }

  /** Forgets check results (after a rewrite their lines mean something else). */
  clearCheckResults(): void {
    this.findings.clearResults();
  }

  /** Reveals and selects the event on a 1-based line. */
  revealLine(line: number): void {
    if (!this.model) return;
    const node = nodeAtLine(this.model, line) ?? nearestNodeBefore(this.model, line);
    if (node !== null) this.revealNode(node, true);
  }

  /** Opens the webview's find bar. */
  focusFind(): void {
    this.post({ type: 'focusFind' });
  }

  /** The webview (re)started: it is dropped until it says `ready`. */
  webviewReset(): void {
    this.ready = false;
  }

  /** Handles one validated message from the webview. */
  async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        return this.onReady(msg.state);
      case 'requestRows':
        return this.sendRows(msg.start, msg.count);
      case 'rowsShown':
        return msg.modelVersion === this.modelVersion ? this.header.afterRows() : undefined;
      case 'toggle':
        return this.onToggle(msg.node, msg.expand, msg.recursive === true);
      case 'setCompactChains':
        return this.setCompact(msg.compact);
      case 'setShowBookkeeping':
        return this.setShowBookkeeping(msg.show);
      case 'layoutChanged':
        return this.host.layout?.set(msg.layout);
      case 'expandAll':
        this.rows?.expandAll();
        this.expansion.touch(true);
        return this.sendRowsState();
      case 'collapseAll':
        this.rows?.collapseAll();
        this.expansion.touch();
        return this.sendRowsState();
      case 'select':
        return this.select(msg.node);
      case 'revealNode':
        return this.revealNode(msg.node, msg.select);
      case 'revealLine':
        return this.revealLine(msg.line);
      case 'find':
        return this.find.start(msg.query, msg.caseSensitive, true, msg.regex ?? false);
      case 'findStep':
        return this.find.step(msg.direction, this.selected);
      case 'setFilter':
        this.filter = msg.filter;
        this.applyFilter();
        return this.sendRowsState();
      case 'viewport':
        this.topLine = msg.topLine;
        return;
      case 'resolveId':
        return this.detail.resolveId(msg.requestId, msg.id);
      case 'requestBlob':
        return this.detail.requestBlob(msg.requestId, msg.digest, msg.algorithm);
      case 'requestTranscript':
        return this.transcript.request(msg);
      case 'requestEarlierMessages':
        return this.transcript.earlier(msg);
      case 'revealInTextEditor':
        return this.revealInTextEditor(msg.line, msg.file);
      case 'copy':
      case 'openExternal':
      case 'runChecks':
      case 'openBlob':
      case 'reload':
      case 'openAsText':
        return forwardToHost(this.host, msg);
      case 'openSessionFile':
        return void this.openSessionFile(msg.index);
      case 'openOriginFile':
        return void this.openOriginFile();
      case 'requestTimeline':
        return this.timeline.request(msg);
      case 'requestStatistics':
        return this.timeline.statistics();
      default:
        return assertNever(msg);
    }
  }

  private onReady(state: PersistedViewState | null): void {
    this.ready = true;
    if (state && !this.restored) this.restore(state);
    this.restored = true;
    if (this.error) return this.post(this.error);
    if (!this.model) {
      if (this.loading) this.post(this.loading);
      return;
    }
    this.applyFilter();
    this.sendInit();
    this.find.resend();
  }

  /** First `ready` of a restored editor: take the webview's saved state as the starting point. */
  private restore(state: PersistedViewState): void {
    this.selectedLine = state.selectedLine;
    this.topLine = state.topLine;
    this.filter = state.filter ?? NO_FILTER;
    this.compact = state.compactChains ?? null;
    this.showBookkeeping = state.showBookkeeping ?? null;
    this.expansion.restore(state);
    if (this.model && this.rows) {
      this.selected = this.selectedLine !== null ? nodeAtPlace(this.model, this.selectedLine) : null;
      this.rows = this.projection(this.model, this.hideWanted(this.filterActive()));
      this.expansion.apply(this.model, this.rows);
    }
    if (state.findQuery) void this.find.start(state.findQuery, false, false);
  }

  private sendInit(): void {
    const model = this.model!;
    const rows = this.rows!;
    if (this.selected === null && !this.autoSelected && rows.size > 0) {
      this.autoSelected = true;
      this.selected = firstMeaningfulNode(model, rows);
      this.selectedLine = placeOfNode(model, this.selected);
    }
    const topNode = this.topLine !== null ? nodeAtPlace(model, this.topLine) : null;
    const topRow = topNode !== null ? Math.max(0, rows.rowOf(topNode)) : 0;
    const facts = this.header.forInit(model, this.appending);
    this.appending = false;
    this.post({
      type: 'init',
      modelVersion: this.modelVersion,
      ...facts,
      rowsVersion: rows.version,
      totalRows: rows.size,
      selectedNode: this.selected,
      topRow,
      filter: this.filter,
      fileState: this.fileState,
      fileMessage: this.fileMessage,
      checks: this.findings.summaries(),
      compactChains: this.compactOn(model),
      bookkeeping: this.bookkeepingState(model),
      layout: this.host.layout?.get() ?? null,
    });
    this.post({ type: 'loadFindings', findings: this.findings.loadFindings() });
    if (this.checksSkipped !== null) this.post({ type: 'checksSkipped', message: this.checksSkipped });
    for (const mode of ['verify', 'check'] as const) {
      const r = this.findings.resultOf(mode);
      if (r) this.post({ type: 'checkResults', summary: r.summary, findings: r.findings });
    }
    if (this.selected !== null) void this.detail.send(this.selected);
  }

  private sendRows(start: number, count: number): void {
    if (!this.model || !this.rows) return;
    const deco = { badgeOfLine: (l: number, part?: number) => this.findings.badgeOfLine(l, part), isMatch: (n: number) => this.find.isMatch(n) };
    this.post({ type: 'rows', rowsVersion: this.rows.version, start, rows: buildRows(this.model, this.rows, start, count, deco, this.t0) });
  }

  private sendRowsState(reveal?: { row: number; node: number; select: boolean }, bookkeeping?: BookkeepingState): void {
    if (!this.rows) return;
    const exp = this.model ? this.expansion.persistable(this.model, this.rows) : { lines: null, all: false };
    this.post({ type: 'rowsState', rowsVersion: this.rows.version, totalRows: this.rows.size, ...(reveal ? { reveal } : {}), expandedLines: exp.lines, expandedAll: exp.all, ...(bookkeeping ? { bookkeeping } : {}) });
  }

  /** Row decorations changed (badges, matches): a new version makes the webview fetch its rows again. */
  private touchRows(): void {
    if (!this.rows) return;
    this.rows.version++;
    this.sendRowsState();
  }

  private compactOn(model: TraceModel): boolean {
    return this.compact ?? formatModule(model.format).linearChains === true;
  }

  /** The rows of `model` in the current view: compact or not, with or without its bookkeeping lines. */
  private projection(model: TraceModel, hideBookkeeping: boolean): RowProjection {
    this.rowsHideBookkeeping = hideBookkeeping;
    return new RowProjection(treeSourceOf(model, this.compactOn(model), hideBookkeeping));
  }

  /**
   * Whether the rows leave the bookkeeping lines out: by default yes, unless the user shows them; never while a filter
   * is on (a filter that names a bookkeeping kind, status or text finds those lines too).
   */
  private hideWanted(filtering: boolean): boolean {
    return !filtering && this.showBookkeeping !== true;
  }

  private filterActive(): boolean {
    return this.model !== null && this.rowFilter.predicate(this.model, this.filter, (l, part) => this.findings.badgeOfLine(l, part)) !== null;
  }

  private bookkeepingState(model: TraceModel): BookkeepingState {
    return { count: bookkeepingCount(model), shown: this.showBookkeeping === true };
  }

  /** Rebuilds the rows in the current view, keeping expansion, filter and selection. */
  private reproject(hideBookkeeping: boolean): void {
    const model = this.model;
    if (!model || !this.rows) return;
    this.expansion.capture(model, this.rows);
    this.rows = this.projection(model, hideBookkeeping);
    this.expansion.apply(model, this.rows);
  }

  /** Shows the bookkeeping lines as rows or folds them out, keeping expansion, filter and selection. */
  private setShowBookkeeping(show: boolean): void {
    this.showBookkeeping = show;
    if (!this.model || !this.rows) return;
    this.reproject(this.hideWanted(this.filterActive()));
    this.applyFilter();
    const row = this.selected !== null ? this.rows.reveal(this.selected) : -1;
    this.sendRowsState(row >= 0 ? { row, node: this.selected!, select: false } : undefined);
  }

  /** Switches the rows between the real tree and the compact view, keeping expansion, filter and selection. */
  private setCompact(compact: boolean): void {
    this.compact = compact;
    const model = this.model;
    if (!model || !this.rows) return;
    this.reproject(this.rowsHideBookkeeping);
    this.applyFilter();
    const row = this.selected !== null ? this.rows.reveal(this.selected) : -1;
    this.sendRowsState(row >= 0 ? { row, node: this.selected!, select: false } : undefined);
  }

  private onToggle(node: number, expand: boolean | undefined, recursive: boolean): void {
    if (!this.rows || !this.model || !validNode(this.model, node)) return;
    if (recursive) this.rows.setSubtree(node, expand ?? !this.rows.isExpanded(node));
    else if (!this.rows.toggle(node, expand)) return;
    if (!this.rows.filtered) this.expansion.touch();
    this.sendRowsState();
  }

  private select(node: number): void {
    if (!this.model || !validNode(this.model, node)) return;
    this.selected = node;
    this.selectedLine = placeOfNode(this.model, node);
    this.host.selectionChanged?.();
    void this.detail.send(node);
  }

  private revealNode(node: number, select: boolean): void {
    if (!this.model || !this.rows || !validNode(this.model, node)) return;
    let shown: BookkeepingState | undefined;
    if (this.rowsHideBookkeeping && this.rows.isLeftOut(node)) {
      // A bookkeeping line asked for by line, event, find or a link: the lines are shown rather than the ask refused.
      this.showBookkeeping = true;
      this.reproject(false);
      this.applyFilter();
      shown = this.bookkeepingState(this.model);
      this.post({ type: 'fileState', state: this.fileState, message: 'Bookkeeping lines are shown to show the event.' });
    }
    let row = this.rows.reveal(node);
    if (row < 0) {
      // The filter hides it: drop the filter rather than refuse to show what the user asked for.
      this.filter = NO_FILTER;
      this.applyFilter();
      row = this.rows.reveal(node);
      this.post({ type: 'fileState', state: this.fileState, message: 'The filter was cleared to show the event.' });
    }
    if (row < 0) return;
    if (!this.rows.filtered) this.expansion.opened();
    // Keeps the event in view when the webview is (re)loaded before it gets this message.
    this.topLine = placeOfNode(this.model, this.rows.nodeAt(Math.max(0, row - 3)));
    this.sendRowsState({ row, node, select }, shown);
    if (select) this.select(node);
  }

  private applyFilter(): void {
    if (!this.rows || !this.model) return;
    const p = this.rowFilter.predicate(this.model, this.filter, (l, part) => this.findings.badgeOfLine(l, part));
    // A filter on shows the bookkeeping lines it matches; off again, the rows fold them as the toggle says.
    const hide = this.hideWanted(p !== null);
    if (hide !== this.rowsHideBookkeeping) this.reproject(hide);
    this.rows.setFilter(p?.events ?? null, p?.malformedPass);
    this.transcript.setFilter(p?.events ?? null);
    this.timeline.setFilter(p?.events ?? null);
  }

  private post(msg: HostMessage): void {
    // A detail read after the panel closed (the one opened on, still loading) goes nowhere.
    if (this.ready && !this.disposed) this.host.post(msg);
  }
}

/**
 * The node a trace opens on: the first row that is an event and not the writer's bookkeeping (formats.ts
 * bookkeepingCategory, the timeline's rule too), looked for among the first rows only; else the first row.
 */
export function firstMeaningfulNode(model: TraceModel, rows: RowProjection): number {
  const t = model.events;
  const bookkeeping = bookkeepingCategory(model.format, EVENT_CATEGORIES);
  const cats = t.codesOf('category');
  for (let r = 0; r < Math.min(rows.size, 2000); r++) {
    const node = rows.nodeAt(r);
    if (node >= 0 && cats[node] !== bookkeeping) return node;
  }
  return rows.nodeAt(0);
}

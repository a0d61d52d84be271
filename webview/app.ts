/**
 * The viewer app: lays out header, toolbar, find and filter bars, the tree, the Checks list and the detail
 * pane; hands host messages to hostMessages.ts (the exhaustive switch) and moving between events to
 * navigation.ts, and keeps the view state for hide/show and restarts.
 */
import type { BlobContentMessage, DetailTab, EventDetail, FileState, HeaderMessage, HostMessage, InitMessage, PersistedViewState, RowFilter } from '../src/protocol';
import type { HashRef } from '../src/core/model';
import { loadState, post, saveState } from './api';
import { FileBanner } from './banner';
import { ChecksPanel } from './checksPanel';
import { CompactToggle } from './compactToggle';
import { BookkeepingToggle } from './bookkeepingToggle';
import { DetailPane } from './detailPane';
import { el, toolbarButton } from './dom';
import { FilterBar } from './filterBar';
import { FindBar } from './findBar';
import { findMatcher, highlightMatches } from './findHighlight';
import { formatBytes } from './format';
import { Header } from './header';
import { IdLinks } from './idLinks';
import { MainViews } from './mainViews';
import { type MessageTargets, routeHostMessage } from './hostMessages';
import { Navigation } from './navigation';
import { Requests } from './requests';
import { TranscriptView } from './transcript/transcriptView';
import { PaneLayout } from './paneLayout';
import { StatisticsView } from './statisticsView';
import { StatusAction, StatusView } from './statusView';
import { TimelineView } from './timelineView';
import { TreeView } from './treeView';

const DEFAULT_STATE: PersistedViewState = {
  selectedLine: null, topLine: null, expandedLines: null, expandedAll: false, detailTab: 'content', splitPosition: null,
  findQuery: '', filter: { kinds: [], status: 'all' }, showChecks: false, contentRaw: false,
};

/** See the file comment. */
export class App implements MessageTargets {
  private state: PersistedViewState = { ...DEFAULT_STATE, ...(loadState() ?? {}) };
  readonly header = new Header({ revealLine: (l) => this.nav.revealLine(l), showChecks: () => this.setChecksVisible(true), runChecks: (mode) => post({ type: 'runChecks', mode }), openSessionFile: (index) => post({ type: 'openSessionFile', index }), openOriginFile: () => post({ type: 'openOriginFile' }) });
  private readonly banner = new FileBanner();
  readonly tree = new TreeView({
    requestRows: (start, count) => post({ type: 'requestRows', rowsVersion: this.tree.cache.version, start, count }),
    toggle: (node, expand, recursive) => post({ type: 'toggle', node, expand, recursive }),
    select: (node) => this.select(node),
    revealNode: (node, select) => post({ type: 'revealNode', node, select }),
    viewport: (topLine) => {
      this.persist({ topLine });
      post({ type: 'viewport', topLine });
    },
    idLink: (a, id) => this.idLinks.attach(a, id),
  });
  /** Requests answered by id (hover cards, blobs, transcript pages, timeline slices): see webview/requests.ts. */
  readonly requests = new Requests(post);
  readonly idLinks = new IdLinks((id, onReply) => this.requests.send({ type: 'resolveId', id }, onReply), (t) => this.nav.jump(t.node));
  readonly nav = new Navigation(this.tree, () => this.detail.current);
  private idSet: { of: EventDetail | null; ids: Set<string> } = { of: null, ids: new Set() };
  readonly detail: DetailPane;
  readonly find = new FindBar({
    find: (query, caseSensitive, regex) => {
      this.tree.findQuery = query;
      this.persist({ findQuery: query });
      post({ type: 'find', query, caseSensitive, regex });
      this.highlightFind();
    },
    reveal: (node) => {
      this.findStepped = true;
      post({ type: 'revealNode', node, select: true });
    },
    step: (direction) => {
      this.findStepped = true;
      post({ type: 'findStep', direction });
    },
    closed: () => {
      this.tree.focus();
      this.highlightFind();
    },
  });
  /** Find moved to a match: the next detail is its event, whose first match the transcript brings into view. */
  private findStepped = false;
  private readonly filter = new FilterBar((f) => this.setFilter(f));
  readonly checks = new ChecksPanel((line) => this.nav.revealLine(line), () => this.setChecksVisible(false), (mode) => post({ type: 'runChecks', mode }));
  readonly timeline = new TimelineView({
    request: (start, count, node, density, collapsed, onReply) => this.requests.send({ type: 'requestTimeline', start, count, node, ...(density ? { density } : {}), ...(collapsed.length > 0 ? { collapsed } : {}) }, onReply),
    reveal: (node) => this.nav.jump(node),
  });
  readonly statistics = new StatisticsView({ request: () => post({ type: 'requestStatistics' }), reveal: (node) => this.nav.jump(node) });
  private readonly main = el('div', { class: 'main' });
  /** Tree | Transcript | … in the left pane; other views add themselves with `mainViews.add`. */
  readonly mainViews = new MainViews(this.state.mainView ?? 'tree', (mainView) => this.persist({ mainView }));
  private panes!: PaneLayout;
  private split!: HTMLElement;
  private toolbar: HTMLElement | undefined;
  private readonly status = new StatusView();
  modelVersion = 0;
  /** The model whose init came with its header still counting, until its first rows are drawn (see onRowsDrawn). */
  private countingVersion: number | null = null;
  private opened = false;
  private readonly compact = new CompactToggle((compact) => {
    this.persist({ compactChains: compact });
    post({ type: 'setCompactChains', compact });
  });
  readonly bookkeeping = new BookkeepingToggle((show) => {
    this.persist({ showBookkeeping: show });
    post({ type: 'setShowBookkeeping', show });
  });
  /** The Transcript view; find marks it through `highlight(re)`, the host narrows its pages by the filter. */
  transcript!: TranscriptView;

  constructor(private readonly root: HTMLElement) {
    this.detail = new DetailPane({
      ...this.contentHost(),
      revealNode: (node) => this.nav.jump(node),
      revealLine: (line) => this.nav.revealLine(line),
      revealInTextEditor: (line, file) => post(file === undefined ? { type: 'revealInTextEditor', line } : { type: 'revealInTextEditor', line, file }),
      openSessionFile: (index) => post({ type: 'openSessionFile', index }),
      idLink: (id) => this.idLinks.link(id),
      decorateValue: (_key, value, span) => {
        if (typeof value === 'string' && this.idsOfDetail().has(value)) this.idLinks.attach(span, value);
      },
      tabChanged: (detailTab: DetailTab) => this.persist({ detailTab }),
      rawChanged: (contentRaw) => this.persist({ contentRaw }),
    });
    this.transcript = this.makeTranscript();
    this.detail.setTab(this.state.detailTab);
    this.detail.setRaw(this.state.contentRaw);
    this.layout();
    this.showStatus('loading', 'Opening the trace…');
    document.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('message', (e) => routeHostMessage(this, e.data as HostMessage));
    post({ type: 'ready', state: loadState() });
  }

  /** What the detail pane and the transcript both ask of the host: clipboard, links and content blobs. */
  private contentHost() {
    return {
      copy: (text: string) => post({ type: 'copy', text }),
      openLink: (url: string) => post({ type: 'openExternal', url }),
      requestBlob: (ref: HashRef, onAnswer: (m: BlobContentMessage) => void) => {
        this.requests.send({ type: 'requestBlob', digest: ref.digest, algorithm: ref.algorithm }, onAnswer);
      },
      openBlob: (ref: HashRef) => post({ type: 'openBlob', digest: ref.digest, algorithm: ref.algorithm }),
    };
  }

  /** The Transcript view: its blobs load as the Content tab's do; a block selects its event, its line opens the Tree. */
  private makeTranscript(): TranscriptView {
    return new TranscriptView({
      ...this.contentHost(),
      select: (node) => {
        this.tree.selectedNode = node;
        post({ type: 'revealNode', node, select: true });
      },
      request: (start, count, aroundNode, onReply) => this.requests.send({ type: 'requestTranscript', start, count, ...(aroundNode !== undefined ? { aroundNode } : {}) }, onReply),
      requestEarlier: (node, onReply) => this.requests.send({ type: 'requestEarlierMessages', node }, onReply),
      reveal: (node) => {
        this.mainViews.show('tree');
        this.nav.jump(node);
      },
    });
  }

  private layout(): void {
    const toolbar = (this.toolbar = el(
      'div',
      { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Viewer actions' } },
      toolbarButton('expand-all', 'Expand All', () => post({ type: 'expandAll' })),
      toolbarButton('collapse-all', 'Collapse All', () => post({ type: 'collapseAll' })),
      this.compact.element,
      toolbarButton('search', 'Find (Ctrl+F)', () => this.find.open()),
      toolbarButton('filter', 'Filter by Kind or Status', () => this.toggleFilterBar()),
      toolbarButton('checklist', 'Show Checks', () => this.setChecksVisible(this.checks.element.hidden)),
      needsEditor(toolbarButton('verified', 'Verify Chain', () => post({ type: 'runChecks', mode: 'verify' }))),
      needsEditor(toolbarButton('law', 'Check Conformance', () => post({ type: 'runChecks', mode: 'check' }))),
      needsEditor(toolbarButton('go-to-file', 'Open as Text', () => post({ type: 'openAsText' }))),
    ));
    const hidden = { 'aria-hidden': 'true' };
    const columns = el('div', { class: 'tree-columns' }, el('span', { class: 'col-event', text: 'Event', attrs: hidden }), el('span', { class: 'col col-duration', text: 'Duration', attrs: hidden }), el('span', { class: 'col col-tokens', text: 'Tokens', attrs: hidden }), el('span', { class: 'col col-offset', text: 'Time', attrs: hidden }));
    this.mainViews.add({ id: 'tree', title: 'Tree', element: el('div', { class: 'main-tree-view' }, columns, this.tree.element, this.bookkeeping.note) });
    const t = this.transcript;
    this.mainViews.add({ id: 'transcript', title: 'Transcript', element: t.element, onShow: () => t.show(), onHide: () => t.hide(), onSelect: (node) => t.select(node) });
    this.mainViews.add({ id: 'timeline', title: 'Timeline', element: this.timeline.element, onShow: () => this.timeline.onShow(), onHide: () => this.timeline.onHide(), onSelect: (node) => this.timeline.onSelect(node) });
    this.mainViews.add({ id: 'statistics', title: 'Statistics', element: this.statistics.element, onShow: () => this.statistics.onShow(), onHide: () => this.statistics.onHide() });
    this.panes = new PaneLayout(columns, [this.mainViews.element, this.checks.element], [this.nav.navBar.element, this.detail.element], { splitPosition: this.state.splitPosition, eventColumnWidth: this.state.eventColumnWidth ?? null }, (patch) => {
      this.persist(patch);
      post({ type: 'layoutChanged', layout: this.panes.sizes() });
    });
    this.split = this.panes.element;
    this.main.append(this.split, this.status.element);
    // Tab order is the reading order: the tree, the detail pane, then the header, toolbar and bars (CSS
    // `order` still draws those above the tree).
    const top = el('div', { class: 'top' }, this.header.element, toolbar);
    // A narrow header flows around the toolbar (styles.css): it keeps room for the toolbar's width.
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => top.style.setProperty('--toolbar-width', `${toolbar.offsetWidth}px`)).observe(toolbar);
    this.root.append(this.main, top, this.banner.element, this.find.element, this.find.results, this.filter.element);
    if (this.state.showChecks) this.setChecksVisible(true);
    if (this.state.filter.kinds.length > 0 || this.state.filter.status !== 'all' || (this.state.filter.expr ?? '') !== '') this.filter.element.hidden = false;
    this.filter.set(this.state.filter);
    if (this.state.findQuery) {
      this.find.open(this.state.findQuery);
      this.tree.findQuery = this.state.findQuery;
    }
  }

  onLoading(fileName: string, bytesRead: number, fileSize: number): void {
    if (this.modelVersion > 0) return this.setBanner('loading', `Indexing ${fileName}: ${formatBytes(bytesRead)} of ${formatBytes(fileSize)}…`);
    this.showStatus('loading', `Indexing ${fileName}: ${formatBytes(bytesRead)} of ${formatBytes(fileSize)}`, fileSize > 0 ? bytesRead / fileSize : undefined);
  }

  onInit(m: InitMessage): void {
    this.modelVersion = m.modelVersion;
    this.transcript.reset(m.modelVersion);
    this.timeline.reset(m.modelVersion);
    this.statistics.reset(m.modelVersion);
    this.idLinks.reset();
    this.status.hide();
    this.split.hidden = false;
    this.setToolbarUsable(true);
    this.header.setInfo(m.header);
    this.countingVersion = m.header.counting === true ? m.modelVersion : null;
    this.panes.showColumns(m.header.columns);
    this.header.resetChecks(m.checks);
    if (m.checks.length === 0) this.checks.clearResults();
    this.compact.show(m.compactChains);
    this.bookkeeping.show(m.bookkeeping ?? { count: 0, shown: false });
    // A viewer never resized starts from the sizes last used in this workspace.
    if (!this.opened && m.layout && this.state.splitPosition === null && (this.state.eventColumnWidth ?? null) === null) this.panes.apply(m.layout);
    this.filter.setKinds(m.kinds);
    this.filter.setValues(m.filterValues ?? {});
    this.filter.set(m.filter);
    this.tree.selectedNode = m.selectedNode;
    // A live append keeps the rows on screen until their new versions arrive.
    this.tree.reset(m.rowsVersion, m.totalRows, m.fileState === 'appended');
    this.tree.scrollToRow(m.topRow);
    // The focus follows the selection into the new rows; with nothing selected it starts at the top only on open.
    if (!this.opened || m.selectedNode !== null) this.tree.focusSelection();
    // Opening a trace puts the keyboard in the tree (not on the page body, eleven Tabs away), but only once the
    // panel has the focus: focusing a webview that does not have it would take it from the palette or the editor
    // the user is typing in.
    if (!this.opened && m.totalRows > 0) this.focusTreeWhenFocused();
    this.opened = true;
    this.setBanner(m.fileState, m.fileMessage);
    if (m.selectedNode === null) this.detail.showEmpty(m.totalRows === 0 ? 'This trace has no events.' : 'Select an event to see its details.');
    if (m.selectedNode === null) this.nav.shown(null);
    if (m.totalRows === 0) this.showStatus('empty', 'This file holds no events (it is empty or only blank lines).');
  }

  /** The first rows of a model whose header is still counting are drawn: the host counts its totals now. */
  onRowsDrawn(): void {
    if (this.countingVersion !== this.modelVersion) return;
    this.countingVersion = null;
    post({ type: 'rowsShown', modelVersion: this.modelVersion });
  }

  /** The whole header: after the first rows of a large trace, or after an append shown with the previous one. */
  onHeader(m: HeaderMessage): void {
    this.countingVersion = null;
    this.header.setInfo(m.header);
    this.panes.showColumns(m.header.columns);
    this.filter.setKinds(m.kinds);
    this.filter.setValues(m.filterValues);
  }

  /** Focuses the tree now if the panel has the focus, else the first time it gets it with nothing focused inside. */
  private focusTreeWhenFocused(): void {
    if (document.hasFocus()) return this.tree.focus();
    window.addEventListener('focus', () => {
      if (document.activeElement === null || document.activeElement === document.body) this.tree.focus();
    }, { once: true });
  }

  private select(node: number): void {
    this.tree.selectedNode = node;
    post({ type: 'select', node });
  }

  /** Marks the find query in the detail pane while the find bar is open. */
  highlightFind(): void {
    const q = this.find.isOpen ? this.find.query : '';
    const query = { query: q, caseSensitive: this.find.caseSensitive, regex: this.find.regex };
    highlightMatches(this.detail.element, query);
    this.transcript?.highlight(findMatcher(query));
  }

  private setFilter(f: RowFilter): void {
    this.persist({ filter: f });
    post({ type: 'setFilter', filter: f });
  }

  /** Opens the filter bar with the caret in its expression box, or closes it (clearing the filter). */
  private toggleFilterBar(): void {
    this.filter.element.hidden = !this.filter.element.hidden;
    if (this.filter.element.hidden && this.filter.active) this.filter.set({ kinds: [], status: 'all' }, true);
    if (!this.filter.element.hidden) this.filter.box.focus();
  }

  private setChecksVisible(show: boolean): void {
    this.checks.element.hidden = !show;
    this.persist({ showChecks: show });
  }

  setBanner(state: FileState, message: string | null): void {
    this.banner.set(state, message);
  }

  private showStatus(kind: 'loading' | 'empty', text: string, fraction?: number): void {
    this.split.hidden = kind === 'loading' && this.modelVersion === 0;
    this.status.show(kind, text, fraction);
  }

  showError(message: string, actions: StatusAction[]): void {
    this.split.hidden = true;
    this.status.showError(message, actions);
    this.setToolbarUsable(false);
  }

  /**
   * With no trace shown (a refused or unreadable file) only Open as Text can work: the other buttons are disabled
   * (and skipped by Tab) until a model arrives.
   */
  private setToolbarUsable(usable: boolean): void {
    for (const b of Array.from(this.toolbar?.querySelectorAll('vscode-toolbar-button') ?? [])) {
      if (usable || b.getAttribute('label') === 'Open as Text') b.removeAttribute('disabled');
      else b.setAttribute('disabled', '');
    }
  }

  private onKey(e: KeyboardEvent): void {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.altKey && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      this.find.open();
    } else if (e.key === 'F3') {
      e.preventDefault();
      post({ type: 'findStep', direction: e.shiftKey ? -1 : 1 });
    } else this.nav.altKey(e);
  }

  /** A blob's content: to the view that asked; a find match inside it is marked now (it arrives after the detail). */
  onBlob(m: BlobContentMessage): void {
    this.requests.answer(m);
    this.highlightFind();
  }

  takeFindStep(): boolean {
    const stepped = this.findStepped;
    this.findStepped = false;
    return stepped;
  }

  /** The id values of the event shown (JSON values that are links), as a set built once per detail. */
  private idsOfDetail(): Set<string> {
    const d = this.detail.current;
    if (this.idSet.of !== d) this.idSet = { of: d, ids: new Set(d?.nav?.ids ?? []) };
    return this.idSet.ids;
  }

  persist(patch: Partial<PersistedViewState>): void {
    this.state = { ...this.state, ...patch };
    saveState(this.state);
  }
}

/**
 * A control that only an editor can carry out (re-run checks, open the file as text): the offline report, whose
 * results are those of its export and which has no editor, does not show it (styles.css, `.atv-report`).
 */
function needsEditor(button: HTMLElement): HTMLElement {
  button.dataset.needsEditor = '';
  return button;
}

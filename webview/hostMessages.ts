/**
 * The host's messages to the viewer, routed to the view each is for: one exhaustive switch over the union (a new
 * message type does not compile until it is handled here).
 */
import type { BlobContentMessage, BookkeepingState, DetailMessage, FileState, HeaderMessage, HostMessage, InitMessage, PersistedViewState } from '../src/protocol';
import type { ChecksPanel } from './checksPanel';
import type { DetailPane } from './detailPane';
import type { FindBar } from './findBar';
import type { Header } from './header';
import type { IdLinks } from './idLinks';
import type { Requests } from './requests';
import type { MainViews } from './mainViews';
import type { Navigation } from './navigation';
import type { StatisticsView } from './statisticsView';
import type { StatusAction } from './statusView';
import type { TimelineView } from './timelineView';
import type { TranscriptView } from './transcript/transcriptView';
import type { TreeView } from './treeView';

/** What the messages act on: the app's views and the app's own steps. */
export interface MessageTargets {
  readonly tree: TreeView;
  readonly bookkeeping: { show(state: BookkeepingState): void };
  readonly detail: DetailPane;
  readonly find: FindBar;
  readonly header: Header;
  readonly checks: ChecksPanel;
  readonly idLinks: IdLinks;
  /** Requests answered by id: their replies go to the view that asked. */
  readonly requests: Requests;
  readonly transcript: TranscriptView;
  readonly timeline: TimelineView;
  readonly statistics: StatisticsView;
  readonly mainViews: MainViews;
  readonly nav: Navigation;
  /** The version of the model shown: answers about another are dropped. */
  readonly modelVersion: number;
  onLoading(fileName: string, bytesRead: number, fileSize: number): void;
  onInit(m: InitMessage): void;
  /** The header's complete facts (after an init whose header was still counting, or after an append). */
  onHeader(m: HeaderMessage): void;
  /** Rows of the model shown were drawn on screen. */
  onRowsDrawn(): void;
  onBlob(m: BlobContentMessage): void;
  /** Find moved to a match: true once, for the detail that follows (its first match is brought into view). */
  takeFindStep(): boolean;
  persist(patch: Partial<PersistedViewState>): void;
  setBanner(state: FileState, message: string | null): void;
  showError(message: string, actions: StatusAction[]): void;
  highlightFind(): void;
}

/** Hands one host message to the view it is for. */
export function routeHostMessage(t: MessageTargets, m: HostMessage): void {
  switch (m.type) {
    case 'loading':
      return t.onLoading(m.fileName, m.bytesRead, m.fileSize);
    case 'init':
      return t.onInit(m);
    case 'header':
      return m.modelVersion === t.modelVersion ? t.onHeader(m) : undefined;
    case 'rowsState':
      t.tree.reset(m.rowsVersion, m.totalRows);
      t.persist({ expandedLines: m.expandedLines, expandedAll: m.expandedAll });
      // Shown to reveal a bookkeeping line: the toolbar's toggle and the saved state follow.
      if (m.bookkeeping) {
        t.bookkeeping.show(m.bookkeeping);
        t.persist({ showBookkeeping: m.bookkeeping.shown });
      }
      if (m.reveal) {
        t.tree.reveal(m.reveal.row);
        if (m.reveal.select) t.tree.selectedNode = m.reveal.node;
      }
      return;
    case 'rows':
      return t.tree.put(m.rowsVersion, m.start, m.rows) ? t.onRowsDrawn() : undefined;
    case 'detail':
      return showDetail(t, m);
    case 'detailError':
      return t.detail.showError(m.message);
    case 'findResults':
      return t.find.update(m);
    case 'fileState':
      return t.setBanner(m.state, m.message);
    case 'checkResults':
      t.header.setCheck(m.summary);
      return t.checks.setResult(m.summary, m.findings);
    case 'loadFindings':
      return t.checks.setLoad(m.findings);
    case 'checksSkipped':
      return t.header.setSkipped(m.message);
    case 'idInfo':
    case 'transcriptPage':
    case 'earlierMessages':
    case 'timeline':
      return void t.requests.answer(m);
    case 'blobContent':
      return t.onBlob(m);
    case 'focusFind':
      return t.find.open();
    case 'error':
      return t.showError(m.message, m.actions);
    case 'transcriptReset':
      return m.modelVersion === t.modelVersion ? t.transcript.reset(m.modelVersion) : undefined;
    case 'timelineReset':
      return m.modelVersion === t.modelVersion ? t.timeline.refresh() : undefined;
    case 'statistics':
      return t.statistics.put(m);
    default:
      return assertNever(m);
  }
}

/** The selected event's detail: shown in the pane, followed by the main views, the history and the nav bar. */
function showDetail(t: MessageTargets, m: DetailMessage): void {
  if (m.modelVersion !== t.modelVersion || m.detail.node !== t.tree.selectedNode) return;
  // A subagent's event read with the session is saved by its place (its file and line), as the host finds it.
  t.persist({ selectedLine: m.detail.file ? m.detail.file.place ?? null : m.detail.line });
  // A different event starts at the top of the pane (a re-sent detail of the same one keeps its place).
  if (t.detail.current?.node !== m.detail.node && t.detail.element.parentElement) t.detail.element.parentElement.scrollTop = 0;
  t.detail.show(m.detail);
  t.mainViews.select(m.detail.node);
  t.highlightFind();
  if (t.takeFindStep()) t.transcript.revealMatch(m.detail.node);
  t.nav.shown(m.detail);
}

function assertNever(x: never): never {
  throw new Error(`unhandled message ${JSON.stringify(x)}`);
}

/**
 * The messages the trace viewer's webview sends to the extension host (the other half of `index.ts`, which
 * re-exports them). The host validates each one (`validate.ts`) before acting on it.
 */
import type { CheckMode } from '../core/catalog/checkMode';
import type { HashRef } from '../core/model';
import type { RequestStatisticsMessage, RequestTimelineMessage } from './timeline';
import type { RowFilter, PersistedViewState, ViewerLayout } from './types';
import type { RequestEarlierMessagesMessage, RequestTranscriptMessage } from './transcript';

/** The webview started (or was re-shown) and restored this state; the host answers with `init`. */
export interface ReadyMessage {
  type: 'ready';
  state: PersistedViewState | null;
}

/** Asks for rows [start, start + count) of projection `rowsVersion`. */
export interface RequestRowsMessage {
  type: 'requestRows';
  rowsVersion: number;
  start: number;
  count: number;
}

/**
 * The webview drew its first rows of model `modelVersion`, whose `init` said the header was still counting: the
 * host counts the totals now. (Counted as soon as the rows message was posted, the count held that message back in
 * the extension host: a 1M-event trace's rows came up about 0.3 s later.)
 */
export interface RowsShownMessage {
  type: 'rowsShown';
  modelVersion: number;
}

/** Expands or collapses one node (`expand` omitted = toggle); `recursive` applies to its whole subtree. */
export interface ToggleMessage {
  type: 'toggle';
  node: number;
  expand?: boolean;
  recursive?: boolean;
}

/** Shows the writer's bookkeeping lines as rows or folds them out of the tree (selection and expansion stay). */
export interface SetShowBookkeepingMessage {
  type: 'setShowBookkeeping';
  show: boolean;
}

/** Turns the compact view of linear parent chains on or off (rows change; selection and expansion stay). */
export interface SetCompactChainsMessage {
  type: 'setCompactChains';
  compact: boolean;
}

/** The user resized the panes; the host remembers the sizes for the workspace's next viewers. */
export interface LayoutChangedMessage {
  type: 'layoutChanged';
  layout: ViewerLayout;
}

/** Expands every row. */
export interface ExpandAllMessage {
  type: 'expandAll';
}

/** Collapses every row to the roots. */
export interface CollapseAllMessage {
  type: 'collapseAll';
}

/** The user selected a row; the host answers with `detail`. */
export interface SelectMessage {
  type: 'select';
  node: number;
}

/** Reveals a node (expanding its ancestors) and focuses it; selects it when `select`. */
export interface RevealNodeMessage {
  type: 'revealNode';
  node: number;
  select: boolean;
}

/** Reveals and selects the event on a 1-based line (Checks list, links). */
export interface RevealLineMessage {
  type: 'revealLine';
  line: number;
}

/** Starts find-in-trace over labels and the events' text; an empty query clears it. */
export interface FindMessage {
  type: 'find';
  query: string;
  caseSensitive: boolean;
  /** The query is a regular expression. */
  regex?: boolean;
}

/** Moves to the next (1) or previous (-1) match, revealing and selecting it. */
export interface FindStepMessage {
  type: 'findStep';
  direction: 1 | -1;
}

/** Shows only rows that pass the filter (plus their ancestors). */
export interface SetFilterMessage {
  type: 'setFilter';
  filter: RowFilter;
}

/** The first row in view changed (debounced); the host keeps the position across reloads and hide/show. */
export interface ViewportMessage {
  type: 'viewport';
  topLine: number | null;
}

/** Opens the file in the text editor at a line. */
export interface RevealInTextEditorMessage {
  type: 'revealInTextEditor';
  line: number;
  /** A line of the session's file `file` (EventDetail.file's index), not of the trace's own. */
  file?: number;
}

/** Copies text to the clipboard (the webview's own clipboard access is unreliable). */
export interface CopyMessage {
  type: 'copy';
  text: string;
}

/** Opens an http(s) link from rendered markdown in the browser, after the host checks its scheme. */
export interface OpenExternalMessage {
  type: 'openExternal';
  url: string;
}

/** Runs the chain verification or the conformance checks on this file. */
export interface RunChecksMessage {
  type: 'runChecks';
  mode: CheckMode;
}

/** Asks what an id names (hover cards); answered with `idInfo`. */
export interface ResolveIdMessage {
  type: 'resolveId';
  requestId: number;
  id: string;
}

/** Asks for a content blob's preview and integrity; answered with `blobContent`. */
export interface RequestBlobMessage {
  type: 'requestBlob';
  requestId: number;
  digest: string;
  algorithm: HashRef['algorithm'];
}

/** Opens a content blob read-only in a normal editor tab. */
export interface OpenBlobMessage {
  type: 'openBlob';
  digest: string;
  algorithm: HashRef['algorithm'];
}

/** Reloads the file from disk (after a rewrite, a deletion or a cancelled read). */
export interface ReloadMessage {
  type: 'reload';
  /** Read the file even when it is over the size limit. */
  ignoreSizeLimit?: boolean;
}

/**
 * Opens another file of the session in the viewer: `index` into the header's `usage.files` (1 and up: the file
 * itself is 0). The host looks the path up itself, so the webview cannot name a file.
 */
export interface OpenSessionFileMessage {
  type: 'openSessionFile';
  index: number;
}

/**
 * Opens the file of the session this one was forked from (the header's `origin`), when it is beside this one. The
 * host looks the path up itself, so the webview cannot name a file.
 */
export interface OpenOriginFileMessage {
  type: 'openOriginFile';
}

/** Reopens the file in the text editor. */
export interface OpenAsTextMessage {
  type: 'openAsText';
}

/** Every message the webview sends to the host. */
export type WebviewMessage =
  | ReadyMessage
  | RequestRowsMessage
  | RowsShownMessage
  | ToggleMessage
  | SetCompactChainsMessage
  | SetShowBookkeepingMessage
  | LayoutChangedMessage
  | ExpandAllMessage
  | CollapseAllMessage
  | SelectMessage
  | RevealNodeMessage
  | RevealLineMessage
  | FindMessage
  | FindStepMessage
  | SetFilterMessage
  | ViewportMessage
  | RevealInTextEditorMessage
  | CopyMessage
  | OpenExternalMessage
  | RunChecksMessage
  | ResolveIdMessage
  | RequestBlobMessage
  | OpenBlobMessage
  | ReloadMessage
  | OpenAsTextMessage
  | OpenSessionFileMessage
  | OpenOriginFileMessage
  | RequestTranscriptMessage
  | RequestEarlierMessagesMessage
  | RequestTimelineMessage
  | RequestStatisticsMessage;

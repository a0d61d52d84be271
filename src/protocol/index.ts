/**
 * Every message between the extension host and the trace viewer's webview. Plain JSON only (no class
 * instances, no `vscode.Uri`): both sides switch exhaustively on `type`, and the host validates every
 * message from the webview (`validate.ts`, the messages in `requests.ts`) before acting on it.
 *
 * Node references: a row's `node` is an event index (>= 0) or, for a line that is not valid JSON, `-(k + 1)`
 * where k is the index of the malformed line. Node numbers are only meaningful for the `modelVersion` they
 * came with; lines (1-based) are stable across reloads and are what persisted state keeps.
 */
import type { StatisticsMessage, TimelineMessage, TimelineResetMessage } from './timeline';
export type { RequestStatisticsMessage, RequestTimelineMessage, StatisticsMessage, TimelineMessage, TimelineResetMessage } from './timeline';
import type {
  RowFilter,
  RowData,
  EventSummary,
  HeaderInfo,
  FileState,
  FindingView,
  CheckSummary,
  BlobState,
  ChatMessage,
  EventDetail,
  ViewerLayout,
} from './types';

export * from './types';
export * from './transcript';
export * from './tools';
export * from './requests';
import type { EarlierMessagesMessage, TranscriptPageMessage, TranscriptResetMessage } from './transcript';

/** The viewer's custom editor id (package.json `customEditors[].viewType`). */
export const VIEW_TYPE = 'agentTrace.viewer';
/**
 * The same viewer offered in "Open With…" for any JSONL file. VS Code keys custom editors by view type and
 * one contribution has one priority, so the default (trace files) and the option (any JSONL) need two.
 */
export const VIEW_TYPE_ANY_JSONL = 'agentTrace.viewer.jsonl';

// ---------------------------------------------------------------------------------------------------------
// Host → webview

/** Indexing progress; shown in the webview while the first rows are not there yet, and as a bar later. */
export interface LoadingMessage {
  type: 'loading';
  fileName: string;
  bytesRead: number;
  fileSize: number;
}

/** A (new) model is ready: header, kinds for the filter, and the row projection's size. Resets row caches. */
export interface InitMessage {
  type: 'init';
  modelVersion: number;
  header: HeaderInfo;
  kinds: string[];
  /** The trace's tools, models, categories and groups, for the filter box's completions. */
  filterValues?: Record<string, string[]>;
  rowsVersion: number;
  totalRows: number;
  /** Selection and scroll target after (re)load, carried over by line. */
  selectedNode: number | null;
  topRow: number;
  filter: RowFilter;
  /** Current file state (a reload after a rewrite says so). */
  fileState: FileState;
  fileMessage: string | null;
  /** Check summaries already known for this document. */
  checks: CheckSummary[];
  /** Rows show linear parent chains compactly (one depth, thread markers); the toolbar toggles it. */
  compactChains: boolean;
  /** The writer's bookkeeping lines: how many the trace has, and whether they are rows (the toolbar toggles it). */
  bookkeeping?: BookkeepingState;
  /** Pane sizes last used in this workspace, for a viewer whose own state has none; null when unknown. */
  layout: ViewerLayout | null;
}

/**
 * The header's complete facts, after an `init` that came with `header.counting` (totals of a large model are
 * counted once its first rows are out), or after an append shown with the header it had (live tail), with the
 * filter's kinds and values of the whole trace. Dropped by the webview when `modelVersion` is not the one shown.
 */
export interface HeaderMessage {
  type: 'header';
  modelVersion: number;
  header: HeaderInfo;
  kinds: string[];
  filterValues: Record<string, string[]>;
}

/** The visible rows changed (expand, collapse, filter, find reveal) or a row should be revealed. */
export interface RowsStateMessage {
  type: 'rowsState';
  rowsVersion: number;
  totalRows: number;
  /** Scroll this row into view and focus it; select it when `select`. */
  reveal?: { row: number; node: number; select: boolean };
  /** Expanded lines for persisted state, when few enough to keep; null = too many or default. */
  expandedLines: number[] | null;
  expandedAll: boolean;
  /** Sent when the bookkeeping lines were shown to reveal one of them (the toolbar's toggle follows). */
  bookkeeping?: BookkeepingState;
}

/**
 * The tree's bookkeeping lines (formats.ts bookkeepingCategory): `count` of them in the trace; `shown` false folds
 * them out of the rows (the default); a filter shows the ones it matches either way.
 */
export interface BookkeepingState {
  count: number;
  shown: boolean;
}

/** A page of rows answering `requestRows`. Dropped by the webview when `rowsVersion` is stale. */
export interface RowsMessage {
  type: 'rows';
  rowsVersion: number;
  start: number;
  rows: RowData[];
}

/** Details of the selected event. */
export interface DetailMessage {
  type: 'detail';
  modelVersion: number;
  detail: EventDetail;
}

/** The selected event could not be shown (file changed under it, node gone). */
export interface DetailErrorMessage {
  type: 'detailError';
  node: number;
  message: string;
}

/** Progress and outcome of find-in-trace. */
export interface FindResultsMessage {
  type: 'findResults';
  query: string;
  total: number;
  /** 1-based index of the current match, or null before stepping. */
  current: number | null;
  searching: boolean;
  /** More matches exist than were collected. */
  truncated: boolean;
  error: string | null;
  /** The first matches in tree order that pass the filter, for the result list (at most 200). */
  results?: FindResultItem[];
  /** While blobs are searched: the share read so far, 0..1. */
  progress?: number;
}

/** One entry of find's result list. */
export interface FindResultItem {
  node: number;
  line: number;
  label: string;
  /** `blob`: the match is in a content blob the event names (the snippet shows it). */
  where: 'event' | 'blob';
  /** For blob matches: the referencing field, the text around the match, and the match's place in it. */
  field?: string;
  snippet?: string;
  at?: number;
  length?: number;
}

/** The file changed on disk or could not be read; the banner says so. */
export interface FileStateMessage {
  type: 'fileState';
  state: FileState;
  message: string | null;
}

/** Verification or conformance results for the header, the Checks list and the row badges (rows are re-sent). */
export interface CheckResultsMessage {
  type: 'checkResults';
  summary: CheckSummary;
  findings: FindingView[];
}

/** Loader diagnostics (parse errors, tree problems) for the Checks list, sent with each model. */
export interface LoadFindingsMessage {
  type: 'loadFindings';
  findings: FindingView[];
}

/** Answer to `resolveId`: what an id names in this trace (hover cards, navigation). */
export interface IdInfoMessage {
  type: 'idInfo';
  requestId: number;
  id: string;
  target: EventSummary | null;
  /** `id`: the target's own id is this id; `mention`: no event has it, the target is the first to mention it. */
  via: 'id' | 'mention' | null;
  /** Events that mention the id (besides the target), up to a cap. */
  mentionedBy: EventSummary[];
  mentionedByTotal: number;
}

/** Answer to `requestBlob`: a content blob's integrity and a bounded preview. */
export interface BlobContentMessage {
  type: 'blobContent';
  requestId: number;
  digest: string;
  state: BlobState;
  /** Text preview (bounded), or null when not shown. */
  preview: string | null;
  /** The preview parsed as JSON, when it is JSON. */
  json?: unknown;
  bytes: number | null;
  expected?: string;
  actual?: string;
  message: string | null;
  /** The preview is the start of a larger blob ("Open full blob" shows all of it). */
  truncated?: boolean;
  /** Not text: `preview` is a hex dump. */
  binary?: boolean;
  language?: 'json' | 'plaintext';
  /** Where the blob was found, relative to the trace's folder when inside it. */
  path?: string;
  /** Conversation messages found in a JSON blob (message bodies, responses). */
  chat?: ChatMessage[];
}

/** Checks were not run when the trace opened (over the size limit); the header says why and how to run them. Null clears it. */
export interface ChecksSkippedMessage {
  type: 'checksSkipped';
  message: string | null;
}

/** Asks the webview to open its find bar (the editor's Find keybinding). */
export interface FocusFindMessage {
  type: 'focusFind';
}

/** A fatal problem: shown in place of the tree (never a blank panel), with actions. */
export interface ErrorMessage {
  type: 'error';
  message: string;
  /** What the user can do: reload, open as text. */
  actions: ('reload' | 'openAsText' | 'openAnyway')[];
}

/** Every message the host sends to the webview. */
export type HostMessage =
  | LoadingMessage
  | InitMessage
  | HeaderMessage
  | RowsStateMessage
  | RowsMessage
  | DetailMessage
  | DetailErrorMessage
  | FindResultsMessage
  | FileStateMessage
  | CheckResultsMessage
  | LoadFindingsMessage
  | ChecksSkippedMessage
  | IdInfoMessage
  | BlobContentMessage
  | FocusFindMessage
  | ErrorMessage
  | TranscriptPageMessage
  | TranscriptResetMessage
  | EarlierMessagesMessage
  | TimelineMessage
  | TimelineResetMessage
  | StatisticsMessage;

// ---------------------------------------------------------------------------------------------------------
// Webview → host

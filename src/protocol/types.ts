/**
 * Data shapes carried by the host <-> webview messages of src/protocol (kept apart so each file stays
 * short; src/protocol/index.ts re-exports everything here).
 */
import type { EventCategory, EventStatus, FormatName, HashRef, IdMention, Severity } from '../core/model';
import type { ShellOutcome, ToolCallView } from './tools';
import type { CheckMode } from '../core/catalog/checkMode';
import type { ContextCall } from '../core/usage/contextTypes';

// ---------------------------------------------------------------------------------------------------------
// Shared shapes

/** Which rows are shown: event kinds (empty = all) and statuses. */
export interface RowFilter {
  kinds: string[];
  /** `problems` = warnings and errors, `errors` = errors only. */
  status: 'all' | 'problems' | 'errors';
  /** An expression in the filter language (src/core/filter), joined to the above with "and". */
  expr?: string;
}

/** One visible row of the event tree, as the webview draws it. */
export interface RowData {
  node: number;
  /** 1-based line of the event in the file. */
  line: number;
  /**
   * An event of a subagent's file read with the session (TraceModel.parts): `line` is of that file, and this is
   * what the webview reports as its top line to find the row again (file and line in one number).
   */
  place?: number;
  depth: number;
  /** Parent node, -1 for roots; lets the webview move focus to the parent without asking. */
  parent: number;
  kind: string;
  category: EventCategory;
  label: string;
  status: EventStatus;
  hasChildren: boolean;
  expanded: boolean;
  durationMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  /** Milliseconds since the trace's first timestamp. */
  offsetMs: number | null;
  /** Worst finding on this event's line (loader diagnostics and check results). */
  badge?: Severity;
  /** Compact view of linear chains: the event's real parent is the row just above it (drawn as a thread). */
  chained?: boolean;
  /** The event matches the current find query. */
  match?: boolean;
  /** Shown only as the ancestor of a row that passes the filter. */
  context?: boolean;
  /** The line is not valid JSON; `label` holds the reason. */
  malformed?: boolean;
  /** Substrings of `label` that are ids known to the trace (own, parent, mentions), drawn as id links. */
  idSpans?: IdSpan[];
}

/** Where an id appears in a row label: [start, end) in UTF-16 units. */
export interface IdSpan {
  start: number;
  end: number;
  id: string;
}

/** A short description of one event, for parents, hover cards and lists. */
export interface EventSummary {
  node: number;
  line: number;
  kind: string;
  label: string;
  status: EventStatus;
  id: string | null;
  /** ISO 8601, or null when the event has no time. */
  time: string | null;
}

/** The header's facts about the whole trace. */
export interface HeaderInfo {
  fileName: string;
  /** Full path, for the tooltip. */
  filePath: string;
  format: FormatName;
  formatTitle: string;
  confidence: number;
  detectedBy: string;
  events: number;
  lines: number;
  malformedLines: number;
  fileSize: number;
  /** Distinct runs or sessions. */
  groups: number;
  /** What the format calls a group. */
  groupNoun: 'run' | 'session';
  startTime: string | null;
  endTime: string | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  toolCalls: number;
  errors: number;
  warnings: number;
  /** Format-specific totals (e.g. costUsd), by name. */
  extraTotals: Record<string, number | null>;
  /** Which metric columns any event fills: an empty column gives its room to the Event column. */
  columns: { duration: boolean; tokens: boolean; time: boolean };
  /** Only part of the file is indexed so far (a quick first look, or indexing was cancelled). */
  partial: boolean;
  cancelled: boolean;
  /**
   * Runs, tokens, cost, tool calls, errors and warnings are still being counted (zero or null here): a `header`
   * message with them follows the first rows.
   */
  counting?: boolean;
  /**
   * Cost of the run (recorded in the trace or from the price table), the priced share 0..1, completeness, the models
   * left unpriced with why, and the bundled prices' source (`@pydantic/genai-prices 0.1.8 of 2026-09-23`) (core/usage).
   */
  usage?: {
    costUsd: number | null; priced: number | null; complete: boolean; unpriced?: { model: string; reason: string }[]; priceSource?: string;
    /**
     * The session's files when it has more than this one (Claude Code subagents), each with what it adds; the
     * totals above are then the session's (core/sessionUsage.ts). Absent: the file is the whole session.
     */
    files?: { name: string; role: 'session' | 'subagent' | 'compaction'; title: string | null; inputTokens: number | null; outputTokens: number | null; costUsd: number | null; error?: string }[];
    /** Where the cost comes from, in words (`usage.explain.cost` of `summary --json`). */
    costExplained?: string;
  };
  /**
   * The session this one was forked from (`summary --json`'s `origin`): its id, the lines that copy its history
   * (shown under the first of them, not counted again), and whether its file is beside this one (`openOriginFile`).
   */
  origin?: { sessionId: string | null; inheritedEvents: number; inheritedLines: { first: number; last: number } | null; upToOrdinal: number | null; hasFile: boolean; excluded: string[] };
}

/** How the file on disk relates to what is shown. */
export type FileState =
  | 'loading'
  | 'ready'
  | 'appended'
  | 'rewritten'
  | 'truncated'
  | 'deleted'
  | 'unreadable'
  | 'cancelled'
  | 'tooLarge';

/** One verification or conformance finding, placed on its event when the line holds one. */
export interface FindingView {
  rule: string;
  severity: Severity;
  line: number;
  message: string;
  seq?: number;
  eventId?: string;
  /** Node of the event on that line in the current model, or null. */
  node: number | null;
  /** `load` = found while reading (parse errors, dangling parents), else the check mode that found it. */
  source: 'load' | CheckMode;
  /** Verification findings: what part of the integrity the rule speaks for (the Checks list groups by it). */
  cause?: 'chain' | 'sequence' | 'content' | 'structure';
}

/** The outcome of one check run, as the header and the Checks list show it. */
export interface CheckSummary {
  mode: CheckMode;
  ok: boolean;
  checked: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Line of the first error finding (where a chain breaks), or null. */
  firstErrorLine: number | null;
  cancelled: boolean;
  /** For verification: what it proves for this format and what it cannot (plain text). */
  scope?: string;
  /**
   * The trace grew after this check ran (live tail): its counts are of the events it saw, not of the trace
   * as shown, until the check runs again.
   */
  stale?: boolean;
  /** For verification: the result by cause (chain, sequence, blobs, lines and links). */
  integrity?: IntegrityView;
}

/** One part of a verification result: intact or not, and where it first fails. */
export interface IntegrityPart {
  errors: number;
  warnings: number;
  /** Line of the first error (else the first warning), or null. */
  firstLine: number | null;
}

/**
 * A verification result by cause. `chain` and `sequence` are present only for formats that have one (murmur
 * has neither); `blobs` only when the trace references blobs or a blob finding exists.
 */
export interface IntegrityView {
  chain?: IntegrityPart;
  sequence?: IntegrityPart;
  blobs?: IntegrityPart & { verified: number | null; missing: number; mismatched: number; other: number };
  /** Lines parse, ids are unique, parents resolve. */
  structure: IntegrityPart;
}

/** Integrity of a content blob (filled in by the blob resolver; `unresolved` until then). */
export type BlobState = 'unresolved' | 'verified' | 'mismatch' | 'missing' | 'unreadable' | 'tooLarge' | 'rejected' | 'unverifiable';

/** One piece of a chat message. Text is always rendered as text or sanitized markdown, never as HTML. */
export type ChatPart =
  | {
      type: 'text';
      text: string;
      /** Characters cut off the end (see the JSON and Raw tabs). */ omitted?: number;
      /**
       * Output, not prose (a tool's stdout, a field named `output`, a `tool` message's body): shown preformatted, never
       * as Markdown, highlighted as `language` when one is known (highlight.js name, e.g. `json`).
       */
      output?: { language: string | null };
    }
  | { type: 'thinking'; text: string }
  | { type: 'toolCall'; name: string; id: string | null; args: unknown; /** Transcript: how the call reads. */ view?: ToolCallView }
  | { type: 'toolResult'; id: string | null; text: string | null; value?: unknown; isError: boolean; /** Transcript: a shell call's outcome. */ shell?: ShellOutcome; /** Transcript: the call's tool name. */ toolName?: string; /** highlight.js language of `text` (a file's extension, JSON, a diff), when known. */ language?: string }
  | { type: 'json'; value: unknown }
  | { type: 'blob'; ref: HashRef; state: BlobState; preview?: string; expected?: string; actual?: string };

/** One message of a conversation, or one text field of an event shown like one. */
export interface ChatMessage {
  /** `user`, `assistant`, `system`, `tool`, or the field it came from. */
  role: string;
  /** JSON path of the message inside the event. */
  path: string;
  parts: ChatPart[];
}

/** Everything the detail pane shows for one event (or one malformed line). */
export interface EventDetail {
  node: number;
  line: number;
  kind: string;
  category: EventCategory;
  label: string;
  status: EventStatus;
  id: string | null;
  parentId: string | null;
  /** The event the recorded link names (`parentId`, or a structural parent); null when none is in the trace. */
  parent: EventSummary | null;
  /** Ancestors in the tree from the root down, for breadcrumbs (display parents where the format has them). */
  ancestors: EventSummary[];
  childCount: number;
  seq: number | null;
  time: string | null;
  durationMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  model: string | null;
  tool: string | null;
  group: string | null;
  hashRefs: HashRef[];
  mentions: IdMention[];
  /** The exact line, up to a cap; `rawTruncated` says when it was cut. */
  raw: string;
  rawBytes: number;
  rawTruncated: boolean;
  /** The parsed line, or null when it is too large or not JSON (`jsonError` says why). */
  json: unknown;
  jsonError: string | null;
  messages: ChatMessage[];
  findings: FindingView[];
  malformed: boolean;
  /** Children, other events naming this one, and the id values it holds (filled in by the session). */
  nav?: EventNavigation;
  /**
   * The subagents this event's tool calls started, each a file of the session (Claude Code
   * `<session>/subagents/agent-*.jsonl` whose meta names the call), with what it used: `index` is its place in the
   * header's `usage.files`, for `openSessionFile`.
   */
  subagents?: { index: number; name: string; title: string | null; inputTokens: number | null; outputTokens: number | null; costUsd: number | null }[];
  /**
   * The file of the session the event was read from when it is not the trace's own (a subagent's transcript read
   * with the session, TraceModel.parts): `line` is a line of that file; `index` is its place in the header's
   * `usage.files`, for `openSessionFile`; `place`: what the webview saves as its selected line to find the event
   * again (file and line in one number). Absent: the event is the trace file's.
   */
  file?: { index: number; name: string; role: 'subagent' | 'compaction'; title: string | null; place?: number };
  /**
   * What the model saw, for a model step (core/usage/contextSplit.ts): its call's context split into cache read,
   * cache write and new input, the change since its thread's previous call, and compactions before it. Absent or
   * null for other events.
   */
  context?: ContextCall | null;
}

/** How one event links to others: what the detail pane lists and which of its values are id links. */
export interface EventNavigation {
  /** The first children, in file order (`EventDetail.childCount` says how many there are). */
  children: EventSummary[];
  /** Other events (not itself, not its children) that mention this event's id, up to a cap. */
  mentionedBy: EventSummary[];
  mentionedByTotal: number;
  /** String values in the event that are ids: known in this trace, or held by an id field (shown as links). */
  ids: string[];
}

/** State the webview keeps with `setState` so a hidden and re-shown (or restored) viewer looks the same. */
export interface PersistedViewState {
  selectedLine: number | null;
  /** Line of the first row in view. */
  topLine: number | null;
  /** Expanded events by line; null = the default expansion. Not kept beyond a few thousand. */
  expandedLines: number[] | null;
  /** All rows were expanded with "Expand All" (cheaper to keep than the lines). */
  expandedAll: boolean;
  detailTab: DetailTab;
  splitPosition: string | null;
  findQuery: string;
  filter: RowFilter;
  showChecks: boolean;
  contentRaw: boolean;
  /** Compact view of linear parent chains: on, off, or null for the format's default. */
  compactChains?: boolean | null;
  /** The writer's bookkeeping lines are rows (true) or folded out of the tree (false, the default when absent). */
  showBookkeeping?: boolean | null;
  /** Width of the Event column in pixels; null = it takes the space the other columns leave. */
  eventColumnWidth?: number | null;
  /** The main view shown in the left pane (webview/mainViews.ts): `tree`, `transcript`, …; absent = the tree. */
  mainView?: string;
}

export type DetailTab = 'content' | 'json' | 'raw';

/** The viewer's pane sizes, remembered per workspace (a new viewer starts from the last ones used). */
export interface ViewerLayout {
  /** Width of the tree pane, as a percentage (`55.0%`). */
  splitPosition: string | null;
  /** Width of the Event column in pixels; null = the space the other columns leave. */
  eventColumnWidth: number | null;
}

/** Default filter: everything. */
export const NO_FILTER: RowFilter = { kinds: [], status: 'all' };

import { Buffer } from 'buffer';
import type { Compression } from './byteSource';
import type { EventTable } from './eventTable';
import type { Finding, FormatName } from './model';
import type { EventTree } from './tree';

/**
 * The shapes of a loaded trace, apart from the code that loads it: the rule modules of every format and the
 * check engine name these types, and keeping them here (not in loadTrace.ts, which needs the format registry)
 * keeps the formats and the registry free of an import cycle.
 */

/** Per-format totals; known keys are shown in the header, others listed as they are. */
export interface FormatTotals {
  inputTokens?: number;
  outputTokens?: number;
  toolCalls?: number;
  errors?: number;
  [name: string]: number | undefined;
}

/**
 * The session a file continues as a fork (a new session that starts from another's history): what the file says of
 * it, from its builder's `origin()` (format.ts). Null or absent: the file is no fork, or says nothing of one.
 */
export interface SessionOrigin {
  relation: 'fork';
  /** The origin's session id as the file names it; null when the file copies a history without naming its session. */
  sessionId: string | null;
  /**
   * The events whose lines copy the origin's history (Claude Code writes that history again at the top of a fork,
   * same uuids, its own session id): `first` is the event the others are shown under, `firstLine`..`lastLine` their
   * lines. Null when the file only refers to the history (Codex: `forked_from_id`, the origin's lines before
   * `upToOrdinal`).
   */
  inherited: { first: number; events: number; firstLine: number; lastLine: number } | null;
  /** The origin's lines the fork starts from end before this ordinal (Codex `forked_from_ordinal_exclusive`). */
  upToOrdinal: number | null;
  /** What of the file's own usage records is the origin's and is left out of its usage, and why (`usage.explain.notes`). */
  excluded: string[];
}

/** The detector's verdict for a file, with how sure it is and the runners-up. */
export interface Detection {
  format: FormatName;
  /** 0..1. */
  confidence: number;
  reason: string;
  /** The detected format's dialect, when its detector names one. */
  dialect?: string;
  candidates: { format: FormatName; confidence: number }[];
}

/** A line that could not be read as JSON; the views show it as a row marked as such. */
export interface MalformedLine {
  line: number;
  offset: number;
  length: number;
  message: string;
}

/**
 * One file of a model read with its session's other files (`LoadOptions.sessionParts`, core/sessionParts.ts): part 0
 * is the main file (`TraceModel.path`), the others its subagents' and compaction agents' transcripts, whose events
 * follow the main file's in the table (`EventTable.partOf`) and are shown under the call that started them.
 */
export interface TracePart {
  path: string;
  role: 'main' | 'subagent' | 'compaction';
  /** The main file's tool call that started it, as its writer records it. */
  toolUseId: string | null;
  /** What it was asked to do, as the writer records it. */
  title: string | null;
  /** The event of the main file that holds that call, -1 when it is not found there (then a grouping event holds it). */
  call: number;
  /** Its first event in the table and how many it has (the main file's: 0 and its events at load). */
  first: number;
  count: number;
  /** The file's own model, as `loadTrace` reads it alone (its findings, lines and usage); null for the main file. */
  model: TraceModel | null;
  /** Why the file could not be read (then it has no events here). */
  error?: string;
}

/** A loaded trace: the compact event table, its tree and everything the reading noticed. */
export interface TraceModel {
  /** The file's path as text (for messages, output and the views). */
  path: string;
  /**
   * The path as bytes when the file's name is not valid UTF-8: `path` shows it (with U+FFFD) but would open
   * another file, so every re-read of the trace itself goes through `tracePathToOpen()` (tracePath.ts).
   */
  source?: Buffer;
  format: FormatName;
  detection: Detection;
  events: EventTable;
  tree: EventTree;
  /** Parse, tree and adapter findings, in line order. */
  diagnostics: Finding[];
  malformed: MalformedLine[];
  /** Lines in the file, blank ones included. */
  lineCount: number;
  blankLines: number;
  fileSize: number;
  /** Bytes read; a growing file's new data starts here. */
  bytesIndexed: number;
  bom: boolean;
  crlf: boolean;
  /** The file is one multi-line JSON document (OTLP export, JSON array) rather than JSONL. */
  document: boolean;
  cancelled: boolean;
  /** Only the first `stopAfterBytes` were read. */
  partial: boolean;
  /** Totals the adapter counted from the format's own fields. */
  formatTotals: FormatTotals;
  /** The session this file continues as a fork, when it is one (see {@link SessionOrigin}). */
  origin?: SessionOrigin | null;
  /** What the file's usage records count that its events do not show (the builder's `usageNotes()`), when anything. */
  usageNotes?: string[];
  /** The folder the run worked in, as its records name it (`FormatModule.workingFolder`), when they name one. */
  workingFolder?: string;
  /** How the file is stored: `gzip` for a compressed trace (offsets and lines are then in the decompressed content). */
  compression: Compression;
  /**
   * The session's files when it was read with them (`LoadOptions.sessionParts`): part 0 is this file; the rest
   * hold the events whose `EventTable.partOf` is their number. Absent: every event is this file's. `diagnostics`,
   * `malformed`, the line counts and `formatTotals` stay this file's own; each other part's are in its `model`.
   */
  parts?: TracePart[];
}


import type { BlobLayout } from './blobs/blobLayout';
import type { RuleModule } from './rules/types';
import type { EventDraft, EventStatus, FormatName, Finding } from './model';
import type { FormatTotals, SessionOrigin } from './traceModel';
import type { EventTable } from './eventTable';
import type { UsageDraft } from './usageTypes';
import type { LabelDeriver } from './derivedLabels';
import type { FieldPlan, LineScanner } from './lineFacts';

export type { FormatTotals };

/**
 * A span of a trace that is itself OpenTelemetry spans, as its file writes it: what an OTLP export keeps of it
 * unchanged ({@link FormatModule.sourceSpans}).
 */
export interface SourceSpan {
  /** The span's attributes as written (OTLP/JSON `KeyValue[]`). */
  attributes: readonly unknown[];
  /** Its start and end as the file writes them (decimal nanoseconds), null when the file has none. */
  startTimeUnixNano: string | null;
  endTimeUnixNano: string | null;
}

/** One parsed line (or one document) handed to an adapter, with where it is. */
export interface SourceRecord {
  /** The parsed JSON value. */
  value: unknown;
  /** 1-based line number of the line (for a multi-line document: its first line). */
  line: number;
  offset: number;
  length: number;
  /**
   * For a multi-line JSON document: finds the 1-based line of the first occurrence of `needle` in the
   * document's text, so a span or element can point at its own line. Absent for JSONL lines.
   */
  locate?: (needle: string) => number | null;
}

/** Emits an event for the record being processed and returns its event index. */
export type Emit = (draft: EventDraft, record?: SourceRecord) => number;

/** Stateful per-file builder: gets records in file order and emits events. */
export interface EventBuilder {
  /** Called for each parsed record, in file order. May emit zero, one or many events. */
  add(record: SourceRecord, emit: Emit): void;
  /** Called after the last record; may emit more events (rare) and return structural findings. */
  finish?(emit: Emit): Finding[];
  /** Totals the format itself records (tokens, tool calls, costs…), by name; counted from events when absent. */
  totals?(): FormatTotals;
  /** The session the file continues as a fork, once read (null: none); see {@link SessionOrigin}. */
  origin?(): SessionOrigin | null;
  /**
   * What the file's own usage records count that its events do not show (Qwen Code's stream-json `result` counts a
   * background subagent's requests), as sentences for `usage.explain.notes`; once read.
   */
  usageNotes?(): string[];
}

/** What a detector needs to judge a file. */
export interface SniffSample {
  /** The first parsed values of the file (up to about 20), in order. */
  values: unknown[];
  /** The file's base name, e.g. `trace.jsonl`. */
  fileName: string;
  /** The file's path with forward slashes, for path conventions like `.lumen/trace/`. */
  path: string;
  /** True when the sample comes from one multi-line JSON document rather than JSONL lines. */
  document: boolean;
}

/** A detector's verdict. */
export interface SniffResult {
  /** 0 = not this format, 1 = certain. */
  confidence: number;
  /** Why, in a few words (shown to users). */
  reason: string;
  /** Which variant of the format the file is (e.g. `rollout` or `exec-json` for codex), when the format has several. */
  dialect?: string;
}

/** The reading part of a format module: how to recognise the format and turn its records into events. */
export type FormatAdapter = Pick<FormatModule, 'name' | 'title' | 'sniff' | 'createBuilder'>;

/** What a builder knows of its file, and how it may amend events it already emitted. */
export interface BuilderSource {
  /** Base name of the file, e.g. `<run_id>.jsonl` (some formats keep the run id only there). */
  fileName: string;
  /** Path with forward slashes. */
  path: string;
  /** Sets the duration of an emitted event once its end is seen (e.g. on the opening event of a pair). */
  setDuration(index: number, ms: number): void;
  /** Raises the status of an emitted event (e.g. a call whose result failed). */
  setStatus(index: number, status: EventStatus): void;
  /**
   * Replaces the usage of an emitted event (its tokensIn/tokensOut and usage facts), when a later line carries the
   * final count of what the event reported (Claude Code repeats a response's usage on every line of it, the last
   * one with the real output count).
   */
  setUsage(index: number, tokensIn: number | null, tokensOut: number | null, usage: UsageDraft | undefined): void;
}

/**
 * Everything one runtime's format owns, behind one contract: how to recognise it, how to read it, its rules,
 * what its verification proves, how its files are laid out. One entry of {@link FORMATS} per format.
 *
 * Reading is split in two so it can move to worker threads: `sniff` and the builder's per-line reading are
 * functions of each line's bytes; the builder's cross-line state (nesting, state machines, chain links) is the
 * separate pass that gets the lines in file order.
 */
/** One other file of a session (see {@link FormatModule.sessionFiles}). */
export interface SessionFile {
  path: string;
  /** `subagent`: a conversation the session's agent started (Agent/Task call); `compaction`: a compaction agent's. */
  role: 'subagent' | 'compaction';
  /** The tool call of the main file that started it, when the writer records it. */
  toolUseId: string | null;
  /** What it was asked to do, as the writer records it (Claude Code: the meta's description, else its agent type). */
  title: string | null;
}

export interface FormatModule {
  /** The format name of the public contract (CLI output, settings, rule ids). */
  readonly name: FormatName;
  /** A human title, e.g. `Harness ledger (platonic)`. */
  readonly title: string;
  /** What the format's top-level groups are called in the header and summaries. */
  readonly groupNoun: 'run' | 'session';
  /**
   * What an event's time means when it also has a duration: `start` when the work began (OTLP span starts),
   * `end` (the default) when the record was written after the work, with the duration measured up to then
   * (murmur `duration_ms`, lumen `latency_ms`). The timeline starts an `end` event's bar its duration earlier.
   */
  readonly eventTime?: 'start' | 'end';
  /**
   * True where category `other` holds the user's own events (the generic format: every kind it does not know), not
   * the writer's bookkeeping lines (Claude Code's progress, Codex's echoed items…), which the timeline counts, not draws,
   * and the viewer does not open on (`bookkeepingCategory` in formats.ts).
   */
  readonly otherKindsAreEvents?: boolean;
  /** Content-based detection; file names may only break ties (add at most 0.05 for a matching name). */
  sniff(sample: SniffSample): SniffResult;
  /** A builder for one file: gets its records in file order and emits events. */
  createBuilder(source: BuilderSource): EventBuilder;
  /**
   * Every JSON path (dotted, a parent before its children) the builder reads of a line that is a JSON object.
   * When given, worker threads parse the lines and send only these values, and the builder gets objects holding
   * just them: so the list must be complete (a test compares the models read both ways on every corpus file).
   * Absent: the format's lines are read on one thread.
   */
  readonly lineFields?: readonly string[];
  /**
   * A reader of the facts of `lineFields` straight from a line's bytes, for lines written the way the format's
   * writer writes them: range workers try it before JSON.parse. It must refuse any line it cannot read exactly as
   * JSON.parse would (a test holds it to that on edited lines).
   */
  readonly lineScanner?: (plan: FieldPlan) => LineScanner;
  /**
   * Makes an event's label again from its line's parsed value and its interned facts (kind, model, tool,
   * group; absent ones are null), or null when the label depends on other lines. The loader compares it with
   * the builder's label for every event and stores only the labels it does not give back, so a deriver that
   * covers only the common kinds is correct. Reads only fields in `lineFields` (when given).
   */
  readonly deriveLabel?: LabelDeriver;
  /** The format's rule catalog, verifier and checker; absent for formats that only get the generic rules. */
  readonly rules?: RuleModule;
  /** What verification proves for this format, and what it cannot (shown next to every verification result). */
  readonly verificationScope: string;
  /**
   * File-name globs (VS Code `filenamePattern` syntax: without a `/` a pattern matches the base name) of files that
   * are surely this format's traces: the viewer is their default editor. package.json's `customEditors` lists
   * exactly these (a unit test checks it), so a new pattern goes here and there. Detection never relies on them.
   */
  readonly fileNamePatterns?: readonly string[];
  /** Folders beside or below its traces that hold no traces (blob stores, caches, journals): a directory walk skips them. */
  readonly sideFolders?: readonly string[];
  /**
   * The format's spec requires UTF-8 lines split on `\n` (lumen): invalid UTF-8 and lone CRs, warnings for other
   * formats, are errors in its files.
   */
  readonly strictText?: boolean;
  /** Where the format's content blobs live and how they are hashed; absent: the format-neutral layout. */
  readonly blobs?: BlobLayout;
  /**
   * Looks for parent ids this file names but does not hold in the files that belong with it (bounded; e.g. a
   * Claude Code session's main file and subagent files); returns each id found with the base name of its file.
   * The loader then reports those parents as found elsewhere rather than missing.
   */
  findElsewhere?(path: string, ids: ReadonlySet<string>): Promise<ReadonlyMap<string, string>>;
  /**
   * The other files of the session this file is the main file of, whose usage is the session's too (Claude Code:
   * `<session>/subagents/agent-*.jsonl`, the subagents and compaction agents it started). Each is still a trace of
   * its own; the summary and the viewer count them with the session (core/sessionUsage.ts). Absent or empty: the
   * file is the whole session.
   */
  sessionFiles?(path: string): Promise<readonly SessionFile[]>;
  /**
   * The events of a loaded main file that hold the calls with these ids ({@link SessionFile.toolUseId}): id → event
   * index. The loader nests each session file's events under its call (core/sessionParts.ts). Without it: the tool-call
   * events whose own id is the call id (`toolCallsById`).
   */
  sessionCalls?(events: EventTable, ids: ReadonlySet<string>): Map<string, number>;
  /**
   * The file of the session `sessionId` that the file at `path` was forked from (its {@link SessionOrigin}), when it
   * is where the writer keeps it beside this one (Claude Code: `<id>.jsonl` in the same project folder; Codex:
   * `rollout-*-<id>.jsonl` in the same day's folder); null when it is not there. `sessionId` is a plain id
   * (letters, digits, `-`, `_`), never a path.
   */
  originFile?(path: string, sessionId: string): Promise<string | null>;
  /**
   * The whole text of a message the writer streams over several lines (Gemini CLI stream-json's `delta` chunks),
   * which the builder makes one event of at its first chunk's line: given that line's parsed value and the lines
   * after it as text, in file order, the chunks' text joined; null when the line is no such message. The detail
   * pane, the transcript and the Markdown export show the message with it.
   */
  continuedText?(first: unknown, following: readonly string[]): string | null;
  /**
   * Parent links form message chains (each message names the one before it, as a generic trace's parentUuid):
   * the viewer then opens in its compact view, where a chain of single-child links is one run of rows. A format
   * that shows its events in a shape of their own (Claude Code's session → turn → step → call, through display
   * parents) leaves it off.
   */
  readonly linearChains?: boolean;
  /**
   * The folder the run worked in (its `cwd`), as one of its records names it: a JSONL line's parsed value, or a
   * document's record (Continue's session document, opencode's export). Null when this record names none. The loader
   * asks it over the first records of a file (`TraceModel.workingFolder`); absent: the format records no folder.
   */
  workingFolder?(record: unknown): string | null;
  /**
   * The file's spans as written, by the event id the reader gives each (`traceId/spanId`), when the format's records
   * are OpenTelemetry spans: the OTLP export keeps their attributes (those it does not set itself) and their exact
   * nanosecond times, so an OTLP → OTLP export changes nothing it has no reason to. Absent: the format has no spans.
   */
  sourceSpans?(path: string): Promise<ReadonlyMap<string, SourceSpan>>;
}

import { EventDraft, EventStatus, FormatName, Finding } from './model';

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
}

/** Per-format totals; known keys are shown in the header, others listed as they are. */
export interface FormatTotals {
  inputTokens?: number;
  outputTokens?: number;
  toolCalls?: number;
  errors?: number;
  [name: string]: number | undefined;
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
}

/** One runtime's format: how to recognise it and how to turn its records into events. */
export interface FormatAdapter {
  readonly name: FormatName;
  /** A human title, e.g. `Harness ledger (platonic)`. */
  readonly title: string;
  /** Content-based detection; file names may only break ties (add at most 0.05 for a matching name). */
  sniff(sample: SniffSample): SniffResult;
  createBuilder(source: BuilderSource): EventBuilder;
}

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
}

import type { FindingLog } from '../findingLog';
import { Buffer } from 'buffer';
import type { LineScanner } from '../lineFacts';
import type { BlobLayout } from '../blobs/blobLayout';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import type { TraceModel } from '../traceModel';
import { Finding, FormatName, HashRef } from '../model';
import type { RuleInfo } from '../catalog/ruleInfo';
import type { CheckMode } from '../catalog/checkMode';

export { CHECK_MODES } from '../catalog/checkMode';
export type { CheckMode } from '../catalog/checkMode';
export type { RuleInfo } from '../catalog/ruleInfo';

/** One line of the trace as the checks see it: its exact text and its parsed value. */
export interface LineInput {
  /** 1-based line number. */
  line: number;
  /** The line's exact text (without the line break, BOM removed), for byte-exact hashing. */
  text: string;
  /**
   * The line's bytes (without the line break, BOM removed), when the reader kept them: a check may read them
   * instead of `text` (lumen's chain hashes a canonical line's own bytes). A view of the read buffer: valid only
   * during `add`.
   */
  bytes?: Buffer;
  /** `bytes` are known to be valid UTF-8 (the reader checked the stretch of its chunk they are in): not checked again. */
  utf8?: boolean;
  /** The parsed value (standard `JSON.parse`); undefined when the line is not valid JSON or blank. */
  value: unknown;
  blank: boolean;
  /**
   * Whether the line is valid JSON, known without parsing it again when the loader already read it (the
   * runner sets it); checks that only need validity use it instead of `value`.
   */
  validJson?: boolean;
  /**
   * Set when a range worker read the line for the format's own check ({@link RuleModule.lineDigest}) and no line
   * check needs its text: then `text` and `value` are not there, and the format's check reads these facts instead.
   */
  digest?: LineDigest;
}

/** One line's facts in a batch a range worker digested: the format's own columns and the line's row in them. */
export interface LineDigest {
  columns: LineDigestColumns;
  row: number;
}

/** A batch of digested lines; each format's check knows its own columns. */
export interface LineDigestColumns {
  count: number;
}

/**
 * Reads lines in a range worker for a format's own check: per line, the few facts the check's cross-line pass
 * needs, as typed-array columns, so the line's text never crosses threads.
 */
export interface LineDigestWriter {
  /**
   * Digests a line that parsed as a JSON object and returns its row; -1 when the check must see the text.
   * `bytes`: the line's bytes, when the reader has them (a view valid during the call only).
   */
  add(text: string, value: unknown, bytes?: Buffer): number;
  /**
   * Digests the line the format's {@link LineScanner} has just read (no text, no value): the row {@link add} would
   * give the parsed line, or -1 when it cannot tell without them (the line then goes to `add`).
   */
  addScanned?(scanner: LineScanner): number;
  /** Hands over the batch so far (the writer starts empty again) and the buffers to transfer. */
  take(): { columns: LineDigestColumns; transfer: ArrayBuffer[] };
}

/** The per-event facts the checks read (defined with the session parts' view of them, which the trace layer makes). */
import type { CheckEvents } from '../traceParts';
export type { CheckEvents };

/**
 * What the checks know of the trace besides its lines: a {@link TraceModel} is one, and so is the state of a
 * streamed read. `diagnostics` may still grow while lines stream by (a streamed read adds a line's reading
 * findings before the checks see the line), so checks look lines up in it live ({@link linesWithRules}).
 */
export interface CheckSubject {
  path: string;
  source?: Buffer;
  format: FormatName;
  events: CheckEvents;
  diagnostics: readonly Finding[];
  /**
   * More of the loader's findings, after `diagnostics`, never held as objects: the tree's findings (a parent missing
   * on each of a million lines), handed to `take` one at a time from a streamed verification's compact facts, or
   * kept compactly by a load for the CLI's checks (a {@link FindingLog}, which the engine takes over as its result's
   * log). None of them is a `parse/` finding, which the rules read in `diagnostics`.
   */
  moreDiagnostics?: ((take: (d: Finding) => void) => void) | FindingLog;
  lineCount: number;
  bytesIndexed: number;
  bom: boolean;
  document: boolean;
}

/** Context handed to every check of one file. */
export interface CheckContext {
  /** Path of the trace file. */
  path: string;
  /** The trace's facts (events, format, diagnostics): the loaded model, or a streamed read's compact facts. */
  model: CheckSubject;
  /**
   * The viewer's whole model, when the checks run over one; a streamed run has none, and runs only where the
   * rules that need it (usage totals, which need the tree) have nothing to report.
   */
  traceModel?: TraceModel;
  /**
   * Where the trace's format keeps its blobs and how it names them: the format module's layout, or the
   * format-neutral one (the engine sets it from the format it was given, so checks never look a format up).
   */
  blobLayout: BlobLayout;
  /** Where blobs are looked for besides the format's own layout (the `agentTrace.blobRoots` setting, `--blob-root`). */
  blobOptions?: BlobStoreOptions;
  /** Polled by long checks (blob rehashing) so a user can cancel. */
  isCancelled?: () => boolean;
}

/** Distinct blobs a verification rehashed, by outcome (`other`: unreadable, refused, unverifiable). */
export interface BlobTally {
  verified: number;
  missing: number;
  mismatched: number;
  other: number;
}

/** A check that reads the file's lines in order, then reports. */
export interface StreamCheck {
  add(input: LineInput): void;
  /** Findings may also be async (e.g. blob rehash). */
  finish(): Finding[] | Promise<Finding[]>;
  /** Blob verification: what it found per distinct blob, after `finish`. */
  tally?(): BlobTally | undefined;
}

/** A format's (or the generic) contribution to verification and conformance. */
export interface RuleModule {
  /** The format these rules apply to; `generic` applies to all. */
  format: FormatName | 'generic';
  rules: RuleInfo[];
  /** Generic rule ids this module replaces with its own, more precise rules (e.g. `tree/dangling-parent`). */
  supersedes?: string[];
  createVerifier?(ctx: CheckContext): StreamCheck;
  createChecker?(ctx: CheckContext): StreamCheck;
  /**
   * A writer that digests lines in a range worker for this module's check in `mode`, whose check then takes
   * `LineInput.digest` instead of the text (undefined: the check needs every line's text). A test compares the
   * findings with those of one thread.
   */
  lineDigest?(mode: CheckMode): LineDigestWriter | undefined;
}

/**
 * The lines that carry a finding of one of `rules` in `diagnostics`, looked up live: entries added after the
 * call are seen too (a streamed read adds a torn tail's finding just before the checks get that line).
 */
export function linesWithRules(diagnostics: readonly Finding[], rules: readonly string[]): { has(line: number): boolean } {
  const lines = new Set<number>();
  let seen = 0;
  return {
    has(line: number): boolean {
      for (; seen < diagnostics.length; seen++) if (rules.includes(diagnostics[seen].rule)) lines.add(diagnostics[seen].line);
      return lines.has(line);
    },
  };
}

import type { BlobStoreOptions } from '../blobs/blobOptions';
import type { TraceModel } from '../traceModel';
import { Finding, FormatName } from '../model';
import type { RuleInfo } from './ruleInfo';

export { CHECK_MODES } from './checkMode';
export type { CheckMode } from './checkMode';
export type { RuleInfo } from './ruleInfo';

/** One line of the trace as the checks see it: its exact text and its parsed value. */
export interface LineInput {
  /** 1-based line number. */
  line: number;
  /** The line's exact text (without the line break, BOM removed), for byte-exact hashing. */
  text: string;
  /** The parsed value (standard `JSON.parse`); undefined when the line is not valid JSON or blank. */
  value: unknown;
  blank: boolean;
  /**
   * Whether the line is valid JSON, known without parsing it again when the loader already read it (the
   * runner sets it); checks that only need validity use it instead of `value`.
   */
  validJson?: boolean;
}

/** Context handed to every check of one file. */
export interface CheckContext {
  /** Path of the trace file. */
  path: string;
  /** The loaded model (events, tree, format, diagnostics). */
  model: TraceModel;
  /** Where blobs are looked for besides the formats' own layouts (the `agentTrace.blobRoots` setting). */
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
}

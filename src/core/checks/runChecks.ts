import { Buffer } from 'buffer';
import { parseLine, ParsedLine } from '../json/jsonLine';
import { tracePathToOpen } from '../tracePath';
import { LineSpan, scanLines } from '../lineIndexer';
import type { TraceModel } from '../traceModel';
import { mainEvents } from '../traceParts';
import { Finding, FormatName, Severity } from '../model';
import { genericRules, loaderFinding } from './genericRules';
import { FindingLog } from '../findingLog';
import { blobRules } from './blobRules';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import { DEFAULT_BLOB_LAYOUT } from '../blobs/defaultBlobLayout';
import type { FormatModule } from '../format';
import { BlobTally, CheckContext, CheckMode, CheckSubject, LineInput, RuleModule, StreamCheck } from '../rules/types';

/**
 * The check engine. It runs the rule modules that apply to a trace over its lines and finishes their findings; it
 * knows no format: the caller hands it what it needs of the trace's format ({@link FormatChecks}). The registry's
 * side (`src/core/formatRules.ts`: `runChecks`, `modulesFor`, `allRules`) looks the format up and calls in here.
 */

/** What the engine needs of the trace's format: its own rule module and where it keeps its blobs. A `FormatModule` is one. */
export type FormatChecks = Pick<FormatModule, 'rules' | 'blobs'>;

/** The rule modules that apply to every format, first in every run and in the catalog: the generic and the blob rules. */
export const GENERIC_RULE_MODULES: readonly RuleModule[] = [genericRules, blobRules];

/** The rule modules that apply to a trace of `format`: the generic ones first, then the format's own. */
export function ruleModulesOf(format: FormatChecks): RuleModule[] {
  return format.rules ? [...GENERIC_RULE_MODULES, format.rules] : [...GENERIC_RULE_MODULES];
}

/** A user's override of a rule: off, or another severity. */
export type RuleSetting = Severity | 'off';

/** Options for {@link checkModel} (and `runChecks`). */
export interface RunOptions {
  /** Rule id → override (the `agentTrace.rules` setting). */
  rules?: Record<string, RuleSetting>;
  isCancelled?: () => boolean;
  /** Keep only findings whose rule passes this filter (e.g. blob rules for "Verify Blobs"). */
  ruleFilter?: (ruleId: string) => boolean;
  /** Extra blob roots and workspace folders for blob verification. */
  blobOptions?: BlobStoreOptions;
  onProgress?: (bytesRead: number, fileSize: number) => void;
  /**
   * Keep the result's findings in a {@link FindingLog}, compact and read one at a time, instead of an array: for a
   * writer that hands them on (the CLI's `--json`), so a million findings are not a million objects at once. The
   * result is then a {@link LoggedCheckResult}. Riding along a load with one mode (`loadTraceChecked`), the tree's
   * findings then go to the checks alone: the model's diagnostics leave them out.
   */
  findingLog?: boolean;
}

/** The result for one file: the JSON shape of `agent-trace verify|check --json`. */
export interface CheckResult {
  file: string;
  format: FormatName;
  /** True when no finding has severity error. */
  ok: boolean;
  /** Events checked. */
  checked: number;
  findings: Finding[];
  cancelled?: boolean;
  /** Blobs rehashed by outcome, when the trace references blobs (the viewer's header; not in the CLI's JSON). */
  blobs?: BlobTally;
}

/** A result whose findings were kept in a {@link FindingLog} (`RunOptions.findingLog`), in the order of the array's. */
export type LoggedCheckResult = Omit<CheckResult, 'findings'> & { findings: FindingLog };

/** A line whose text and parsed value are computed only when a check asks, and once. */
class LazyLine implements LineInput {
  readonly line: number;
  private decoded: string | undefined;
  private parsedLine: ParsedLine | undefined;
  constructor(private readonly span: LineSpan, private readonly lineBytes: Buffer | null, private readonly loaderMalformed: ReadonlySet<number>) {
    this.line = span.line;
  }
  get validJson(): boolean {
    if (this.parsedLine) return this.parsedLine.kind === 'value';
    if (this.lineBytes === null || this.loaderMalformed.has(this.line)) return false;
    // The loader parsed this line without error; only a blank line is left to rule out.
    return !this.blank;
  }
  get text(): string {
    return (this.decoded ??= this.lineBytes ? this.lineBytes.toString('utf8') : '');
  }
  /** The line's bytes in the scan's read buffer, during this line's `add` only. */
  get bytes(): Buffer | undefined {
    return this.lineBytes ?? undefined;
  }
  private get parsed(): ParsedLine {
    return (this.parsedLine ??= parseLine(this.span, this.lineBytes, Number.MAX_SAFE_INTEGER));
  }
  get value(): unknown {
    const p = this.parsed;
    return p.kind === 'value' ? p.value : undefined;
  }
  get blank(): boolean {
    if (this.parsedLine) return this.parsedLine.kind === 'blank';
    if (this.lineBytes === null) return false;
    for (let i = 0; i < this.lineBytes.length; i++) if (this.lineBytes[i] !== 32 && this.lineBytes[i] !== 9 && this.lineBytes[i] !== 13) return false;
    return true;
  }
}

/**
 * Runs the verifiers (`verify`) or conformance checkers (`check`) of `format` (the trace's) over one re-read of its
 * lines, adds the loader's own findings, applies the user's rule settings and sorts by line. `runChecks`
 * (formatRules.ts) is this with the format looked up in the registry.
 */
export async function checkModel(model: TraceModel, mode: CheckMode, format: FormatChecks, options: RunOptions = {}): Promise<CheckResult> {
  // A model read with its session's parts is judged as its main file: its own events, lines and findings (each part
  // is checked as a file of its own, over `parts[k].model`); its usage rollup counts the main file's events only.
  const subject: CheckSubject = model.parts ? { ...model, events: mainEvents(model) } : model;
  const set = createChecks({ path: model.path, model: subject, traceModel: model, blobOptions: options.blobOptions, isCancelled: options.isCancelled }, mode, format);
  let cancelled = false;
  if (set.checks.length > 0 && !model.document) {
    const malformedLines = new Set(model.malformed.map((m) => m.line));
    const scan = await scanLines(
      tracePathToOpen(model),
      (span, bytes) => {
        const input = new LazyLine(span, bytes, malformedLines);
        for (const c of set.checks) c.add(input);
      },
      // Exactly the bytes the model was read from: a file still being written is judged as the model saw it, never
      // with new bytes read against the earlier read's torn-tail state.
      { endOffset: model.bytesIndexed, isCancelled: options.isCancelled, onProgress: (n) => options.onProgress?.(n, model.fileSize) },
    );
    cancelled = scan.cancelled;
  }
  return finishChecks(set, subject, mode, options, cancelled);
}

/** The checks of one file and the rule modules they come from. */
export interface CheckSet {
  modules: RuleModule[];
  checks: StreamCheck[];
}

/**
 * Makes the verifiers (`verify`) or checkers (`check`) of every rule module that applies to a trace of `format`
 * (the generic ones, then its own), with the format's blob layout in their context; `replace` may give a module's
 * check made elsewhere (a streamed run's worker) in its place.
 */
export function createChecks(base: Omit<CheckContext, 'blobLayout'>, mode: CheckMode, format: FormatChecks, replace?: (m: RuleModule) => StreamCheck | undefined): CheckSet {
  // The caller's object, completed, not a copy: a read with checks riding along fills in its model when it ends.
  const ctx: CheckContext = Object.assign(base, { blobLayout: format.blobs ?? DEFAULT_BLOB_LAYOUT });
  const modules = ruleModulesOf(format);
  const checks: StreamCheck[] = [];
  for (const m of modules) {
    const c = replace?.(m) ?? (mode === 'verify' ? m.createVerifier?.(ctx) : m.createChecker?.(ctx));
    if (c) checks.push(c);
  }
  return { modules, checks };
}

/**
 * Ends the checks once every line was handed to them: adds the loader's findings (`subject.diagnostics`, in line
 * order, then `subject.moreDiagnostics`), drops superseded rules, applies the user's settings, sorts by line and makes
 * the file's result. With `options.findingLog` the findings are kept in a {@link FindingLog} (see
 * {@link LoggedCheckResult}), one at a time as they come, never as an array of objects.
 */
export async function finishChecks(set: CheckSet, subject: CheckSubject, mode: CheckMode, options: RunOptions, cancelled: boolean): Promise<CheckResult> {
  const superseded = new Set(set.modules.flatMap((m) => m.supersedes ?? []));
  const rules = options.rules ?? {};
  const fromLoader = loaderFinding(mode);
  // What the runner does to every finding, by its rule: superseded rules dropped, the user's settings, the filter.
  const settled = (rule: string, severity: Severity): Severity | null => {
    if (superseded.has(rule)) return null;
    const s = rules[rule];
    if (s === 'off') return null;
    return !options.ruleFilter || options.ruleFilter(rule) ? s ?? severity : null;
  };
  const more = subject.moreDiagnostics;
  // A log of the loader's findings is taken over as the result's (the others are added to it), never copied.
  const adopt = options.findingLog && more instanceof FindingLog;
  if (adopt) more.keepOnly((rule, severity) => (fromLoader({ rule } as Finding) ? settled(rule, severity) : null));
  const findings: Finding[] | FindingLog = adopt ? more : options.findingLog ? new FindingLog() : [];
  const take = (f: Finding): void => {
    const s = settled(f.rule, f.severity);
    if (s !== null) findings.push(s === f.severity ? f : { ...f, severity: s });
  };
  for (const d of subject.diagnostics) if (fromLoader(d)) take(d);
  const takeLoader = (d: Finding): void => {
    if (fromLoader(d)) take(d);
  };
  if (typeof more === 'function') more(takeLoader);
  else if (more && !adopt) for (const d of more.drain()) takeLoader(d);
  for (const c of set.checks) for (const f of await c.finish()) take(f);
  let errors: boolean;
  if (findings instanceof FindingLog) {
    findings.sortByLine();
    errors = findings.errors > 0;
  } else {
    findings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
    errors = findings.some((f) => f.severity === 'error');
  }
  const blobs = set.checks.map((c) => c.tally?.()).find((t) => t !== undefined);
  return {
    file: subject.path,
    format: subject.format,
    ok: !errors,
    checked: subject.events.size,
    // A LoggedCheckResult's: its callers asked for the log (see RunOptions.findingLog).
    findings: findings as Finding[],
    ...(cancelled ? { cancelled: true } : {}),
    ...(blobs ? { blobs } : {}),
  };
}

/**
 * One trace file opened in the viewer: reads it through the core in one pass (its first pages shown while the
 * rest is read, with progress and cancellation), caches the model for every panel showing it, and follows the
 * file on disk: an append is parsed from the new bytes only (the core's reader keeps its builder open); a
 * rewrite or truncation, or a file that cannot be followed that way, is read again whole and the banner says why.
 */
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { CheckResult, RuleSetting } from '../../core/checks/runChecks';
import type { CheckMode } from '../../core/rules/types';
import type { RideAlongChecks } from '../../core/loadTrace';
import type { BlobStoreOptions } from '../../core/blobs/blobOptions';
import { contentSizeHint, NotATraceError, probeFile } from '../../core/byteSource';
import { notATraceMessage } from '../../core/detectFile';
import type { TraceModel } from '../../core/loadTrace';
import { openTraceReader, TraceReader, withoutOpenTail } from '../../core/traceReader';
import { tailPending } from '../../core/fileChange';
import { holdTrace } from '../../core/io/traceHandles';
import type { FileState } from '../../protocol';
import { classifyChange, FileChange, fingerprintFile, FileFingerprint } from '../../viewer/fileChange';
import { FULL_READ_CHUNK } from './readChunks';

/** What panels are told when the document changes. */
export type DocumentEvent =
  | { type: 'progress'; bytesRead: number; fileSize: number }
  | { type: 'model'; model: TraceModel; state: FileState; message: string | null }
  | { type: 'fileState'; state: FileState; message: string | null }
  | { type: 'error'; message: string; actions: ('reload' | 'openAsText' | 'openAnyway')[] }
  | { type: 'checks'; mode: CheckMode; result: CheckResult }
  | { type: 'clearChecks' }
  /** Events were appended after the checks ran: their results are outdated until the checks run again. */
  | { type: 'checksStale' };

/** What the document's settings say about checking a trace as it is read (agentTrace.checkOnOpen and its cap). */
export interface CheckOnOpen {
  /** Largest file checked as it opens. */
  maxBytes: number;
  /** The user's `agentTrace.rules`. */
  rules: Record<string, RuleSetting>;
  /** Where blobs are looked for besides the format's own folders (`agentTrace.blobRoots`, the workspace folders). */
  blobOptions?: BlobStoreOptions;
}

/** The settings a document reads on each load. */
export interface DocumentSettings {
  maxFileSizeMB: number;
  liveUpdates: boolean;
  /** Threads of the read (`agentTrace.workers`, resolved to a count); absent reads on this thread. */
  workers?: number;
  /** Verify and check as the trace is read (null: agentTrace.checkOnOpen is off). */
  checkOnOpen?: CheckOnOpen | null;
}

/** A result of the checks that rode along a read, with the model they describe. */
export interface DocumentCheck {
  mode: CheckMode;
  result: CheckResult;
  model: TraceModel;
}

/** The modes checked as a trace opens: verification first, so its chip shows first. */
const OPEN_MODES: CheckMode[] = ['verify', 'check'];

/** Why and how to (re)read the file. */
interface LoadRequest {
  ignoreSizeLimit?: boolean;
  /** The banner state the new model is shown with. */
  state?: FileState;
  message?: string | null;
  /** No quick look, no progress (a live append). */
  quiet?: boolean;
  /** Events the previous model had, to say how many were appended. */
  appendedTo?: number;
}

/** Files above this show their first pages while the rest of the same read goes on. */
const QUICK_LOOK_ABOVE = 8 << 20;
const QUICK_LOOK_BYTES = 2 << 20;
/** Files above this show a cancellable notification while indexing. */
const NOTIFY_ABOVE = 32 << 20;
const PROGRESS_MS = 100;

/** See the file comment. */
export class TraceDocument implements vscode.CustomDocument {
  private modelValue: TraceModel | undefined;
  /** What panels show now: the last model event (a quick partial look, or the complete model), replayed to panels that open later. */
  private shownValue: Extract<DocumentEvent, { type: 'model' }> | null = null;
  private readonly emitter = new vscode.EventEmitter<DocumentEvent>();
  private readonly loadedEmitter = new vscode.EventEmitter<TraceModel>();
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private readonly checkedEmitter = new vscode.EventEmitter<DocumentCheck>();
  /** The document was closed (its last panel went away). */
  readonly onDidDispose = this.disposeEmitter.event;
  /** The checks that rode along a read finished a mode (after the model they describe is shown). */
  readonly onDidCheckOnRead = this.checkedEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter, this.loadedEmitter, this.checkedEmitter];
  private fingerprint: FileFingerprint | null = null;
  private loadRun = 0;
  private loading: Promise<void> | null = null;
  private lastLoadMs = 0;
  private changeTimer: NodeJS.Timeout | undefined;
  private deleted = false;
  private waiters: ((m: TraceModel | undefined) => void)[] = [];
  /** The open reader of the last full read: appends parse only the new bytes through it. */
  private reader: TraceReader | null = null;
  /**
   * The complete model while the one shown leaves out its last line, which has no line break yet and the file grew
   * a moment ago (`withoutOpenTail`): a line still being written, not an error. `since`: when the file last grew.
   */
  private heldTail: { model: TraceModel; line: number; since: number } | null = null;
  /** Bytes the last live append read (the new bytes only, unless it had to read the file again). */
  lastAppendBytes: number | null = null;
  /** The last failure or file state, replayed to panels that open after it happened. */
  lastProblem: Extract<DocumentEvent, { type: 'error' | 'fileState' }> | null = null;
  /** Latest check results, replayed to panels that open later. */
  readonly checkResults = new Map<CheckMode, CheckResult>();
  /** Modes whose latest result predates an append. */
  readonly staleChecks = new Set<CheckMode>();
  readonly onDidChange = this.emitter.event;
  /** A full model was loaded (first open, append, reload). */
  readonly onDidLoadModel = this.loadedEmitter.event;

  constructor(readonly uri: vscode.Uri, private readonly settings: () => DocumentSettings) {}

  get path(): string {
    return this.uri.fsPath;
  }
  /** The last complete model (undefined until the first full read ends). */
  get model(): TraceModel | undefined {
    return this.modelValue;
  }
  /**
   * The model on screen with its banner state: the quick first look of a large file while the full read
   * runs, then the complete model. A panel resolved after the quick look starts from it, whatever the timing.
   */
  get shown(): Extract<DocumentEvent, { type: 'model' }> | null {
    return this.shownValue;
  }

  /** Resolves with the first complete model (or undefined when loading failed). */
  whenLoaded(): Promise<TraceModel | undefined> {
    if (this.modelValue && !isPartial(this.modelValue)) return Promise.resolve(this.modelValue);
    // The last load failed (not a trace, unreadable): waiting would never end until a reload.
    if (this.lastProblem?.type === 'error' && !this.loading) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Reads the file; `state` says why (first open, rewrite…) for the banner. */
  load(options: LoadRequest = {}): Promise<void> {
    const run = ++this.loadRun;
    const p = this.doLoad(run, options).finally(() => {
      if (this.loading === p) this.loading = null;
    });
    this.loading = p;
    return p;
  }

  /** One open of the file for the whole load: the probe, the read, the checks and the fingerprints share it. */
  private async doLoad(run: number, options: LoadRequest): Promise<void> {
    // Awaited, so this frame stays in the open's async stack (test/vscode/modelCache.test.ts tells loads by it).
    return await holdTrace(this.path, () => this.doLoadHeld(run, options));
  }

  private async doLoadHeld(run: number, options: LoadRequest): Promise<void> {
    let size: number;
    let writtenAt: number;
    try {
      const st = await stat(this.path);
      size = st.size;
      writtenAt = st.mtimeMs;
      // A .gz is judged by its decompressed size (the gzip trailer's hint): that is what the model holds.
      size = await contentSizeHint(this.path, await probeFile(this.path).catch(() => null), size);
    } catch (err) {
      this.fail(`Cannot read ${this.path}: ${errText(err)}`, ['reload']);
      return;
    }
    const limit = this.settings().maxFileSizeMB * 2 ** 20;
    if (!options.ignoreSizeLimit && limit > 0 && size > limit) {
      const mb = (size / 2 ** 20).toFixed(0);
      this.fail(`This trace is ${mb} MB, over the agentTrace.maxFileSizeMB limit of ${this.settings().maxFileSizeMB} MB.`, ['openAnyway', 'openAsText']);
      return;
    }
    const started = Date.now();
    const early = size > QUICK_LOOK_ABOVE && !options.quiet ? (partial: TraceModel) => this.showEarly(run, partial) : undefined;
    this.reader = null;
    const checks = this.checksOnRead(size, options);
    const reader = await this.withProgress(size, options.quiet === true, (onProgress, isCancelled) =>
      openTraceReader(this.path, { onProgress, chunkSize: FULL_READ_CHUNK, workers: this.settings().workers ?? 0, isCancelled: () => isCancelled() || run !== this.loadRun, onEarlyModel: early, earlyBytes: QUICK_LOOK_BYTES, checks, sessionParts: true, sessionPartsMaxBytes: !options.ignoreSizeLimit && limit > 0 ? limit : undefined }),
    ).catch((err: unknown) => {
      // A zip or an image: say what it is (reloading will not help).
      if (run === this.loadRun && err instanceof NotATraceError) this.fail(`${this.uri.path.split('/').pop()} ${err.what}.`, ['openAsText']);
      else if (run === this.loadRun) this.fail(`Cannot read the trace: ${errText(err)}`, ['reload', 'openAsText']);
      return null;
    });
    if (!reader || run !== this.loadRun) return;
    const model = reader.model;
    this.reader = reader;
    const notATrace = notATraceMessage(model);
    if (notATrace) return this.fail(notATrace, ['openAsText']);
    this.lastLoadMs = Date.now() - started;
    const cancelled = model.cancelled;
    const state: FileState = cancelled ? 'cancelled' : options.state ?? 'ready';
    const added = options.appendedTo !== undefined ? model.events.size - options.appendedTo : 0;
    const message = cancelled
      ? `Indexing was cancelled after ${(model.bytesIndexed / 2 ** 20).toFixed(1)} of ${(size / 2 ** 20).toFixed(1)} MB; showing the first ${model.events.size} events.`
      : options.appendedTo !== undefined
        ? `${added} new event${added === 1 ? '' : 's'}${options.message ? ` · ${options.message}` : ''}`
        : options.message ?? null;
    // Fingerprinted before the model is shown: a change made once it is on screen must differ from what was read.
    // A .gz is fingerprinted on its bytes on disk: its model's offsets are in the decompressed content.
    const fingerprint = await fingerprintFile(this.path, model.compression ? model.fileSize : model.bytesIndexed).catch(() => null);
    if (run !== this.loadRun) return;
    this.fingerprint = fingerprint;
    // A read after an append saw the file grow now; a first open, when it was last written.
    this.setModel(model, state, message, options.state === 'appended' ? Date.now() : writtenAt);
    // Not awaited: a live append is followed while the checks finish (blob rehashing can take a while).
    if (reader.checks) void this.takeChecks(run, model, reader.checks);
  }

  /**
   * The checks that ride along a first open or a reload (agentTrace.checkOnOpen, up to its size): the trace is then
   * read once for the rows and both verdicts. A live append is checked again over the new model (liveChecks.ts).
   */
  private checksOnRead(size: number, options: LoadRequest): RideAlongChecks | undefined {
    const on = this.settings().checkOnOpen;
    if (!on || options.quiet || options.state === 'appended' || size > on.maxBytes || this.uri.scheme !== 'file') return undefined;
    return { modes: OPEN_MODES, options: { rules: on.rules, blobOptions: on.blobOptions } };
  }

  /** Shows the results of the checks that rode along read `run`, once they finish, unless a newer read began. */
  private async takeChecks(run: number, model: TraceModel, pending: Promise<Map<CheckMode, CheckResult>>): Promise<void> {
    let results: Map<CheckMode, CheckResult>;
    try {
      results = await pending;
    } catch (err) {
      void vscode.window.showErrorMessage(`Agent Trace: cannot check ${vscode.workspace.asRelativePath(this.uri)}: ${errText(err)}`);
      return;
    }
    if (run !== this.loadRun) return;
    for (const [mode, result] of results) {
      if (result.cancelled) continue;
      this.setCheckResults(mode, result);
      this.checkedEmitter.fire({ mode, result, model });
    }
    // Events were appended while the checks finished: their results describe the shorter trace they read.
    if (this.modelValue !== model && results.size > 0) {
      for (const mode of results.keys()) this.staleChecks.add(mode);
      this.emitter.fire({ type: 'checksStale' });
    }
  }

  /** The first pages of the read that is still going on: shown at once, replayed to panels resolved later. */
  private showEarly(run: number, partial: TraceModel): void {
    if (run !== this.loadRun || this.modelValue) return;
    this.shownValue = { type: 'model', model: partial, state: 'loading', message: 'Showing the start of the file while the rest is indexed…' };
    this.emitter.fire(this.shownValue);
  }

  private async withProgress<T>(size: number, quiet: boolean, work: (onProgress: (b: number, s: number) => void, isCancelled: () => boolean) => Promise<T>): Promise<T> {
    let last = 0;
    const report = (b: number, s: number, extra?: (inc: number) => void) => {
      const now = Date.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      extra?.(b);
      this.emitter.fire({ type: 'progress', bytesRead: b, fileSize: s });
    };
    if (quiet) return work(() => undefined, () => false);
    if (size <= NOTIFY_ABOVE) return work((b, s) => report(b, s), () => false);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Indexing ${this.uri.path.split('/').pop()}`, cancellable: true },
      (progress, token) => {
        let reported = 0;
        return work(
          (b, s) =>
            report(b, s, () => {
              const pct = (b / Math.max(1, s)) * 100;
              progress.report({ increment: pct - reported, message: `${(b / 2 ** 20).toFixed(0)} of ${(s / 2 ** 20).toFixed(0)} MB` });
              reported = pct;
            }),
          () => token.isCancellationRequested,
        );
      },
    );
  }

  /**
   * Shows a complete model. `grewAt`: when the file last grew; a last line without its line break that did not parse
   * is then left out while the file may still be growing ({@link heldTail}), and shown (as the torn-tail warning)
   * once it stops (`settleTail`). Null shows the model as it is.
   */
  private setModel(model: TraceModel, state: FileState, message: string | null, grewAt: number | null = null): void {
    const open = grewAt !== null && state !== 'cancelled' && this.settings().liveUpdates && tailPending(grewAt, Date.now()) ? withoutOpenTail(model) : null;
    this.heldTail = open && { model, line: open.line, since: grewAt! };
    if (open) {
      model = open.model;
      message = `${message ? `${message} · ` : ''}line ${open.line} is still being written`;
    }
    this.modelValue = model;
    this.lastProblem = null;
    this.deleted = false;
    this.shownValue = { type: 'model', model, state, message };
    this.emitter.fire(this.shownValue);
    if (state === 'appended' && this.checkResults.size > 0) {
      for (const mode of this.checkResults.keys()) this.staleChecks.add(mode);
      this.emitter.fire({ type: 'checksStale' });
    }
    if (!isPartial(model)) {
      this.loadedEmitter.fire(model);
      for (const w of this.waiters.splice(0)) w(model);
    }
  }

  private fail(message: string, actions: ('reload' | 'openAsText' | 'openAnyway')[]): void {
    this.lastProblem = { type: 'error', message, actions };
    this.emitter.fire(this.lastProblem);
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  /** Starts following the file on disk (the VS Code watcher plus a slow poll, which also covers remote and odd file systems). */
  watch(): void {
    const dir = vscode.Uri.joinPath(this.uri, '..');
    const base = this.uri.path.slice(this.uri.path.lastIndexOf('/') + 1);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, base));
    const poke = () => this.scheduleCheck();
    this.disposables.push(watcher, watcher.onDidChange(poke), watcher.onDidCreate(poke), watcher.onDidDelete(poke));
    const poll = setInterval(poke, 1000);
    this.disposables.push({ dispose: () => clearInterval(poll) });
  }

  private scheduleCheck(): void {
    if (this.changeTimer) return;
    const wait = Math.max(250, Math.min(10_000, this.lastLoadMs * 2));
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      void this.checkForChange();
    }, wait);
  }

  private async checkForChange(): Promise<void> {
    if (this.loading) await this.loading;
    const fp = this.fingerprint;
    const model = this.modelValue;
    if (!fp || !model) return;
    let change: FileChange;
    try {
      // No live tail for a document or a .gz (gzip cannot be read from the middle): any change reloads it whole.
      change = (model.document || model.compression) && !this.deleted ? await this.documentChange(fp) : await classifyChange(this.path, fp);
    } catch (err) {
      this.fileState('unreadable', `The file can no longer be read: ${errText(err)}`);
      return;
    }
    await this.onChange(change, model);
  }

  private async documentChange(fp: FileFingerprint): Promise<FileChange> {
    const c = await classifyChange(this.path, fp);
    return c === 'appended' ? 'rewritten' : c;
  }

  private async onChange(change: FileChange, model: TraceModel): Promise<void> {
    if (change === 'unchanged') return this.settleTail();
    if (change === 'deleted') {
      if (!this.deleted) this.fileState('deleted', 'The file was deleted. Showing what was last read.');
      this.deleted = true;
      return;
    }
    if (this.deleted) change = 'rewritten';
    if (!this.settings().liveUpdates) {
      this.fileState(change, 'The file changed on disk. Reload to see the changes.');
      return;
    }
    if (change === 'appended') return this.followAppend(model);
    this.checkResults.clear();
    this.staleChecks.clear();
    this.emitter.fire({ type: 'clearChecks' });
    const what = change === 'truncated' ? 'truncated' : 'rewritten';
    // gzip cannot be read from the middle, so a growing .gz is read again whole: say so rather than "rewritten".
    const message = model.compression ? 'The compressed file changed on disk and has been read again from the start (a .gz has no live tail).' : `The file was ${what} on disk and has been reloaded.`;
    await this.load({ state: what, message });
  }

  /** The file stopped growing with its last line still open: that line is torn, and shown as the read found it. */
  private settleTail(): void {
    const held = this.heldTail;
    if (!held || tailPending(held.since, Date.now())) return;
    this.setModel(held.model, 'appended', `line ${held.line} has no line break and the file stopped growing: its write was cut off`);
  }

  /** Reads what was appended through the open reader; falls back to a whole read, saying why, when it cannot. */
  private async followAppend(model: TraceModel): Promise<void> {
    const reader = this.reader;
    const run = this.loadRun;
    if (!reader) return this.load({ quiet: true, state: 'appended', appendedTo: model.events.size });
    // The reader may grow the same table in place: count before.
    const before = model.events.size;
    const outcome = await reader.append().catch((err: unknown) => ({ kind: 'needs-full-read' as const, reason: errText(err) }));
    if (run !== this.loadRun) return;
    if (outcome.kind === 'unchanged') return;
    if (outcome.kind === 'needs-full-read') {
      this.lastAppendBytes = null;
      // A small file is read again in no time; a large one says why it was not followed from where it was.
      const message = model.fileSize > 1 << 20 ? `read again from the start: ${outcome.reason}` : null;
      return this.load({ quiet: true, state: 'appended', appendedTo: before, message });
    }
    this.lastAppendBytes = outcome.bytesRead;
    const added = outcome.model.events.size - before;
    // Fingerprinted before the model is shown (see doLoad): a rewrite right after this append is then seen.
    const fingerprint = await fingerprintFile(this.path, outcome.model.bytesIndexed).catch(() => null);
    if (run !== this.loadRun) return;
    this.fingerprint = fingerprint;
    this.setModel(outcome.model, 'appended', `${added} new event${added === 1 ? '' : 's'}`, Date.now());
  }

  private fileState(state: FileState, message: string): void {
    this.lastProblem = { type: 'fileState', state, message };
    this.emitter.fire(this.lastProblem);
  }

  /** Records check results and tells the panels. */
  setCheckResults(mode: CheckMode, result: CheckResult): void {
    this.checkResults.set(mode, result);
    this.staleChecks.delete(mode);
    this.emitter.fire({ type: 'checks', mode, result });
  }

  dispose(): void {
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.loadRun++;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    for (const d of this.disposables) d.dispose();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}

function isPartial(m: TraceModel): boolean {
  return (m as { partial?: boolean }).partial === true;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

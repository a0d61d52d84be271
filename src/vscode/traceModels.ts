import * as vscode from 'vscode';
import { loadTrace, LoadOptions, TraceModel } from '../core/loadTrace';
import type { IdLookup } from '../core/navigation';
import { idLookupOf } from '../viewer/sessionNavigation';

/** Where open viewer documents are found: the viewer's complete model of `uri`, or undefined when none holds it. */
export interface OpenTraceModels {
  loadedModel(uri: vscode.Uri): Promise<TraceModel | undefined>;
}

/** Reads a trace file into a model (the core's loader; tests count its calls). */
export type TraceLoader = (path: string, options?: LoadOptions) => Promise<TraceModel>;

interface Entry {
  mtime: number;
  size: number;
  model: Promise<TraceModel>;
}

/**
 * The one model cache of the extension: Go to Event, hovers, definitions, references and checks all ask it.
 * A trace open in the viewer is answered with the viewer's own model (its document follows the file, so that
 * model is current); any other file is read once and kept, keyed on URI, size and modification time. Id
 * lookups are built once per model ({@link idLookupOf}, shared with the viewer's navigation). Only `file:`
 * URIs are read (the core reads the disk itself).
 */
export class TraceModels {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly open: OpenTraceModels,
    private readonly load: TraceLoader = loadTrace,
  ) {}

  /** The model of a trace: the open viewer's, else a cached read of the file, else a new read. */
  async get(uri: vscode.Uri, options: LoadOptions = {}): Promise<TraceModel> {
    const shown = await this.open.loadedModel(uri);
    if (shown) return shown;
    return this.fromDisk(uri, options);
  }

  private async fromDisk(uri: vscode.Uri, options: LoadOptions): Promise<TraceModel> {
    const stat = await vscode.workspace.fs.stat(uri);
    const key = uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.mtime === stat.mtime && hit.size === stat.size && !options.isCancelled) return hit.model;
    const model = this.load(uri.fsPath, options);
    this.cache.set(key, { mtime: stat.mtime, size: stat.size, model });
    model.then(
      (m) => {
        if (m.cancelled || m.partial) this.cache.delete(key);
      },
      () => this.cache.delete(key),
    );
    return model;
  }

  /** The model and its id lookup (built on first use, once per model). */
  async lookup(uri: vscode.Uri): Promise<{ model: TraceModel; lookup: IdLookup }> {
    const model = await this.get(uri);
    return { model, lookup: idLookupOf(model) };
  }

  /** Forgets a file read from disk (after it changed on disk or was deleted). */
  forget(uri: vscode.Uri): void {
    this.cache.delete(uri.toString());
  }
}

/** Line lengths of a model's events and malformed lines, for diagnostic ranges. */
export function lineLengths(model: TraceModel): (line: number) => number {
  const lengths = new Map<number, number>();
  // The trace's own lines: a session's other files (TraceModel.parts) have their own.
  for (let i = 0; i < model.events.size; i++) if (model.events.partOf(i) === 0) lengths.set(model.events.lineOf(i), model.events.lengthOf(i));
  for (const m of model.malformed) lengths.set(m.line, m.length);
  return (line) => lengths.get(line) ?? 1;
}

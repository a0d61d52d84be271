import * as vscode from 'vscode';
import { loadTrace, LoadOptions, TraceModel } from '../../core/loadTrace';
import { IdLookup } from '../../core/navigation';

interface Entry {
  mtime: number;
  size: number;
  model: Promise<TraceModel>;
  lookup?: IdLookup;
}

/**
 * Caches loaded trace models by file, keyed on size and modification time, so hover, definition, commands
 * and checks share one read of each file. Only `file:` URIs are read (the core reads the disk itself).
 */
export class TraceModels {
  private readonly cache = new Map<string, Entry>();

  /** Loads (or reuses) the model of a trace file. */
  async get(uri: vscode.Uri, options: LoadOptions = {}): Promise<TraceModel> {
    const stat = await vscode.workspace.fs.stat(uri);
    const key = uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.mtime === stat.mtime && hit.size === stat.size && !options.isCancelled) return hit.model;
    const model = loadTrace(uri.fsPath, options);
    const entry: Entry = { mtime: stat.mtime, size: stat.size, model };
    this.cache.set(key, entry);
    model.then(
      (m) => {
        if (m.cancelled || m.partial) this.cache.delete(key);
      },
      () => this.cache.delete(key),
    );
    return model;
  }

  /** The id lookup of a trace, built on first use. */
  async lookup(uri: vscode.Uri): Promise<{ model: TraceModel; lookup: IdLookup }> {
    const model = await this.get(uri);
    const entry = this.cache.get(uri.toString());
    if (entry && !entry.lookup) entry.lookup = new IdLookup(model);
    return { model, lookup: entry?.lookup ?? new IdLookup(model) };
  }

  /** Forgets a file (after it changed on disk or was deleted). */
  forget(uri: vscode.Uri): void {
    this.cache.delete(uri.toString());
  }
}

/** Line lengths of a model's events and malformed lines, for diagnostic ranges. */
export function lineLengths(model: TraceModel): (line: number) => number {
  const lengths = new Map<number, number>();
  for (let i = 0; i < model.events.size; i++) lengths.set(model.events.lineOf(i), model.events.lengthOf(i));
  for (const m of model.malformed) lengths.set(m.line, m.length);
  return (line) => lengths.get(line) ?? 1;
}

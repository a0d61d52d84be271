/**
 * Search across sessions (issue 39, part 2): a full-text index of every session the catalog lists, one document per
 * line of a trace (per event span for a one-document trace), kept by an index store (core/sessions/searchStore.ts;
 * the CLI and the extension hand over SQLite FTS5, src/node/sqliteSearchStore.ts). What a document holds is made by
 * core/sessions/searchIndexer.ts from the loader's records, during the catalog's own read of the file: a file the
 * listing reads is not read again for the index. Queries are read by core/sessions/searchQuery.ts; snippets are made
 * from the text the index keeps, so a search reads no trace.
 *
 * Incremental by file stamp (path, size, time): an unchanged file costs a `stat` (the catalog's walk); a new or
 * changed file is read once (by the listing, or here when the listing had it from its cache and the index has not);
 * a file under the roots no longer listed loses its documents. A grown file the caller's listings follow
 * (core/sessions/sessionFollower.ts) adds its new lines' documents only; otherwise it is read again whole.
 */
import { loadTrace } from '../loadTrace';
import { pathSep } from '../io/paths';
import type { FormatName } from '../formatNames';
import type { FileReadWatch } from '../sessionUsage';
import type { TraceModel } from '../traceModel';
import { listSessions, stampOf, type SessionListing } from './sessionCatalog';
import { sameStamp, type FileStamp, type SessionCacheStore, type SessionRecord, type VerdictRules } from './sessionCache';
import { FileIndexer } from './searchIndexer';
import type { SessionFollower } from './sessionFollower';
import { compileQuery } from './searchQuery';
import { snippetOf } from './searchText';
import type { SearchField, SearchStore, StoredFile } from './searchStore';

export { SEARCH_FIELDS, type SearchField } from './searchStore';
export { fieldOf, textOf } from './searchText';

/** The file name the CLI and the extension keep the index under, in the same folder as the catalog's cache. */
export const SEARCH_INDEX_FILE = 'agent-trace-search.sqlite';

/** Bumped when the index's shape or what it holds changes: an older index is emptied and made again. */
export const SEARCH_INDEX_VERSION = 'search-4';

/** One hit of `agent-trace search --json`. */
export interface SearchHit {
  agent: FormatName;
  /** The file the line is in (a subagent's file for a subagent's line). */
  file: string;
  sessionId: string | null;
  /** 1-based line of the event in its file: the line the viewer shows. */
  line: number;
  field: SearchField;
  snippet: string;
}

/** The hits of one session, with what the listing knows of it. */
export interface SessionHits {
  agent: FormatName;
  /** The session's main file. */
  file: string;
  sessionId: string | null;
  title: string | null;
  startTime: string | null;
  endTime: string | null;
  hits: SearchHit[];
}

/** What {@link SessionSearchIndex.update} did. */
export interface IndexUpdate {
  listing: SessionListing;
  /** Trace files indexed (new or changed; by the listing's read or by one of its own), kept unchanged, discarded. */
  read: number;
  fromIndex: number;
  discarded: number;
  /** Trace files the index read itself (the listing had them from its cache), and their bytes. */
  readHere: number;
  bytesRead: number;
}

/** Options of {@link SessionSearchIndex.update}. */
export interface UpdateIndexOptions {
  roots: readonly string[];
  /** The catalog's cache (see listSessions). */
  cache?: SessionCacheStore;
  /** The rule overrides the catalog's verdicts are made with (see listSessions): the same as the view's, so the two share the cache. */
  rules?: VerdictRules;
  isCancelled?: () => boolean;
  /** After each trace file, how many of the files to look at are done. */
  onProgress?: (done: number, total: number) => void;
  /** The growing files the caller's listings follow (see listSessions). */
  follow?: SessionFollower;
}

/** A full-text index of sessions' lines, over a store the caller opens (and closes with {@link close}). */
export class SessionSearchIndex {
  /** Files indexed by path, as the store holds them (read from it once, by {@link ready}). */
  private readonly files = new Map<string, StoredFile>();
  /** Settled once {@link files} holds what the store had at its opening. */
  private readonly ready: Promise<void>;
  /** Files indexed during the current listing, riding its read. */
  private ridden = new Set<string>();

  constructor(private readonly store: SearchStore) {
    this.ready = Promise.resolve(store.files()).then((files) => {
      for (const f of files) this.files.set(f.stamp.path, f);
    });
    // A store that cannot be read fails each call that awaits `ready`, not the process (an unhandled rejection).
    this.ready.catch(() => undefined);
  }

  /** Documents and files indexed, and the index's bytes. */
  async size(): Promise<{ documents: number; files: number; bytes: number }> {
    await this.ready;
    return this.store.size();
  }

  /** Closes the store, once every write made before is kept. */
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.store.close();
  }

  /**
   * What the catalog's listing gives each file it reads (`listSessions`' `watchRead`): the file's documents are made
   * from that read's records and kept. A listing without search (`agent-trace sessions`) passes it too, so a later
   * search reads nothing the listing read.
   */
  readonly watchRead = async (path: string, listed?: FileStamp): Promise<FileReadWatch | undefined> => {
    try {
      await this.ready;
    } catch {
      return undefined;
    }
    // The listing's stamp, so an append's `after` is what the index holds of the file.
    const stamp = listed ?? (await stampOf(path));
    if (!stamp) return undefined;
    const indexer = new FileIndexer();
    return {
      onRecord: indexer.onRecord,
      done: (model, error, after) => {
        try {
          this.put(stamp, indexer, model, error, null, after);
          this.ridden.add(path);
        } catch {
          // A store that cannot be written costs the next search a read of this file, not this listing its answer.
        }
      },
    };
  };

  /**
   * Brings the index up to date with the sessions under the roots: lists them through the catalog (its cache, and
   * its reads of new or changed files, which index them as they are read), reads each listed file the index lacks
   * (the catalog had it from its cache), and discards the documents of files under the roots no longer listed.
   */
  async update(options: UpdateIndexOptions): Promise<IndexUpdate> {
    await this.ready;
    this.ridden = new Set();
    const listing = await listSessions({ roots: options.roots, cache: options.cache, rules: options.rules, isCancelled: options.isCancelled, watchRead: this.watchRead, follow: options.follow });
    const wanted = new Map<string, { stamp: FileStamp; rec: SessionRecord }>();
    for (const rec of listing.records) {
      wanted.set(rec.stamp.path, { stamp: rec.stamp, rec });
      for (const p of rec.parts) if (p.size >= 0) wanted.set(p.path, { stamp: p, rec });
    }
    const sep = pathSep();
    const under = (p: string) => options.roots.some((root) => p.startsWith(root.endsWith(sep) ? root : root + sep));
    let discarded = 0;
    let read = 0;
    let fromIndex = 0;
    const toRead: { stamp: FileStamp; rec: SessionRecord }[] = [];
    // What needs no read is settled in one unit of the store (one lock, one write).
    this.store.batch(() => {
      for (const path of [...this.files.keys()]) {
        if (!wanted.has(path) && under(path)) {
          this.store.removeFile(path);
          this.files.delete(path);
          discarded++;
        }
      }
      for (const w of wanted.values()) {
        const had = this.files.get(w.stamp.path);
        if (!had || !sameStamp(had.stamp, w.stamp)) toRead.push(w);
        else {
          if (this.ridden.has(w.stamp.path)) read++;
          else fromIndex++;
          this.refreshMeta(had, w.rec);
        }
      }
    });
    let readHere = 0;
    let bytesRead = 0;
    let done = wanted.size - toRead.length;
    for (const { stamp, rec } of toRead) {
      if (options.isCancelled?.()) break;
      await this.indexFile(stamp, rec);
      read++;
      readHere++;
      bytesRead += stamp.size;
      options.onProgress?.(++done, wanted.size);
      // Let the host's other work run between files (the extension host shares this thread).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.ridden = new Set();
    return { listing, read, fromIndex, discarded, readHere, bytesRead };
  }

  /** Keeps a file's documents, with what the listing says of its session (else what its model says). */
  private put(stamp: FileStamp, indexer: FileIndexer, model: TraceModel | null, error: string | null, rec: SessionRecord | null, after?: FileStamp): void {
    const e = rec?.entry;
    const file: StoredFile = {
      stamp, session: rec?.stamp.path ?? stamp.path, agent: e?.agent ?? model?.format ?? ('unknown' as FormatName), sessionId: e?.sessionId ?? null,
      title: e?.title ?? null, startTime: e?.startTime ?? null, endTime: e?.endTime ?? null, error,
    };
    if (after) {
      // An append's documents are its new lines': added to what the file had (a grown file costs its new bytes),
      // when the index holds the file as the read it continues saw it; else the index's update reads it whole.
      const had = this.files.get(stamp.path);
      if (!had || !sameStamp(had.stamp, after)) return;
      this.store.appendDocs(file, indexer.docs(model));
    } else this.store.putFile(file, indexer.docs(model));
    this.files.set(stamp.path, file);
  }

  private refreshMeta(f: StoredFile, rec: SessionRecord): void {
    const e = rec.entry;
    if (f.title === e.title && f.startTime === e.startTime && f.endTime === e.endTime && f.session === rec.stamp.path && f.agent === e.agent && f.sessionId === e.sessionId) return;
    Object.assign(f, { session: rec.stamp.path, agent: e.agent, sessionId: e.sessionId, title: e.title, startTime: e.startTime, endTime: e.endTime });
    this.store.setFile(f);
  }

  /** Reads one file the listing did not (its record came from the catalog's cache) and keeps its documents. */
  private async indexFile(stamp: FileStamp, rec: SessionRecord): Promise<void> {
    const indexer = new FileIndexer();
    let model: TraceModel | null = null;
    let error: string | null = null;
    try {
      model = await loadTrace(stamp.path, { onRecord: indexer.onRecord });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    this.put(stamp, indexer, model, error, rec);
  }

  /**
   * The hits of a query, grouped by session (newest first: by end, else start), each session's in line order, at
   * most `limit` hits in all. Throws {@link FilterError} (with a column) for a query that cannot be read.
   */
  async search(query: string, options: { limit?: number; since?: number; agent?: FormatName; now?: number } = {}): Promise<SessionHits[]> {
    await this.ready;
    const limit = Math.max(1, options.limit ?? 100);
    const q = compileQuery(query, { agents: await this.store.agents(), tools: await this.store.tools() }, options.now ?? Date.now());
    const narrow = [q.store];
    if (options.agent !== undefined) narrow.push({ agents: [options.agent] });
    if (options.since !== undefined) narrow.push({ since: options.since });
    const groups = new Map<string, SessionHits>();
    for (const h of await this.store.query(narrow.length === 1 ? q.store : { and: narrow }, limit)) {
      const f = h.file;
      let g = groups.get(f.session);
      if (!g) groups.set(f.session, (g = { agent: f.agent, file: f.session, sessionId: f.sessionId, title: f.title, startTime: f.startTime, endTime: f.endTime, hits: [] }));
      g.hits.push({ agent: f.agent, file: f.stamp.path, sessionId: f.sessionId, line: h.line, field: h.field, snippet: snippetOf(h.text, q.needles) });
    }
    return [...groups.values()];
  }

  /** Throws {@link FilterError} (with a column) when the query cannot be read; reads no file and no index. */
  static checkQuery(query: string): void {
    compileQuery(query, { agents: [], tools: [] }, Date.now());
  }
}

/**
 * The seam between the search across sessions (core/sessions/sessionSearch.ts) and where its index is kept: the core
 * says what to keep and what to find, an implementation keeps it (src/node/sqliteSearchStore.ts: SQLite FTS5 in a
 * file, through node-sqlite3-wasm). Like the seams of core/io, the core never names the implementation; the CLI and
 * the extension open one and hand it over. An implementation over a database file answers a query without loading the
 * index whole. Writes return nothing (an implementation may queue them); reads may be answered now or later. The
 * extension runs the store, with the listings that feed it, in a worker thread (src/node/sessionsWorker.ts), so the
 * extension host never waits on a read of a trace or a write of the index.
 */
import type { FormatName } from '../formatNames';
import type { FileStamp } from './sessionCache';

/** What a hit's text is. */
export type SearchField = 'prompt' | 'reply' | 'tool-input' | 'tool-output' | 'other';
export const SEARCH_FIELDS: readonly SearchField[] = ['prompt', 'reply', 'tool-input', 'tool-output', 'other'];

/** What the index keeps of one trace file: its stamp and what the listing knows of its session. */
export interface StoredFile {
  stamp: FileStamp;
  /** The session's main file (itself for a main file). */
  session: string;
  agent: FormatName;
  sessionId: string | null;
  title: string | null;
  startTime: string | null;
  endTime: string | null;
  /** Why the file could not be read, else null. */
  error: string | null;
}

/** One document: a line of a trace (an event's span of a one-document trace). */
export interface StoredDoc {
  /** 1-based line of the event in its file. */
  line: number;
  field: SearchField;
  tool: string | null;
  failed: boolean;
  /** The text searched (empty: none); for a field of 'other', kept for the snippet of a hit by field, not searched. */
  text: string;
}

/** What a query asks of a document, as a tree; `text` is words (each a prefix) or, quoted, a phrase. */
export type StoreQuery =
  | { and: StoreQuery[] }
  | { or: StoreQuery[] }
  | { not: StoreQuery }
  | { text: string; quoted: boolean }
  | { agents: string[] }
  | { tools: string[] }
  | { fields: SearchField[] }
  | { failed: boolean }
  /** The session's end (else start) at or after this time, in ms since the epoch. */
  | { since: number };

/** A document a query found, with its file. */
export interface StoreHit {
  file: StoredFile;
  line: number;
  field: SearchField;
  text: string;
}

/** A value now, or later. */
export type Maybe<T> = T | Promise<T>;

/** Where the index is kept. Reads see every write made before them. */
export interface SearchStore {
  /** The files indexed (no documents: what an update compares with the listing). */
  files(): Maybe<StoredFile[]>;
  /** Keeps a file's documents, in place of any it had. */
  putFile(file: StoredFile, docs: readonly StoredDoc[]): void;
  /**
   * Adds documents to a file's (the lines appended to it since it was kept), with its new stamp and session; a file
   * not kept yet is kept with these documents alone.
   */
  appendDocs(file: StoredFile, docs: readonly StoredDoc[]): void;
  /** Updates what is kept of a file's session (title, times) without its documents. */
  setFile(file: StoredFile): void;
  removeFile(path: string): void;
  /** Distinct agents and tool names indexed (the query's wildcards are matched against them). */
  agents(): Maybe<string[]>;
  tools(): Maybe<string[]>;
  /**
   * Documents matching, newest session first (by end, else start), then by session file, file and line; at most
   * `limit`.
   */
  query(q: StoreQuery, limit: number): Maybe<StoreHit[]>;
  /** Runs `f` (writes of this store, nothing asynchronous) as one unit: one write, one lock. */
  batch<T>(f: () => T): T;
  size(): Maybe<{ documents: number; files: number; bytes: number }>;
  /** Ends once every write made before it is kept. */
  close(): Maybe<void>;
}

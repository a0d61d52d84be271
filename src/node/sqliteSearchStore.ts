/**
 * The search index kept in SQLite (core/sessions/searchStore.ts is the seam): node-sqlite3-wasm, SQLite compiled to
 * WebAssembly with FTS5, over a real database file. No native module (the extension runs on every platform VS Code
 * does) and no whole-index load: opening the index reads its header, a query reads the pages it needs, an update
 * writes one file's rows in one transaction. sql.js was the other candidate: its build has no FTS5 (FTS3/4 only) and
 * it holds the database in memory, exported and imported whole, which is the cost this replaces (see
 * docs/architecture.md, Search figures).
 *
 * Tables: `files` (one row per trace file: stamp and its session's listing), `docs` (one row per document: file,
 * line, field, tool, failed; an 'other' document's head of text for its snippet), `tools` (names), and `fts`, an
 * FTS5 table over the searched text, its rowid the document's. The text is kept in `fts` itself: a hit's snippet is
 * made from it, no trace is read to search.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database, type Statement } from 'node-sqlite3-wasm';
import type { FormatName } from '../core/formatNames';
import { SEARCH_FIELDS, type SearchStore, type StoredDoc, type StoredFile, type StoreHit, type StoreQuery } from '../core/sessions/searchStore';

/** Characters of an 'other' document's text kept for its snippet (it is not searched). */
const HEAD_CHARS = 200;
/** A lock folder older than this is one a process left when it ended mid-write. */
const STALE_LOCK_MS = 60_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime REAL, session TEXT, agent TEXT,
  session_id TEXT, title TEXT, start_time TEXT, end_time TEXT, time REAL, error TEXT);
CREATE TABLE IF NOT EXISTS tools(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS docs(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, line INTEGER NOT NULL, field INTEGER NOT NULL,
  tool INTEGER, failed INTEGER NOT NULL, head TEXT);
CREATE INDEX IF NOT EXISTS docs_file ON docs(file);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`;

type Row = Record<string, unknown>;

/**
 * Opens (or makes) the index at `file`; null: an index in memory, kept for this process only. An index of another
 * `version`, or a file that is no database, is emptied and made again.
 */
export function openSqliteSearchStore(file: string | null, version: string): SearchStore {
  if (file === null) return new SqliteSearchStore(new Database(), version);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  dropStaleLock(file);
  try {
    return new SqliteSearchStore(new Database(file), version);
  } catch {
    // Not a database (a damaged or foreign file): the index is a cache, made again.
    for (const f of [file, `${file}-journal`]) fs.rmSync(f, { force: true });
    return new SqliteSearchStore(new Database(file), version);
  }
}

/** node-sqlite3-wasm locks with a folder beside the file; a process killed mid-write leaves it behind. */
function dropStaleLock(file: string): void {
  try {
    const st = fs.statSync(`${file}.lock`);
    if (Date.now() - st.mtimeMs > STALE_LOCK_MS) fs.rmdirSync(`${file}.lock`);
  } catch {
    // No lock.
  }
}

class SqliteSearchStore implements SearchStore {
  private readonly statements = new Map<string, Statement>();
  private toolIds = new Map<string, number>();

  constructor(private readonly db: Database, version: string) {
    // FTS5's segment merges read back what it wrote: a page cache of 64 MiB (SQLite's default is 2 MiB) keeps them
    // in memory while an index is built. The index is a cache made again from the traces: no fsync per file's
    // transaction (an eighth of a listing's time, most of its wall time on a busy disk); the journal is kept (not
    // deleted per transaction), so a killed process still rolls back; only a power cut mid-write can damage it.
    db.exec('PRAGMA synchronous = OFF; PRAGMA journal_mode = PERSIST; PRAGMA cache_size = -65536');
    db.exec(SCHEMA);
    const kept = db.get(`SELECT value FROM meta WHERE key = 'version'`) as Row | null;
    if (kept?.value !== version) {
      db.exec('DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS tools; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS meta;');
      db.exec(SCHEMA);
      db.run(`INSERT INTO meta(key, value) VALUES ('version', ?)`, [version]);
    }
    for (const r of db.all('SELECT id, name FROM tools') as Row[]) this.toolIds.set(String(r.name), Number(r.id));
  }

  private st(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /** One transaction (one lock: node-sqlite3-wasm takes the file's lock folder per transaction, a statement alone is one). */
  private inTransaction<T>(f: () => T): T {
    if (this.db.inTransaction) return f();
    this.db.exec('BEGIN');
    try {
      const out = f();
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  batch<T>(f: () => T): T {
    return this.inTransaction(f);
  }

  files(): StoredFile[] {
    return (this.db.all('SELECT * FROM files') as Row[]).map(fileOf);
  }

  putFile(file: StoredFile, docs: readonly StoredDoc[]): void {
    this.inTransaction(() => {
      this.remove(file.stamp.path);
      const id = Number(this.st(`INSERT INTO files(path, size, mtime, session, agent, session_id, title, start_time, end_time, time, error)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(fileValues(file)).lastInsertRowid);
      this.insertDocs(id, docs);
    });
  }

  appendDocs(file: StoredFile, docs: readonly StoredDoc[]): void {
    this.inTransaction(() => {
      const row = this.st('SELECT id FROM files WHERE path = ?').get([file.stamp.path]) as Row | null;
      if (!row) return this.putFile(file, docs);
      this.st('UPDATE files SET size = ?, mtime = ?, session = ?, agent = ?, session_id = ?, title = ?, start_time = ?, end_time = ?, time = ?, error = ? WHERE id = ?')
        .run([...fileValues(file).slice(1), row.id as number]);
      this.insertDocs(row.id as number, docs);
    });
  }

  private insertDocs(id: number, docs: readonly StoredDoc[]): void {
    const doc = this.st('INSERT INTO docs(file, line, field, tool, failed, head) VALUES (?, ?, ?, ?, ?, ?)');
    const text = this.st('INSERT INTO fts(rowid, text) VALUES (?, ?)');
    const other = SEARCH_FIELDS.indexOf('other');
    for (const d of docs) {
      const field = SEARCH_FIELDS.indexOf(d.field);
      const head = field === other && d.text !== '' ? d.text.slice(0, HEAD_CHARS) : null;
      const rowid = doc.run([id, d.line, field, d.tool === null ? null : this.toolId(d.tool), d.failed ? 1 : 0, head]).lastInsertRowid;
      if (field !== other && d.text !== '') text.run([rowid, d.text]);
    }
  }

  setFile(file: StoredFile): void {
    this.st('UPDATE files SET session = ?, agent = ?, session_id = ?, title = ?, start_time = ?, end_time = ?, time = ? WHERE path = ?')
      .run([file.session, file.agent, file.sessionId, file.title, file.startTime, file.endTime, timeOf(file), file.stamp.path]);
  }

  removeFile(path: string): void {
    this.inTransaction(() => this.remove(path));
  }

  private remove(path: string): void {
    const row = this.st('SELECT id FROM files WHERE path = ?').get([path]) as Row | null;
    if (!row) return;
    this.st('DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE file = ?)').run([row.id as number]);
    this.st('DELETE FROM docs WHERE file = ?').run([row.id as number]);
    this.st('DELETE FROM files WHERE id = ?').run([row.id as number]);
  }

  private toolId(name: string): number {
    let id = this.toolIds.get(name);
    if (id === undefined) {
      id = Number(this.st('INSERT INTO tools(name) VALUES (?)').run([name]).lastInsertRowid);
      this.toolIds.set(name, id);
    }
    return id;
  }

  agents(): string[] {
    return (this.db.all('SELECT DISTINCT agent FROM files') as Row[]).map((r) => String(r.agent));
  }

  tools(): string[] {
    return [...this.toolIds.keys()];
  }

  query(q: StoreQuery, limit: number): StoreHit[] {
    return this.inTransaction(() => this.queryIn(q, limit));
  }

  private queryIn(q: StoreQuery, limit: number): StoreHit[] {
    const params: (string | number)[] = [];
    const where = predicate(q, params);
    // The matches are sorted with their keys alone, and only the `limit` kept are joined with their columns: a
    // common word's thousands of matches no longer carry every file's row through the sort.
    const rows = this.db.all(
      `SELECT d.id AS doc, d.line, d.field, d.head, f.* FROM (
         SELECT d.id AS id, f.time AS t, f.session AS s, f.path AS p, d.line AS l FROM docs d JOIN files f ON f.id = d.file
         WHERE ${where} ORDER BY t DESC, s, p, l LIMIT ?
       ) k JOIN docs d ON d.id = k.id JOIN files f ON f.id = d.file ORDER BY k.t DESC, k.s, k.p, k.l`, [...params, limit]) as Row[];
    const text = this.st('SELECT text FROM fts WHERE rowid = ?');
    const files = new Map<string, StoredFile>();
    return rows.map((r) => {
      const p = String(r.path);
      let file = files.get(p);
      if (!file) files.set(p, (file = fileOf(r)));
      const field = SEARCH_FIELDS[Number(r.field)];
      const body = field === 'other' ? (r.head as string | null) ?? '' : String((text.get([r.doc as number]) as Row | null)?.text ?? '');
      return { file, line: Number(r.line), field, text: body };
    });
  }

  size(): { documents: number; files: number; bytes: number } {
    const n = (sql: string) => Number((this.db.get(sql) as Row).n);
    const pages = n('SELECT page_count AS n FROM pragma_page_count()');
    return { documents: n('SELECT count(*) AS n FROM docs'), files: n('SELECT count(*) AS n FROM files'), bytes: pages * n('SELECT page_size AS n FROM pragma_page_size()') };
  }

  close(): void {
    for (const s of this.statements.values()) s.finalize();
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}

/** The SQL condition of a query on `d` (docs) and `f` (files), its values pushed to `params` in order. */
function predicate(q: StoreQuery, params: (string | number)[]): string {
  const list = (values: readonly (string | number)[]) => {
    params.push(...values);
    return values.map(() => '?').join(', ');
  };
  if ('and' in q) return q.and.length === 0 ? '1' : q.and.map((x) => `(${predicate(x, params)})`).join(' AND ');
  if ('or' in q) return q.or.length === 0 ? '0' : q.or.map((x) => `(${predicate(x, params)})`).join(' OR ');
  if ('not' in q) return `NOT (${predicate(q.not, params)})`;
  if ('text' in q) {
    const match = ftsMatch(q.text, q.quoted);
    if (match === null) return '0';
    params.push(match);
    return 'd.id IN (SELECT rowid FROM fts WHERE fts MATCH ?)';
  }
  if ('agents' in q) return q.agents.length === 0 ? '0' : `f.agent IN (${list(q.agents)})`;
  if ('tools' in q) return q.tools.length === 0 ? '0' : `d.tool IN (SELECT id FROM tools WHERE name IN (${list(q.tools)}))`;
  if ('fields' in q) return q.fields.length === 0 ? '0' : `d.field IN (${list(q.fields.map((x) => SEARCH_FIELDS.indexOf(x)))})`;
  if ('failed' in q) return `d.failed = ${q.failed ? 1 : 0}`;
  params.push(q.since);
  return 'f.time >= ?';
}

/**
 * An FTS5 expression: a quoted text is a phrase (its words in order); bare words must all be there, each as a word
 * or the start of one. Each word is given as an FTS5 string, so nothing the user types is read as FTS5's syntax.
 * Null when the text has no word at all (only punctuation).
 */
export function ftsMatch(text: string, quoted: boolean): string | null {
  const str = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const wordy = (s: string) => /[\p{L}\p{N}]/u.test(s);
  if (quoted) return wordy(text) ? str(text) : null;
  const words = text.split(/\s+/).filter(wordy);
  return words.length === 0 ? null : words.map((w) => `${str(w)}*`).join(' AND ');
}

function fileValues(f: StoredFile): (string | number | null)[] {
  return [f.stamp.path, f.stamp.size, f.stamp.mtimeMs, f.session, f.agent, f.sessionId, f.title, f.startTime, f.endTime, timeOf(f), f.error];
}

function timeOf(f: StoredFile): number {
  return Date.parse(f.endTime ?? f.startTime ?? '') || 0;
}

function fileOf(r: Row): StoredFile {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    stamp: { path: String(r.path), size: Number(r.size), mtimeMs: Number(r.mtime) },
    session: String(r.session),
    agent: String(r.agent) as FormatName,
    sessionId: s(r.session_id),
    title: s(r.title),
    startTime: s(r.start_time),
    endTime: s(r.end_time),
    error: s(r.error),
  };
}

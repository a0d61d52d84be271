/**
 * Search across sessions (issue 39, part 2): a full-text index of every session the catalog lists, one document per
 * line of a trace (per event span for a one-document trace) holding the text of its JSON strings, kept in MiniSearch
 * (pure JavaScript, so it runs here and in the extension host; its index serialises to JSON; documents are added and
 * discarded one file at a time). The index keeps no text: per document it keeps where it is (file, line, offset,
 * length), what it is (prompt, reply, tool input or output) and its tool and status; a hit's snippet is made at search
 * time from that one line, read again through the I/O seam.
 *
 * Queries are written in the viewer's filter language (its parser, core/filter): bare words and `text:` are text
 * (prefix matching; a quoted phrase must appear as written), `agent:`, `tool:`, `status:`, `field:` and `since:` narrow.
 *
 * Incremental: a file is indexed again only when its size or time changed (as the catalog's cache decides); a file
 * no longer listed loses its documents. A grown file is indexed again whole: a new process cannot resume a format's
 * builder where it stopped (core/treeAppend.ts appends only to a model held in memory).
 */
import MiniSearch from 'minisearch';
import { loadTrace } from '../loadTrace';
import { readRanges } from '../byteSource';
import { pathSep } from '../io/paths';
import { parseFilter } from '../filter/filterParser';
import { FilterError, type FilterNode, type FilterTerm } from '../filter/filterSyntax';
import { compileGlob } from '../filter/filterCompile';
import type { FormatName } from '../formatNames';
import type { TraceModel } from '../traceModel';
import { listSessions, type SessionListing } from './sessionCatalog';
import { sameStamp, type FileStamp, type SessionCacheStore, type SessionRecord, type VerdictRules } from './sessionCache';
import { parseSince } from './usageOverTime';

/** The file name the CLI and the extension keep the index under, in the same folder as the catalog's cache. */
export const SEARCH_INDEX_FILE = 'agent-trace-search.json';

/** Bumped when the index's shape or what it holds changes: an older index is dropped whole. */
const INDEX_VERSION = 2;

/** What a hit's text is. */
export type SearchField = 'prompt' | 'reply' | 'tool-input' | 'tool-output' | 'other';
export const SEARCH_FIELDS: readonly SearchField[] = ['prompt', 'reply', 'tool-input', 'tool-output', 'other'];

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

/** Characters of a line's strings indexed, at most: enough for a prompt or the head of a tool's output. */
const INDEX_CHARS = 4096;
/** Terms longer than this (hashes, base64, minified code) are not indexed. */
const MAX_TERM = 40;
/** Characters of a snippet either side of the match. */
const SNIPPET_SIDE = 60;
/** Keys whose strings are ids, times or metadata, not what anyone searches for. */
const SKIP_KEY = /^(?:uuid|parentuuid|id|.*_id|.*Id|timestamp|time|type|role|version|cwd|gitbranch|signature|hash|sha|sha256|digest|model|status|encrypted_content|mediatype|media_type|provenance)$/i;

/** Strings that are a time, an id or a hash whatever their key: never searched for as words. */
const NOT_TEXT = /^(?:\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|[a-z]+_[0-9a-z]{16,})$/i;

const MINI_OPTIONS = {
  fields: ['text'],
  storeFields: [] as string[],
  processTerm: (term: string): string | null => {
    if (term.length === 0 || term.length > MAX_TERM) return null;
    return term.toLowerCase();
  },
  autoVacuum: false,
};

/** The documents of one indexed file: columns, one entry per document, ids `firstId`, `firstId + 1`, … */
interface IndexedFile {
  stamp: FileStamp;
  /** The session's main file (itself for a main file). */
  session: string;
  agent: FormatName;
  sessionId: string | null;
  title: string | null;
  startTime: string | null;
  endTime: string | null;
  firstId: number;
  lines: number[];
  offsets: number[];
  lengths: number[];
  /** Index into SEARCH_FIELDS. */
  fields: number[];
  /** Index into the index's tool names, -1 for none. */
  tools: number[];
  /** 1 for an event that failed. */
  errors: number[];
  /** Why the file could not be read, else null. */
  error: string | null;
  /** The file is one JSON document: its documents are the parts of it under each event's line (documentSpans). */
  document?: boolean;
}

interface IndexText {
  key: string;
  nextId: number;
  toolNames: string[];
  files: IndexedFile[];
  mini: unknown;
}

/** What {@link updateSearchIndex} did. */
export interface IndexUpdate {
  listing: SessionListing;
  /** Trace files read (new or changed), kept from the index unchanged, and whose documents were discarded. */
  read: number;
  fromIndex: number;
  discarded: number;
  /** Bytes of the trace files read. */
  bytesRead: number;
}

/** Options of {@link updateSearchIndex}. */
export interface UpdateIndexOptions {
  roots: readonly string[];
  /** The catalog's cache (see listSessions). */
  cache?: SessionCacheStore;
  /** The rule overrides the catalog's verdicts are made with (see listSessions): the same as the view's, so the two share the cache. */
  rules?: VerdictRules;
  isCancelled?: () => boolean;
  /** After each trace file, how many of the files to look at are done. */
  onProgress?: (done: number, total: number) => void;
}

/** A full-text index of sessions' lines; load it with {@link SessionSearchIndex.open}, keep it with `save`. */
export class SessionSearchIndex {
  private mini: MiniSearch;
  private files = new Map<string, IndexedFile>();
  /** Files by first id, for finding a document's file. */
  private byId: IndexedFile[] | null = null;
  private toolNames: string[] = [];
  private toolIds = new Map<string, number>();
  private nextId = 1;
  private dirty = false;

  private constructor(private readonly store: SessionCacheStore | undefined) {
    this.mini = new MiniSearch(MINI_OPTIONS);
  }

  /** The index the store holds (an empty one when it holds none, or one of another version, or a damaged one). */
  static async open(store?: SessionCacheStore): Promise<SessionSearchIndex> {
    const index = new SessionSearchIndex(store);
    const text = store ? await store.read().catch(() => null) : null;
    if (text) {
      try {
        const v = JSON.parse(text) as IndexText;
        if (v.key === indexKey() && Array.isArray(v.files)) {
          index.mini = MiniSearch.loadJS(v.mini as never, MINI_OPTIONS);
          index.nextId = v.nextId;
          index.toolNames = v.toolNames;
          v.toolNames.forEach((t, k) => index.toolIds.set(t, k));
          for (const f of v.files) index.files.set(f.stamp.path, f);
        }
      } catch {
        // A damaged index is no index: every file is read again.
        index.mini = new MiniSearch(MINI_OPTIONS);
        index.files.clear();
      }
    }
    return index;
  }

  /** Documents indexed, and files. */
  get size(): { documents: number; files: number } {
    let documents = 0;
    for (const f of this.files.values()) documents += f.lines.length;
    return { documents, files: this.files.size };
  }

  /** Writes the index to its store, when it changed. Returns the length of the text written (0: nothing written). */
  async save(): Promise<number> {
    if (!this.store || !this.dirty) return 0;
    if (this.mini.dirtCount > 0) await this.mini.vacuum();
    const body: IndexText = { key: indexKey(), nextId: this.nextId, toolNames: this.toolNames, files: [...this.files.values()], mini: this.mini.toJSON() };
    const text = JSON.stringify(body);
    await this.store.write(text);
    this.dirty = false;
    return text.length;
  }

  /**
   * Brings the index up to date with the sessions under the roots: lists them (through the catalog and its cache),
   * reads each new or changed file (main files and their subagents' files) once through the loader, and discards
   * the documents of files under the roots that are no longer listed. Saves when done (unless cancelled).
   */
  async update(options: UpdateIndexOptions): Promise<IndexUpdate> {
    const listing = await listSessions({ roots: options.roots, cache: options.cache, rules: options.rules, isCancelled: options.isCancelled });
    const wanted = new Map<string, { stamp: FileStamp; rec: SessionRecord }>();
    for (const rec of listing.records) {
      wanted.set(rec.stamp.path, { stamp: rec.stamp, rec });
      for (const p of rec.parts) if (p.size >= 0) wanted.set(p.path, { stamp: p, rec });
    }
    const sep = pathSep();
    const under = (p: string) => options.roots.some((root) => p.startsWith(root.endsWith(sep) ? root : root + sep));
    let discarded = 0;
    for (const [path, f] of [...this.files]) {
      const w = wanted.get(path);
      if ((w === undefined && under(path)) || (w !== undefined && !sameStamp(w.stamp, f.stamp))) {
        this.discard(f);
        discarded++;
      } else if (w !== undefined) {
        this.refreshMeta(f, w.rec);
      }
    }
    let read = 0;
    let fromIndex = 0;
    let bytesRead = 0;
    let done = 0;
    for (const { stamp, rec } of wanted.values()) {
      if (options.isCancelled?.()) break;
      if (this.files.has(stamp.path)) fromIndex++;
      else {
        await this.indexFile(stamp, rec);
        read++;
        bytesRead += stamp.size;
        // Let the host's other work run between files (the extension host shares this thread).
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      options.onProgress?.(++done, wanted.size);
    }
    this.byId = null;
    if (!options.isCancelled?.()) await this.save();
    return { listing, read, fromIndex, discarded, bytesRead };
  }

  private discard(f: IndexedFile): void {
    const ids: number[] = [];
    for (let k = 0; k < f.lines.length; k++) if (this.mini.has(f.firstId + k)) ids.push(f.firstId + k);
    if (ids.length > 0) this.mini.discardAll(ids);
    this.files.delete(f.stamp.path);
    this.byId = null;
    this.dirty = true;
  }

  private refreshMeta(f: IndexedFile, rec: SessionRecord): void {
    const e = rec.entry;
    if (f.title === e.title && f.startTime === e.startTime && f.endTime === e.endTime && f.session === rec.stamp.path) return;
    Object.assign(f, { session: rec.stamp.path, agent: e.agent, sessionId: e.sessionId, title: e.title, startTime: e.startTime, endTime: e.endTime });
    this.dirty = true;
  }

  /** Reads one file through the loader and adds a document per line (per event span for a one-document trace). */
  private async indexFile(stamp: FileStamp, rec: SessionRecord): Promise<void> {
    const e = rec.entry;
    const f: IndexedFile = {
      stamp, session: rec.stamp.path, agent: e.agent, sessionId: e.sessionId, title: e.title, startTime: e.startTime, endTime: e.endTime,
      firstId: this.nextId, lines: [], offsets: [], lengths: [], fields: [], tools: [], errors: [], error: null,
    };
    const texts: string[] = [];
    /** Per document, 1 when its line is written as the user's (a prompt, unless its event is a tool's). */
    const users: number[] = [];
    const byLine = new Map<number, number>();
    let model: TraceModel;
    try {
      model = await loadTrace(stamp.path, {
        onRecord: (r) => {
          // One document per line, made as the line is read: its strings, not the line's bytes, are indexed.
          if (r.locate) return;
          byLine.set(r.line, f.lines.length);
          f.lines.push(r.line);
          f.offsets.push(r.offset);
          f.lengths.push(r.length);
          texts.push(textOf(r.value));
          users.push(isUsers(r.value, 0) ? 1 : 0);
        },
      });
      f.document = model.document || undefined;
      if (model.document) await this.documentSpans(model, f, texts, users, byLine);
      this.classify(model, f, byLine, users);
    } catch (err) {
      f.error = err instanceof Error ? err.message : String(err);
    }
    for (let k = f.fields.length; k < f.lines.length; k++) {
      f.fields.push(SEARCH_FIELDS.indexOf('other'));
      f.tools.push(-1);
      f.errors.push(0);
    }
    // Text is indexed for prompts, replies and tools' input and output; the rest (metadata, the requests a writer logs
    // whole, every earlier message again) is kept for tool:, status: and field: alone.
    const other = SEARCH_FIELDS.indexOf('other');
    for (let k = 0; k < texts.length; k++) if (texts[k] !== '' && f.fields[k] !== other) this.mini.add({ id: f.firstId + k, text: texts[k] });
    this.nextId += f.lines.length;
    this.files.set(stamp.path, f);
    this.dirty = true;
  }

  /**
   * A one-document trace (Continue's session, a JSON export): its events all span the document, so each event's line
   * is a document holding the strings from that line up to the next event's (read again from the file, once).
   */
  private async documentSpans(model: TraceModel, f: IndexedFile, texts: string[], users: number[], byLine: Map<number, number>): Promise<void> {
    const t = model.events;
    const lines: number[] = [];
    for (let i = 0; i < t.size; i++) if (t.partOf(i) === 0) lines.push(t.lineOf(i));
    const starts = [...new Set(lines)].sort((a, b) => a - b);
    const [buf] = await readRanges(model.path, model.path.endsWith('.gz') ? 'gzip' : null, [[0, model.bytesIndexed]]);
    const parts = documentParts(buf.toString('utf8'), starts);
    for (const line of starts) {
      byLine.set(line, f.lines.length);
      f.lines.push(line);
      f.offsets.push(0);
      f.lengths.push(model.bytesIndexed);
      const values = parts.get(line) ?? [];
      texts.push(textOf(values));
      users.push(values.some((v) => isUsers(v, 0)) ? 1 : 0);
    }
  }

  /** Each document's field, tool and status, from the events read from its line. */
  private classify(model: TraceModel, f: IndexedFile, byLine: ReadonlyMap<number, number>, users: readonly number[]): void {
    const t = model.events;
    const other = SEARCH_FIELDS.indexOf('other');
    f.fields = f.lines.map(() => other);
    f.tools = f.lines.map(() => -1);
    f.errors = f.lines.map(() => 0);
    for (let i = 0; i < t.size; i++) {
      if (t.partOf(i) !== 0) continue;
      const k = byLine.get(t.lineOf(i));
      if (k === undefined) continue;
      const field = SEARCH_FIELDS.indexOf(fieldOf(t.categoryOf(i), t.kindOf(i), users[k] === 1));
      if (f.fields[k] === other || field < f.fields[k]) f.fields[k] = field;
      const tool = t.toolOf(i);
      if (tool !== null && f.tools[k] === -1) f.tools[k] = this.toolId(tool);
      if (t.statusOf(i) === 'error') f.errors[k] = 1;
    }
  }

  private toolId(name: string): number {
    let id = this.toolIds.get(name);
    if (id === undefined) {
      id = this.toolNames.push(name) - 1;
      this.toolIds.set(name, id);
    }
    return id;
  }

  /**
   * The hits of a query, grouped by session (newest first: by end, else start), each session's in line order, at
   * most `limit` hits in all. Throws {@link FilterError} (with a column) for a query that cannot be read.
   */
  async search(query: string, options: { limit?: number; since?: number; agent?: FormatName; now?: number } = {}): Promise<SessionHits[]> {
    const limit = Math.max(1, options.limit ?? 100);
    SessionSearchIndex.checkQuery(query);
    const ast = parseFilter(query)!;
    const now = options.now ?? Date.now();
    const texts: TextTerm[] = [];
    const test = this.compile(ast, texts, now);
    const files = this.idOrder();
    // Documents that can match: those a text term needs, when the query needs one; else every document.
    const required = requiredSet(ast, texts);
    const candidates: number[] = [];
    if (required) candidates.push(...required);
    else for (const f of files) for (let k = 0; k < f.lines.length; k++) candidates.push(f.firstId + k);
    // Each file's session time, parsed once (a sort compares it many times).
    const times = new Map<IndexedFile, number>();
    for (const f of files) times.set(f, Date.parse(f.endTime ?? f.startTime ?? '') || 0);
    const sessionTime = (f: IndexedFile) => times.get(f)!;
    const matched: { f: IndexedFile; k: number }[] = [];
    for (const id of candidates) {
      const f = this.fileOf(id, files);
      if (!f) continue;
      const k = id - f.firstId;
      if (options.agent !== undefined && f.agent !== options.agent) continue;
      if (options.since !== undefined && sessionTime(f) < options.since) continue;
      if (test({ f, k, id })) matched.push({ f, k });
    }
    matched.sort((a, b) => sessionTime(b.f) - sessionTime(a.f) || cmp(a.f.session, b.f.session) || cmp(a.f.stamp.path, b.f.stamp.path) || a.f.lines[a.k] - b.f.lines[b.k]);
    const phrases = texts.filter((t) => t.quoted && !t.negated).map((t) => t.value.toLowerCase());
    const words = texts.filter((t) => !t.negated).flatMap((t) => t.value.toLowerCase().split(/\s+/)).filter((w) => w !== '');
    const groups = new Map<string, SessionHits>();
    let count = 0;
    // Lines are read again for their snippets, each file opened once per batch; a quoted phrase is checked in the
    // line itself (the index knows words, not their order), so more lines than hits may be read, up to a bound.
    let next = 0;
    const bound = Math.min(matched.length, limit * 20);
    while (count < limit && next < bound) {
      const batch = matched.slice(next, Math.min(bound, next + (limit - count) * (phrases.length > 0 ? 4 : 1)));
      next += batch.length;
      const texts = await lineTexts(batch);
      for (let b = 0; b < batch.length && count < limit; b++) {
        const { f, k } = batch[b];
        const text = texts[b];
        if (text === null) continue;
        const low = text.toLowerCase();
        if (!phrases.every((p) => low.includes(p))) continue;
        let g = groups.get(f.session);
        if (!g) {
          g = { agent: f.agent, file: f.session, sessionId: f.sessionId, title: f.title, startTime: f.startTime, endTime: f.endTime, hits: [] };
          groups.set(f.session, g);
        }
        g.hits.push({ agent: f.agent, file: f.stamp.path, sessionId: f.sessionId, line: f.lines[k], field: SEARCH_FIELDS[f.fields[k]], snippet: snippetOf(text, low, phrases.length > 0 ? phrases : words) });
        count++;
      }
    }
    return [...groups.values()];
  }

  /** Throws {@link FilterError} (with a column) when the query cannot be read; reads no file. */
  static checkQuery(query: string): void {
    const ast = parseFilter(query);
    if (!ast) throw new FilterError('an empty query: give words to look for, or fields (agent:, tool:, status:, field:, since:)', 1);
    new SessionSearchIndex(undefined).compile(ast, [], Date.now());
  }

  /** The files by first id. */
  private idOrder(): IndexedFile[] {
    if (!this.byId) this.byId = [...this.files.values()].sort((a, b) => a.firstId - b.firstId);
    return this.byId;
  }

  private fileOf(id: number, files: IndexedFile[]): IndexedFile | null {
    let lo = 0;
    let hi = files.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = files[mid];
      if (id < f.firstId) hi = mid - 1;
      else if (id >= f.firstId + f.lines.length) lo = mid + 1;
      else return f;
    }
    return null;
  }

  private compile(n: FilterNode, texts: TextTerm[], now: number, negated = false): DocTest {
    switch (n.type) {
      case 'and': {
        const parts = n.items.map((x) => this.compile(x, texts, now, negated));
        return (d) => parts.every((p) => p(d));
      }
      case 'or': {
        const parts = n.items.map((x) => this.compile(x, texts, now, negated));
        return (d) => parts.some((p) => p(d));
      }
      case 'not': {
        const inner = this.compile(n.item, texts, now, !negated);
        return (d) => !inner(d);
      }
      case 'term':
        return this.compileTerm(n, texts, now, negated);
    }
  }

  private compileTerm(t: FilterTerm, texts: TextTerm[], now: number, negated: boolean): DocTest {
    if (t.field !== 'since' && t.op !== ':' && t.op !== '=') throw new FilterError(`"${t.field}" takes ":" (not "${t.op}")`, t.column);
    switch (t.field) {
      case 'text': {
        const term: TextTerm = { value: t.value, quoted: t.quoted, negated, ids: this.textIds(t.value, t.quoted) };
        texts.push(term);
        return (d) => term.ids.has(d.id);
      }
      case 'agent': {
        const m = alternatives(t);
        return (d) => m(d.f.agent);
      }
      case 'tool': {
        const m = alternatives(t);
        return (d) => d.f.tools[d.k] >= 0 && m(this.toolNames[d.f.tools[d.k]]);
      }
      case 'field': {
        const wanted = new Set(t.value.split(',').map((v) => v.toLowerCase()));
        for (const v of wanted) if (!(SEARCH_FIELDS as readonly string[]).includes(v)) throw new FilterError(`unknown field "${v}" (${SEARCH_FIELDS.join(', ')})`, t.valueColumn);
        return (d) => wanted.has(SEARCH_FIELDS[d.f.fields[d.k]]);
      }
      case 'status': {
        const v = t.value.toLowerCase();
        if (v === 'error' || v === 'errors') return (d) => d.f.errors[d.k] === 1;
        if (v === 'ok') return (d) => d.f.errors[d.k] === 0;
        throw new FilterError(`unknown status "${t.value}" (search knows error and ok)`, t.valueColumn);
      }
      case 'since': {
        const since = parseSince(t.value, now);
        if (since === null) throw new FilterError(`"${t.value}" is not a date (2026-12-01), an ISO time or an age (12h, 7d, 2w)`, t.valueColumn);
        return (d) => (Date.parse(d.f.endTime ?? d.f.startTime ?? '') || 0) >= since;
      }
      default:
        throw new FilterError(`unknown field "${t.field}" (search knows text, agent, tool, status, field, since; quote text that holds a colon)`, t.column);
    }
  }

  /** The documents holding every word of a text term (the last, or every unquoted word, as a prefix). */
  private textIds(value: string, quoted: boolean): Set<number> {
    const hits = this.mini.search(value, { combineWith: 'AND', prefix: !quoted, fuzzy: (term: string) => (!quoted && term.length >= 6 ? 0.1 : 0) });
    return new Set(hits.map((h) => h.id as number));
  }
}

interface TextTerm {
  value: string;
  quoted: boolean;
  negated: boolean;
  ids: Set<number>;
}

interface Doc {
  f: IndexedFile;
  k: number;
  id: number;
}

type DocTest = (d: Doc) => boolean;

/** The documents a query can only match within (a text term outside any "not" or "or"), or null: any document. */
function requiredSet(n: FilterNode, texts: readonly TextTerm[]): Set<number> | null {
  let k = 0;
  // Text terms are numbered in the order compile met them: the same walk here.
  const walk = (x: FilterNode, free: boolean): Set<number> | null => {
    switch (x.type) {
      case 'term': {
        if (x.field !== 'text') return null;
        const term = texts[k++];
        return free ? term.ids : null;
      }
      case 'not':
        walk(x.item, false);
        return null;
      case 'or': {
        const sets = x.items.map((i) => walk(i, free));
        if (!free || sets.some((s) => s === null)) return null;
        const u = new Set<number>();
        for (const s of sets) for (const id of s!) u.add(id);
        return u;
      }
      case 'and': {
        let best: Set<number> | null = null;
        for (const i of x.items) {
          const s = walk(i, free);
          if (s !== null && (best === null || s.size < best.size)) best = s;
        }
        return best;
      }
    }
  };
  return walk(n, true);
}

/** `name:a,b*`: any alternative, exact unless it has `*` or `?`; case-insensitive (as the filter's names). */
function alternatives(t: FilterTerm): (v: string) => boolean {
  const alts = (t.quoted ? [t.value] : t.value.split(',')).filter((v) => v !== '').map((a) => a.toLowerCase());
  if (alts.length === 0) throw new FilterError(`"${t.field}" needs a value`, t.valueColumn);
  const tests = alts.map((a) => (!t.quoted && /[*?]/.test(a) ? compileGlob(a, false) : (v: string) => v === a));
  return (v) => {
    const low = v.toLowerCase();
    return tests.some((x) => x(low));
  };
}

/** True when a line's value is written as the user's: a `role` or `type` of user at its top or up to two objects down. */
function isUsers(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (o.role === 'user' || o.type === 'user' || o.type === 'user.message' || o.type === 'user_message') return true;
  if (depth >= 2) return false;
  for (const k of ['message', 'payload', 'data', 'item']) if (isUsers(o[k], depth + 1)) return true;
  return false;
}

/** What a line's events say its text is: a user's prompt, a reply, a tool's input or its output. */
export function fieldOf(category: string, kind: string, user: boolean): SearchField {
  const result = /result|output|execution_complete/i.test(kind);
  if (user && category !== 'tool' && !result) return 'prompt';
  if (category === 'tool') return result ? 'tool-output' : 'tool-input';
  if (category === 'message' && result) return 'tool-output';
  if (category === 'inference' || category === 'message') return 'reply';
  return 'other';
}

/**
 * The text a line's parsed value holds: its strings, keys apart, in order, without ids, times and metadata (keys
 * such as `uuid`, `timestamp`, `type`), at most {@link INDEX_CHARS} characters. A string that is itself JSON (a
 * tool's arguments) is read for its strings too.
 */
export function textOf(value: unknown): string {
  const out: string[] = [];
  let size = 0;
  const visit = (v: unknown, depth: number): void => {
    if (size >= INDEX_CHARS || depth > 32) return;
    if (typeof v === 'string') {
      const s = v.length > 1 && (v[0] === '{' || v[0] === '[') && depth < 30 ? parseOr(v) : v;
      if (typeof s !== 'string') return visit(s, depth + 1);
      // Not text: blank, a time, an id, or a long run without a space (base64, an image's data).
      if (s.trim() === '' || NOT_TEXT.test(s) || (s.length > 200 && !/\s/.test(s.slice(0, 200)))) return;
      const piece = s.slice(0, INDEX_CHARS - size);
      out.push(piece);
      size += piece.length + 1;
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!SKIP_KEY.test(k)) visit(x, depth + 1);
    }
  };
  visit(value, 0);
  return out.join('\n');
}

/**
 * A JSON document's objects by the event line they come under: each object (or string) of the document that starts
 * on or after an event's line and before the next one's, outermost first, kept with the event at the line before it.
 * Strings appear in the text in the order JSON.parse gives them, so each is found from where the last one was.
 */
function documentParts(text: string, starts: readonly number[]): Map<number, unknown[]> {
  const out = new Map<number, unknown[]>();
  const value = parseOr(text);
  if (typeof value === 'string' || starts.length === 0) return out;
  // Line starts of the text, to turn a position into a line.
  const nl: number[] = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) nl.push(i + 1);
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = nl.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nl[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const eventAt = (line: number): number | null => {
    let found: number | null = null;
    for (const s of starts) if (s <= line) found = s;
    return found;
  };
  let cursor = 0;
  const visit = (v: unknown, key: string | null): void => {
    if (typeof v === 'string') {
      if (key !== null && SKIP_KEY.test(key)) return;
      const at = text.indexOf(JSON.stringify(v).slice(0, 64), cursor);
      if (at < 0) return;
      cursor = at + 1;
      const ev = eventAt(lineAt(at));
      if (ev === null) return;
      const list = out.get(ev);
      if (list) list.push(v);
      else out.set(ev, [v]);
      return;
    }
    if (Array.isArray(v)) for (const x of v) visit(x, null);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      // A message's role goes with its text, so the part knows it is the user's.
      if (o.role === 'user') {
        const at = text.indexOf('"role"', cursor);
        const ev = at < 0 ? null : eventAt(lineAt(at));
        if (ev !== null) (out.get(ev) ?? out.set(ev, []).get(ev)!).push({ role: 'user' });
      }
      for (const [k, x] of Object.entries(o)) visit(x, k);
    }
  };
  visit(value, null);
  return out;
}

/** The parsed value of a JSON text, or the text itself when it is not JSON. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The indexed text of each document, read again from its line (each file opened once); null where the file changed. */
async function lineTexts(docs: readonly { f: IndexedFile; k: number }[]): Promise<(string | null)[]> {
  const out: (string | null)[] = docs.map(() => null);
  const byFile = new Map<IndexedFile, number[]>();
  docs.forEach((d, b) => {
    const list = byFile.get(d.f);
    if (list) list.push(b);
    else byFile.set(d.f, [b]);
  });
  for (const [f, list] of byFile) {
    try {
      const bufs = await readRanges(f.stamp.path, f.stamp.path.endsWith('.gz') ? 'gzip' : null, list.map((b) => [f.offsets[docs[b].k], f.lengths[docs[b].k]] as const));
      list.forEach((b, j) => {
        if (bufs[j].length !== f.lengths[docs[b].k]) return;
        const text = bufs[j].toString('utf8');
        // A one-document trace's document is the part of it from its event's line (see documentSpans).
        if (f.document) {
          const starts = f.lines.slice().sort((x, y) => x - y);
          out[b] = textOf(documentParts(text, starts).get(f.lines[docs[b].k]) ?? []);
        } else out[b] = textOf(parseOr(text));
      });
    } catch {
      // A file gone since it was indexed has no snippets: its hits are left out until the next update.
    }
  }
  return out;
}

/** Up to {@link SNIPPET_SIDE} characters either side of the first place a needle (or a word starting so) is, on one line. */
function snippetOf(text: string, low: string, needles: readonly string[]): string {
  let at = -1;
  let len = 0;
  for (const n of needles) {
    const i = low.indexOf(n);
    if (i >= 0 && (at < 0 || i < at)) {
      at = i;
      len = n.length;
    }
  }
  if (at < 0) {
    at = 0;
    len = 0;
  }
  const start = Math.max(0, at - SNIPPET_SIDE);
  const end = Math.min(text.length, at + len + SNIPPET_SIDE);
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${flat(text.slice(start, end)).trim()}${end < text.length ? '…' : ''}`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function indexKey(): string {
  return `search-${INDEX_VERSION}`;
}

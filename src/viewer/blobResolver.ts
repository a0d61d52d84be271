/**
 * The viewer's side of content blobs, without VS Code: one {@link BlobStore} per trace (its roots are found
 * once, then reused), reference lookup by digest, and the bounded answers the Content tab and the read-only
 * blob documents show. Blob content is hostile text: it is only ever sent as data, never as markup.
 */
import { BlobResult, BlobStatus, BlobStore, blobLayoutOf, DEFAULT_PREVIEW_BYTES, openBlobStore, readBlobPreview, shortDigest } from '../core/blobStore';
import type { BlobPreview } from '../core/blobStore';
import { detectFile } from '../core/detectFile';
import type { TraceModel } from '../core/loadTrace';
import type { DigestAlgorithm, FormatName, HashRef } from '../core/model';
import { extractChat } from './chatContent';
import type { BlobContentMessage, BlobState } from '../protocol';

/** What the Content tab gets for one blob (a {@link BlobContentMessage} without its envelope). */
export type BlobAnswer = Omit<BlobContentMessage, 'type' | 'requestId'>;

/** Where to look for blobs besides the format's own layout (the `agentTrace.blobRoots` setting). */
export interface BlobSettings {
  extraRoots: readonly string[];
  workspaceFolders: readonly string[];
}

/** A store without roots is looked for again after this long (murmur creates `blobs/` on the first blob). */
const EMPTY_STORE_TTL_MS = 5000;

const STATE: Record<BlobStatus, BlobState> = {
  verified: 'verified', mismatch: 'mismatch', missing: 'missing', unreadable: 'unreadable', 'too-large': 'tooLarge', rejected: 'rejected', unverifiable: 'unverifiable',
};

/** The viewer's word for a blob's integrity. */
export function blobState(status: BlobStatus): BlobState {
  return STATE[status];
}

/** Short words for badges and document titles. */
export const STATE_WORDS: Record<BlobState, string> = {
  unresolved: 'not resolved', verified: '✓ verified', mismatch: '✗ mismatch', missing: 'missing', unreadable: 'unreadable', tooLarge: 'too large', rejected: 'rejected', unverifiable: 'unverifiable',
};

/** A reference naming `digest`, as the trace's events hold it (field and raw text matter for hashing). */
export function findRef(model: TraceModel | undefined, digest: string, algorithm: DigestAlgorithm): HashRef | undefined {
  if (!model) return undefined;
  for (const i of model.events.eventsWithHashRefs()) {
    const hit = model.events.hashRefsOf(i).find((r) => r.digest === digest && r.algorithm === algorithm);
    if (hit) return hit;
  }
  return undefined;
}

/** A reference built from a digest alone, in the shape the format writes it (its blob layout knows). */
export function syntheticRef(format: FormatName, digest: string, algorithm: DigestAlgorithm): HashRef {
  return blobLayoutOf(format).syntheticRef(digest, algorithm);
}

interface CachedStore {
  format: FormatName;
  opened: number;
  store: Promise<BlobStore>;
}

/** See the file comment. */
export class TraceBlobs {
  private readonly stores = new Map<string, CachedStore>();

  constructor(private readonly settings: () => BlobSettings) {}

  /** The trace's blob store, opened once per trace and format (again when it had no roots a while ago). */
  async store(tracePath: string, format: FormatName): Promise<BlobStore> {
    const cached = this.stores.get(tracePath);
    if (cached && cached.format === format) {
      const store = await cached.store;
      if (store.roots.length > 0 || Date.now() - cached.opened < EMPTY_STORE_TTL_MS) return store;
    }
    const s = this.settings();
    const entry: CachedStore = { format, opened: Date.now(), store: openBlobStore(tracePath, format, { extraRoots: s.extraRoots, workspaceFolders: s.workspaceFolders }) };
    this.stores.set(tracePath, entry);
    entry.store.catch(() => this.stores.delete(tracePath));
    return entry.store;
  }

  /** Forgets cached stores (the roots setting changed, or one trace was reloaded). */
  forget(tracePath?: string): void {
    if (tracePath === undefined) this.stores.clear();
    else this.stores.delete(tracePath);
  }

  /** Resolves and rehashes the blob `digest` of a trace; `model` (when open) gives the format and the reference. */
  async resolve(tracePath: string, model: TraceModel | undefined, digest: string, algorithm: DigestAlgorithm): Promise<{ store: BlobStore; result: BlobResult }> {
    // Not open in the viewer: detected as loading it would (a `.gz` on its decompressed content).
    const format = model?.format ?? (await detectFile(tracePath)).format;
    const store = await this.store(tracePath, format);
    const ref = findRef(model, digest, algorithm) ?? syntheticRef(format, digest, algorithm);
    return { store, result: await store.resolve(ref) };
  }

  /** The Content tab's answer: integrity, a bounded preview, the parsed JSON and the messages it holds. */
  async answer(tracePath: string, model: TraceModel | undefined, digest: string, algorithm: DigestAlgorithm, maxBytes = DEFAULT_PREVIEW_BYTES): Promise<BlobAnswer> {
    let resolved: { store: BlobStore; result: BlobResult };
    try {
      resolved = await this.resolve(tracePath, model, digest, algorithm);
    } catch (err) {
      return { digest, state: 'unreadable', preview: null, bytes: null, message: `Cannot resolve blob ${shortDigest(digest)}: ${errorText(err)}` };
    }
    const { store, result } = resolved;
    const base: BlobAnswer = {
      digest, state: STATE[result.status], preview: null, bytes: result.size ?? null, expected: result.expected, actual: result.actual,
      message: result.status === 'verified' ? null : result.message, path: result.path ? store.display(result.path) : undefined,
    };
    if (!result.realPath) return base;
    const preview = await readBlobPreview(result, maxBytes).catch((err: unknown) => errorText(err));
    if (typeof preview === 'string') return { ...base, message: `${base.message ?? ''} Cannot read a preview: ${preview}`.trim() };
    return { ...base, ...previewFields(preview) };
  }
}

/** The preview's text, and for complete JSON its value and the conversation messages it holds. */
function previewFields(p: BlobPreview): Partial<BlobAnswer> {
  const out: Partial<BlobAnswer> = { preview: p.text, truncated: p.truncated, binary: p.binary, language: p.language };
  if (p.isJson && !p.truncated) {
    try {
      out.json = JSON.parse(p.text);
      const chat = extractChat(out.json);
      if (chat.length > 0) out.chat = chat;
    } catch {
      // not JSON after all: shown as text
    }
  }
  return out;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

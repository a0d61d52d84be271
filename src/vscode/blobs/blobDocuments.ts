/**
 * "Open Blob": a blob shown read-only in a normal editor tab, as a virtual document on the
 * `agent-trace-blob:` scheme. The tab title carries the short digest and the integrity state; the language
 * is JSON for JSON blobs and plain text otherwise.
 */
import * as vscode from 'vscode';
import { MAX_PREVIEW_BYTES, readBlobPreview, shortDigest } from '../../core/blobStore';
import type { DigestAlgorithm } from '../../core/model';
import type { TraceModel } from '../../core/loadTrace';
import { STATE_WORDS, TraceBlobs } from '../../viewer/blobResolver';
import type { BlobState } from '../../protocol';

/** The virtual documents' URI scheme. */
export const BLOB_SCHEME = 'agent-trace-blob';

/** What a blob document's URI names. */
export interface BlobDocTarget {
  trace: string;
  digest: string;
  algorithm: DigestAlgorithm;
}

/** A blob document's URI: the title (path) shows short digest and state, the query names the blob. */
export function blobDocumentUri(target: BlobDocTarget, state: BlobState): vscode.Uri {
  const title = `${shortDigest(target.digest)} ${STATE_WORDS[state]}`.replace(/[/\\?#]/g, '_');
  return vscode.Uri.parse(`${BLOB_SCHEME}:/${encodeURIComponent(title)}?${encodeURIComponent(JSON.stringify(target))}`);
}

/** The blob a document URI names, or null when the query is not one of ours. */
export function parseBlobDocumentUri(uri: vscode.Uri): BlobDocTarget | null {
  try {
    const t = JSON.parse(decodeURIComponent(uri.query)) as Partial<BlobDocTarget>;
    if (typeof t.trace !== 'string' || typeof t.digest !== 'string' || (t.algorithm !== 'sha256' && t.algorithm !== 'fnv1a64')) return null;
    return { trace: t.trace, digest: t.digest, algorithm: t.algorithm };
  } catch {
    return null;
  }
}

/** Serves blob documents (read-only by construction: content providers have no save). */
export class BlobDocumentProvider implements vscode.TextDocumentContentProvider {
  /** Language of each provided document, set on the editor once it is open. */
  readonly languages = new Map<string, 'json' | 'plaintext'>();

  constructor(private readonly blobs: TraceBlobs, private readonly modelOf: (trace: vscode.Uri) => TraceModel | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const t = parseBlobDocumentUri(uri);
    if (!t) return 'Not a blob reference.';
    const traceUri = vscode.Uri.parse(t.trace);
    try {
      const { result } = await this.blobs.resolve(traceUri.fsPath, this.modelOf(traceUri), t.digest, t.algorithm);
      if (!result.realPath) {
        this.languages.set(uri.toString(), 'plaintext');
        return result.message;
      }
      const p = await readBlobPreview(result, MAX_PREVIEW_BYTES);
      const truncated = p.truncated ? `\n\n… truncated: showing ${p.bytesRead} of ${p.size} bytes.` : '';
      this.languages.set(uri.toString(), p.truncated || p.binary ? 'plaintext' : p.language);
      return p.text + truncated;
    } catch (err) {
      this.languages.set(uri.toString(), 'plaintext');
      return `Cannot read blob ${t.digest}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

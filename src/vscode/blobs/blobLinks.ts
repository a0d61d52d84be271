/**
 * Blob hashes as links in the raw text of a trace: each blob reference on a line (the format's blob fields,
 * `blob://` values, per its blob layout) opens the blob. Cheap on other JSONL: the format is detected from the first lines, a file
 * whose trace has no blob store gets no links, and only lines that can hold a reference are parsed.
 */
import * as vscode from 'vscode';
import { blobLayoutOf, scanLineForBlobRefs } from '../../core/blobStore';
import type { FormatName } from '../../core/model';
import { OPEN_BLOB_COMMAND } from '../editor';
import { detectFile } from '../../core/detectFile';
import { TraceBlobs } from '../../viewer/blobResolver';

/** Documents the provider serves. */
export const BLOB_LINK_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: '**/*.{jsonl,ndjson}' };

/** Documents up to this many lines are scanned whole; larger ones only around what is visible. */
const FULL_SCAN_LINES = 20_000;
const VISIBLE_MARGIN = 1000;
const MAX_LINE_CHARS = 1_000_000;
const MAX_LINKS = 5000;

/** The 0-based lines to scan: all of a small document, else the visible ranges with a margin. */
function linesToScan(doc: vscode.TextDocument): number[] {
  if (doc.lineCount <= FULL_SCAN_LINES) return Array.from({ length: doc.lineCount }, (_, i) => i);
  const lines = new Set<number>();
  for (const ed of vscode.window.visibleTextEditors) {
    if (ed.document !== doc) continue;
    for (const r of ed.visibleRanges) {
      for (let i = Math.max(0, r.start.line - VISIBLE_MARGIN); i <= Math.min(doc.lineCount - 1, r.end.line + VISIBLE_MARGIN); i++) lines.add(i);
    }
  }
  return [...lines].sort((a, b) => a - b);
}

/** The command URI that opens one blob of `trace`. */
export function openBlobCommandUri(trace: vscode.Uri, digest: string, algorithm: string): vscode.Uri {
  return vscode.Uri.parse(`command:${OPEN_BLOB_COMMAND}?${encodeURIComponent(JSON.stringify([trace.toString(), digest, algorithm]))}`);
}

/** Links for the blob references on one line of text (0-based `line`). */
export function linksOnLine(format: FormatName, trace: vscode.Uri, line: number, text: string): vscode.DocumentLink[] {
  // The layout's cheap text test runs before parsing: most lines of most traces hold no reference.
  if (text.length > MAX_LINE_CHARS || !blobLayoutOf(format).lineMayHoldRef(text)) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const out: vscode.DocumentLink[] = [];
  const seen = new Set<string>();
  for (const r of scanLineForBlobRefs(format, line + 1, value, text)) {
    if (!r.ref || seen.has(r.ref.raw)) continue;
    seen.add(r.ref.raw);
    const quoted = JSON.stringify(r.ref.raw);
    for (let at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + quoted.length)) {
      const link = new vscode.DocumentLink(new vscode.Range(line, at + 1, line, at + quoted.length - 1), openBlobCommandUri(trace, r.ref.digest, r.ref.algorithm));
      link.tooltip = `Open blob ${r.ref.algorithm}:${r.ref.digest} (${r.field})`;
      out.push(link);
    }
  }
  return out;
}

/** See the file comment. */
export class BlobLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly blobs: TraceBlobs) {}

  async provideDocumentLinks(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.DocumentLink[]> {
    // The file's format as the viewer would detect it on opening it (a file that cannot be read has no links).
    const detected = await detectFile(doc.uri.fsPath).catch(() => null);
    if (!detected || token.isCancellationRequested) return [];
    const format = detected.format;
    const store = await this.blobs.store(doc.uri.fsPath, format);
    if (store.roots.length === 0 || token.isCancellationRequested) return [];
    const out: vscode.DocumentLink[] = [];
    for (const i of linesToScan(doc)) {
      if (out.length >= MAX_LINKS || (i % 1000 === 0 && token.isCancellationRequested)) break;
      out.push(...linksOnLine(format, doc.uri, i, doc.lineAt(i).text));
    }
    return out;
  }
}

import { Buffer } from 'buffer';
import { fileSystem, OpenFile } from '../io/fileSystem';
import { BlobResult } from '../blobs/blobStore';
import { isInside, openLocated } from '../blobs/blobSafety';

/** A bounded view of a blob's content, for the Content tab and "Open Blob". */
export interface BlobPreview {
  /** The content as text (UTF-8), or a hex dump of the first bytes when the blob is binary. */
  text: string;
  /** True when the blob is larger than the bytes read. */
  truncated: boolean;
  /** The text is JSON (parsed completely, or, when truncated, starts like a JSON object or array). */
  isJson: boolean;
  /** Not valid UTF-8 text, or contains NUL bytes. */
  binary: boolean;
  /** Editor language for a read-only document. */
  language: 'json' | 'plaintext';
  size: number;
  bytesRead: number;
}

/** Default and hard upper bound of bytes a preview reads. */
export const DEFAULT_PREVIEW_BYTES = 256 * 1024;
export const MAX_PREVIEW_BYTES = 16 * 1024 * 1024;
const HEX_DUMP_BYTES = 4096;

/** Length of `bytes` without a trailing incomplete UTF-8 sequence (cut by the byte cap). */
function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < Math.min(bytes.length, HEX_DUMP_BYTES); at += 16) {
    const row = [...bytes.subarray(at, at + 16)];
    const hex = row.map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

function looksLikeJson(text: string, truncated: boolean): boolean {
  const t = text.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  if (truncated) return true;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/** Reads at most `maxBytes` from the start of an open file. */
async function readHead(handle: OpenFile, maxBytes: number): Promise<Buffer> {
  const buf = Buffer.alloc(maxBytes);
  let at = 0;
  while (at < maxBytes) {
    const { bytesRead } = await handle.read(buf, at, maxBytes - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return buf.subarray(0, at);
}

/**
 * Reads a bounded preview of a resolved blob (at most `maxBytes`, capped at {@link MAX_PREVIEW_BYTES}).
 * The file is checked again (still inside its root, still a regular file) since it was resolved earlier.
 * The text is hostile content: views must render it as text, never as HTML.
 */
export async function readBlobPreview(result: BlobResult, maxBytes = DEFAULT_PREVIEW_BYTES): Promise<BlobPreview> {
  if (!result.realPath || !result.root) throw new Error(`blob ${result.expected} has no file to preview (${result.status})`);
  const real = await fileSystem().realpath(result.realPath);
  if (real !== result.realPath || !isInside(real, result.root.realPath)) throw new Error(`blob ${result.expected} moved outside its root`);
  const stats = await fileSystem().stat(real);
  const handle = await openLocated(real, stats);
  let bytes: Buffer;
  try {
    bytes = await readHead(handle, Math.max(0, Math.min(maxBytes, MAX_PREVIEW_BYTES, stats.size)));
  } finally {
    await handle.close();
  }
  const truncated = bytes.length < stats.size;
  const usable = truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
  let text: string | null = null;
  if (!usable.includes(0)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(usable);
    } catch {
      text = null;
    }
  }
  const binary = text === null;
  const isJson = !binary && looksLikeJson(text!, truncated);
  return {
    text: binary ? hexDump(bytes) : text!,
    truncated,
    isJson,
    binary,
    language: isJson ? 'json' : 'plaintext',
    size: stats.size,
    bytesRead: bytes.length,
  };
}

/**
 * Tells how a trace file changed since it was read: grown (an agent still writing), rewritten, truncated or
 * deleted. Compares the bytes at the start and just before the end of what was read, so a rewrite that keeps
 * the size, or grows past it, is told from an append. The one change detector: the viewer's watcher and the
 * trace reader's `append()` both ask it. It does no I/O of its own: the caller says how to read the file.
 */
import { Buffer } from 'buffer';

/** What a change means for the viewer. */
export type FileChange = 'unchanged' | 'appended' | 'rewritten' | 'truncated' | 'deleted';

/** How the detector reads a file: its size now (null once it is gone) and `length` bytes at `offset` (fewer at its end). */
export interface ChangeSource {
  size(): Promise<number | null>;
  read(offset: number, length: number): Promise<Buffer>;
}

/** The bytes and size of a file when it was read. */
export interface FileFingerprint {
  /** Bytes the model covers. */
  indexedBytes: number;
  /** The first {@link CHANGE_WINDOW} bytes (all of them in a shorter file). */
  head: Buffer;
  /** The last {@link CHANGE_WINDOW} bytes before `indexedBytes` (the same bytes as `head` in a short file). */
  tail: Buffer;
}

/**
 * Bytes compared at each end. Replaying every corpus file cut at each line end against every other file of its
 * format (122,845 rewrites that are not appends), 256 bytes took 262 of them for appends, 1 KiB and 4 KiB none;
 * one 4 KiB read costs what a 256-byte one does (a page), so the wider window is kept.
 */
export const CHANGE_WINDOW = 4096;

/** Takes the fingerprint of the first `indexedBytes` bytes of a file. */
export async function fingerprintOf(source: ChangeSource, indexedBytes: number): Promise<FileFingerprint> {
  const head = await source.read(0, Math.min(CHANGE_WINDOW, indexedBytes));
  // A file no longer than the window: its head holds the tail too.
  if (indexedBytes <= CHANGE_WINDOW) return { indexedBytes, head, tail: head };
  return { indexedBytes, head, tail: await source.read(indexedBytes - CHANGE_WINDOW, CHANGE_WINDOW) };
}

/**
 * How long a file must keep its size before a last line without its line break counts as torn (the
 * `parse/torn-tail` warning) rather than as a line its writer is still writing. The viewer polls every second and
 * agents write a line in one call, so two quiet seconds mean the writer stopped mid-line.
 */
export const SETTLE_MS = 2000;

/**
 * Whether a last line without its line break is still pending: the file grew (or was written, `mtimeMs`) less than
 * {@link SETTLE_MS} before `nowMs`. Pending, the line is neither an event nor a finding yet.
 */
export function tailPending(lastWriteMs: number, nowMs: number): boolean {
  return nowMs - lastWriteMs < SETTLE_MS;
}

/** Classifies the file's current state against a fingerprint. */
export async function changeOf(source: ChangeSource, fp: FileFingerprint): Promise<FileChange> {
  const size = await source.size();
  if (size === null) return 'deleted';
  if (size < fp.indexedBytes) return 'truncated';
  const now = await fingerprintOf(source, fp.indexedBytes);
  if (!now.head.equals(fp.head) || !now.tail.equals(fp.tail)) return 'rewritten';
  return size > fp.indexedBytes ? 'appended' : 'unchanged';
}

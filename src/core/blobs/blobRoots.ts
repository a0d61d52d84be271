import { dirname, isAbsolute, join, resolve } from '../io/paths';
import type { BlobLayout } from './blobLayout';
import { BlobRoot, isInside, realDirectory } from './blobSafety';
import { fileSystem } from '../io/fileSystem';

/** Where to look for blobs besides the format's own layouts. */
export interface BlobRootOptions {
  /**
   * The `agentTrace.blobRoots` setting: absolute paths, or paths relative to the trace's folder or to a
   * workspace folder (each relative entry is tried against all of these bases).
   */
  extraRoots?: readonly string[];
  /** Workspace folders: bases for relative extra roots, and where the upward search for `.agentledger` stops. */
  workspaceFolders?: readonly string[];
}

/** How far up the upward search for an agentledger runtime root (`.agentledger/blobs`) goes without a workspace. */
const MAX_ANCESTORS = 32;

/** The trace's folder and its ancestors, stopping at the enclosing workspace folder when there is one. */
function ancestors(start: string, workspaceFolders: readonly string[]): string[] {
  const stop = workspaceFolders.map((w) => resolve(w)).find((w) => isInside(start, w));
  const out: string[] = [];
  let dir = start;
  for (let i = 0; i < MAX_ANCESTORS; i++) {
    out.push(dir);
    if (stop !== undefined && dir === stop) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out;
}

/**
 * Candidate roots in search order, per the format's layout: `<trace folder>/blobs` (murmur's session store,
 * an agentledger evidence export, the default), every `.agentledger/blobs` from the trace's folder upwards
 * when the layout searches runtime roots, the trace's folder itself when it is a store root (agentledger's
 * Rust `LocalBlobStore` holding `sha256/`); then the configured extra roots.
 */
export function candidateRoots(tracePath: string, layout: BlobLayout, options: BlobRootOptions = {}): Omit<BlobRoot, 'realPath'>[] {
  const traceDir = dirname(resolve(tracePath));
  const workspaces = options.workspaceFolders ?? [];
  const out: Omit<BlobRoot, 'realPath'>[] = [{ path: join(traceDir, 'blobs'), source: 'beside-trace' }];
  if (layout.runtimeRoots) {
    for (const dir of ancestors(traceDir, workspaces)) out.push({ path: join(dir, '.agentledger', 'blobs'), source: 'agentledger-runtime' });
  }
  if (layout.traceFolderRoot) out.push({ path: traceDir, source: 'trace-folder' });
  for (const root of options.extraRoots ?? []) {
    if (root.trim() === '') continue;
    if (isAbsolute(root)) out.push({ path: resolve(root), source: 'setting' });
    else for (const base of [traceDir, ...workspaces]) out.push({ path: resolve(base, root), source: 'setting' });
  }
  return out;
}

/** The candidate roots that exist as directories, with real paths, without duplicates. */
export async function findBlobRoots(tracePath: string, layout: BlobLayout, options: BlobRootOptions = {}): Promise<BlobRoot[]> {
  const seen = new Set<string>();
  const out: BlobRoot[] = [];
  for (const c of candidateRoots(tracePath, layout, options)) {
    const realPath = await realDirectory(c.path);
    if (realPath === null || seen.has(realPath)) continue;
    const outside = await leadsOutside(c, realPath);
    // A refused root does not take the place of the same folder configured by the user further on.
    if (outside.outside === undefined) seen.add(realPath);
    out.push({ ...c, realPath, ...outside });
  }
  return out;
}

/**
 * A derived root must stay inside the folder that holds it, as blob files must stay inside their root: a `blobs/`
 * (or `.agentledger/`) that is a symbolic link to elsewhere would let a trace make the viewer read any folder.
 * Roots the user configured are trusted wherever they are.
 */
async function leadsOutside(c: Omit<BlobRoot, 'realPath'>, realPath: string): Promise<{ outside?: string }> {
  if (c.source === 'setting' || c.source === 'trace-folder') return {};
  // `<dir>/blobs` is held by <dir>; `<dir>/.agentledger/blobs` by <dir> too.
  const holder = c.source === 'agentledger-runtime' ? dirname(dirname(c.path)) : dirname(c.path);
  let realHolder: string;
  try {
    realHolder = await fileSystem().realpath(holder);
  } catch {
    return { outside: realPath };
  }
  return isInside(realPath, realHolder) ? {} : { outside: realPath };
}

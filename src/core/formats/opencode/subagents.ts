import { Buffer } from 'buffer';
import { basename, dirname, join } from '../../io/paths';
import { fileSystem, readTextFile } from '../../io/fileSystem';
import { readHead } from '../../byteSource';
import type { SessionFile } from '../../format';
import { isObj } from '../common';
import { childSessionOf, isExportDocument } from './opencodeRecords';

/** At most this many `.json` files beside an export are looked at. */
const MAX_FILES = 400;
/** The head of an export read for its session's `info` (id, parentID, title come before `messages`). */
const HEAD_BYTES = 16 * 1024;
/** The main export is parsed whole (to pair each child session with its task call) only up to this size. */
const MAX_PARSE_BYTES = 64 * 1024 * 1024;

interface SessionHead {
  id: string | null;
  parentId: string | null;
  title: string | null;
}

/** A JSON string field of the session `info` at the head of an export (before its `messages`), or null. */
function field(head: string, name: string): string | null {
  const m = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  if (!m) return null;
  try {
    const v: unknown = JSON.parse(m[1]);
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The session `info` an export starts with (`{"info": {"id": …`), read from its head only; null when it is no export. */
async function sessionHead(path: string): Promise<SessionHead | null> {
  let text: string;
  try {
    text = Buffer.from(await readHead(path, HEAD_BYTES)).toString('utf8');
  } catch {
    return null;
  }
  if (!/^\uFEFF?\s*\{\s*"info"\s*:\s*\{/.test(text)) return null;
  const end = text.search(/"messages"\s*:/);
  const info = end < 0 ? text : text.slice(0, end);
  return { id: field(info, 'id'), parentId: field(info, 'parentID'), title: field(info, 'title') };
}

/**
 * The heads of the exports beside one, kept while their files are unchanged (size and mtime): each export of a
 * folder of many asks for its siblings' heads, which are then read once, not once for every export.
 */
const heads = new Map<string, { size: number; mtimeMs: number; head: SessionHead | null }>();
const MAX_HEADS = 4096;

async function siblingHead(path: string): Promise<SessionHead | null> {
  let info;
  try {
    info = await fileSystem().stat(path);
  } catch {
    return null;
  }
  const kept = heads.get(path);
  if (kept && kept.size === info.size && kept.mtimeMs === info.mtimeMs) return kept.head;
  const head = await sessionHead(path);
  if (heads.size >= MAX_HEADS) heads.clear();
  heads.set(path, { size: info.size, mtimeMs: info.mtimeMs, head });
  return head;
}

/** Each child session's id → the callID of the `task` call that started it, from the whole main export. */
async function taskCalls(path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  try {
    if ((await fileSystem().stat(path)).size > MAX_PARSE_BYTES) return out;
    const doc: unknown = JSON.parse(await readTextFile(path));
    if (!isExportDocument(doc)) return out;
    for (const m of doc.messages as unknown[]) {
      if (!isObj(m) || !Array.isArray(m.parts)) continue;
      for (const p of m.parts) {
        if (!isObj(p) || p.type !== 'tool' || typeof p.callID !== 'string') continue;
        const child = childSessionOf(p);
        if (child !== null && !out.has(child)) out.set(child, p.callID);
      }
    }
  } catch {
    // unreadable: the children are listed without their calls
  }
  return out;
}

/**
 * The subagent sessions of an `opencode export` file: opencode runs a `task` call's subagent as a session of its own
 * (its `info.parentID` names the parent session; the task part's `state.metadata.sessionId` names it), which
 * `opencode export <child id>` writes to a file of its own. Those exported beside the main file (any `.json` in its
 * folder whose session's `parentID` is this one's) are its session files, each with the task call that started it.
 * A child session exported nowhere beside it is not there: its call shows the child's id, and its usage is not in the
 * session's.
 */
export async function opencodeSessionFiles(path: string): Promise<SessionFile[]> {
  if (!/\.json$/i.test(path)) return [];
  const main = await sessionHead(path);
  if (!main?.id) return [];
  const dir = dirname(path);
  let names: string[];
  try {
    names = (await fileSystem().list(dir)).filter((e) => e.kind === 'file').map((e) => e.name).filter((n) => /\.json$/i.test(n) && n !== basename(path)).sort().slice(0, MAX_FILES);
  } catch {
    return [];
  }
  const children: { path: string; head: SessionHead }[] = [];
  for (const name of names) {
    const head = await siblingHead(join(dir, name));
    if (head?.parentId === main.id && head.id !== null) children.push({ path: join(dir, name), head });
  }
  if (children.length === 0) return [];
  const calls = await taskCalls(path);
  return children.map((c) => ({ path: c.path, role: 'subagent' as const, toolUseId: calls.get(c.head.id!) ?? null, title: c.head.title }));
}

import { Buffer } from 'buffer';
import { basename, dirname, join } from '../../io/paths';
import { fileSystem, readTextFile } from '../../io/fileSystem';
import type { SessionFile } from '../../format';
import type { EventTable } from '../../eventTable';

/** Bounds of the search across a session's other files: how many files, how many bytes in all. */
export const FOLDER_LIMITS = { files: 400, bytes: 128 * 1024 * 1024 };
/** The smaller bounds used while opening a file, where the search delays the first view. */
export const LOAD_LIMITS = { files: 50, bytes: 64 * 1024 * 1024 };

async function jsonlIn(dir: string, except: string): Promise<string[]> {
  try {
    return (await fileSystem().list(dir)).map((e) => e.name).filter((n) => n.endsWith('.jsonl') && n !== except).sort().map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * The files a transcript's parents may be in, nearest first. Claude Code keeps a session as
 * `<project>/<session>.jsonl` with its subagents (and compaction agents, `agent-acompact-*`) in
 * `<project>/<session>/subagents/agent-*.jsonl`; older versions put `agent-*.jsonl` beside the sessions.
 * For a subagent file: the main session file, then the other subagent files. For a session file: its
 * subagents, then the other files of the project directory.
 */
export async function relatedTranscripts(path: string): Promise<string[]> {
  const dir = dirname(path);
  const name = basename(path);
  let files: string[];
  if (basename(dir) === 'subagents') {
    const sessionDir = dirname(dir);
    files = [join(dirname(sessionDir), `${basename(sessionDir)}.jsonl`), ...(await jsonlIn(dir, name))];
  } else {
    files = [...(await jsonlIn(join(dir, name.replace(/\.jsonl$/, ''), 'subagents'), '')), ...(await jsonlIn(dir, name))];
  }
  return files.slice(0, FOLDER_LIMITS.files);
}

async function readHead(file: string, bytes: number): Promise<string> {
  const h = await fileSystem().open(file);
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await h.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await h.close();
  }
}

/** Looks for `"<key>":"<id>"` (compact or with a space) in the files, within {@link FOLDER_LIMITS}; returns id → file name. */
export async function findIdsIn(files: string[], ids: ReadonlySet<string>, key = 'uuid', limits = FOLDER_LIMITS): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const written = new Map([...ids].map((id) => [JSON.stringify(id).slice(1, -1), id]));
  const named = new RegExp(`"${key}": ?"((?:[^"\\\\]|\\\\.)*)"`, 'g');
  let budget = limits.bytes;
  for (const file of files.slice(0, limits.files)) {
    if (found.size === ids.size || budget <= 0) break;
    try {
      const size = (await fileSystem().stat(file)).size;
      const text = await readHead(file, Math.min(size, budget));
      budget -= size;
      // One pass over the text, whatever the number of ids (a search per id was ids × bytes); ids compared as
      // they are written (JSON-escaped).
      for (const m of text.matchAll(named)) {
        const id = written.get(m[1]);
        if (id !== undefined && !found.has(id)) found.set(id, basename(file));
      }
    } catch {
      // An unreadable or vanished file is simply not searched.
    }
  }
  return found;
}

/** A subagent file's link to the tool call that started it: `agent-<id>.meta.json`'s `toolUseId`, and the main session file. */
export async function subagentLink(path: string): Promise<{ toolUseId: string; main: string } | null> {
  const m = /^(agent-.+)\.jsonl$/.exec(basename(path));
  if (!m || basename(dirname(path)) !== 'subagents') return null;
  try {
    const meta: unknown = JSON.parse(await readTextFile(join(dirname(path), `${m[1]}.meta.json`)));
    const toolUseId = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).toolUseId : undefined;
    if (typeof toolUseId !== 'string') return null;
    const sessionDir = dirname(dirname(path));
    return { toolUseId, main: join(dirname(sessionDir), `${basename(sessionDir)}.jsonl`) };
  } catch {
    return null;
  }
}

/** A subagent's `agent-<id>.meta.json`, or null when it is missing or not a JSON object. */
async function readMeta(dir: string, agent: string): Promise<Record<string, unknown> | null> {
  try {
    const meta: unknown = JSON.parse(await readTextFile(join(dir, `${agent}.meta.json`)));
    return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The subagent and compaction-agent transcripts of a session file, `<project>/<session>/subagents/agent-*.jsonl`,
 * in name order, with the tool call that started each (its meta's `toolUseId`). None for a file that is itself in a
 * `subagents` folder. Bounded by {@link FOLDER_LIMITS}' file count.
 */
export async function subagentFiles(path: string): Promise<SessionFile[]> {
  if (basename(dirname(path)) === 'subagents' || !path.endsWith('.jsonl')) return [];
  const dir = join(dirname(path), basename(path).replace(/\.jsonl$/, ''), 'subagents');
  const files = (await jsonlIn(dir, '')).filter((f) => /^agent-.+\.jsonl$/.test(basename(f))).slice(0, FOLDER_LIMITS.files);
  const out: SessionFile[] = [];
  for (const file of files) {
    const agent = basename(file).replace(/\.jsonl$/, '');
    const meta = await readMeta(dir, agent);
    const text = (k: string): string | null => (typeof meta?.[k] === 'string' && (meta[k] as string) !== '' ? (meta[k] as string) : null);
    out.push({
      path: file,
      role: agent.startsWith('agent-acompact') ? 'compaction' : 'subagent',
      toolUseId: text('toolUseId'),
      title: text('description') ?? text('agentType'),
    });
  }
  return out;
}

/** A tool_use block's id as the builder mentions it (`message.content[<k>].id`; a result's is `…tool_use_id`). */
const TOOL_USE_FIELD = /^message\.content\[\d+\]\.id$/;

/**
 * The events of a loaded session file that hold the Agent/Task calls with these ids: the first assistant line whose
 * content has a `tool_use` block with the id (the builder mentions it as `message.content[k].id`). One pass over the
 * tool-call events.
 */
export function subagentCalls(events: EventTable, ids: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  if (ids.size === 0) return out;
  for (let i = 0; i < events.size && out.size < ids.size; i++) {
    if (events.categoryOf(i) !== 'tool' || events.partOf(i) !== 0) continue;
    for (const m of events.mentionsOf(i)) if (ids.has(m.id) && !out.has(m.id) && TOOL_USE_FIELD.test(m.field)) out.set(m.id, i);
  }
  return out;
}

/** The transcript of session `sessionId` beside `path` (a fork's origin), or null when there is none. */
export async function originTranscript(path: string, sessionId: string): Promise<string | null> {
  const file = join(dirname(path), `${sessionId}.jsonl`);
  if (file === path) return null;
  try {
    return (await fileSystem().stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

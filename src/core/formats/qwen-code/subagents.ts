import { basename, dirname, join } from '../../io/paths';
import { fileSystem, readSmallJsonSync, readTextFile } from '../../io/fileSystem';
import type { SessionFile } from '../../format';

/** At most this many subagent files are listed for one session. */
const MAX_FILES = 400;

/** A subagent's `agent-<type>-<callId>.meta.json`, or null when it is missing or not a JSON object. */
async function readMeta(file: string): Promise<Record<string, unknown> | null> {
  try {
    const meta: unknown = JSON.parse(await readTextFile(file));
    return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The subagent recordings of a chat recording `<project>/chats/<session>.jsonl`: Qwen Code keeps them in
 * `<project>/subagents/<session>/agent-*.jsonl`, each with its `.meta.json` (`toolUseId` = the `agent` call that
 * started it, `description`, `agentType`). None for a file outside a `chats` folder.
 */
export async function qwenSessionFiles(path: string): Promise<SessionFile[]> {
  if (basename(dirname(path)) !== 'chats' || !path.endsWith('.jsonl')) return [];
  const dir = join(dirname(dirname(path)), 'subagents', basename(path).replace(/\.jsonl$/, ''));
  let names: string[];
  try {
    names = (await fileSystem().list(dir)).map((e) => e.name).filter((n) => /^agent-.+\.jsonl$/.test(n)).sort().slice(0, MAX_FILES);
  } catch {
    return [];
  }
  const out: SessionFile[] = [];
  for (const name of names) {
    const meta = await readMeta(join(dir, name.replace(/\.jsonl$/, '.meta.json')));
    const text = (k: string): string | null => (typeof meta?.[k] === 'string' && (meta[k] as string) !== '' ? (meta[k] as string) : null);
    out.push({ path: join(dir, name), role: 'subagent', toolUseId: text('toolUseId'), title: text('description') ?? text('agentType') });
  }
  return out;
}

/** A `.meta.json` larger than this is not read for its model. */
const MAX_META_BYTES = 64 * 1024;

/**
 * The model of a subagent recording `subagents/<session>/agent-<type>-<callId>.jsonl`, which its lines do not name:
 * its `.meta.json` beside it records it (`model`, else `persistedCliFlags.model`). Null for another file, or when the
 * meta is missing, too large or not JSON. Synchronous: the builder asks it once, at the file's first model step.
 */
export function subagentModelSync(path: string): string | null {
  if (!/\/subagents\/[^/]+\/agent-[^/]+\.jsonl$/.test(path)) return null;
  const v = readSmallJsonSync(path.replace(/\.jsonl$/, '.meta.json'), MAX_META_BYTES);
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const flags = typeof o.persistedCliFlags === 'object' && o.persistedCliFlags !== null ? (o.persistedCliFlags as Record<string, unknown>) : null;
  const model = typeof o.model === 'string' ? o.model : typeof flags?.model === 'string' ? flags.model : null;
  return model && model !== '' ? model : null;
}


import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { appendAll } from './arrays';
import { FORMAT_LIST } from './formats';

/** Folders a directory walk never enters: tools' folders, the blob stores, and every format's side folders. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'blobs', ...FORMAT_LIST.flatMap((f) => f.sideFolders ?? [])]);

/** True for names that hold traces: JSONL files, OTLP exports and JSON arrays of events. */
export function isTraceFileName(name: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(name) || /\.(otlp|events)\.json$/i.test(name);
}

/** Expands the CLI's FILE arguments: files as given, directories to the trace files below them (sorted). */
export async function expandTraceArgs(args: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const a of args) {
    let info;
    try {
      info = await stat(a);
    } catch {
      out.push(a); // let loading report it as unreadable
      continue;
    }
    if (!info.isDirectory()) {
      out.push(a);
      continue;
    }
    const stack = [a];
    const found: string[] = [];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      for (const ent of await readdir(dir, { withFileTypes: true })) {
        const p = join(dir, ent.name);
        if (ent.isDirectory()) {
          if (!SKIP_DIRS.has(ent.name)) stack.push(p);
        } else if (ent.isFile() && isTraceFileName(ent.name)) found.push(p);
      }
    }
    appendAll(out, found.sort());
  }
  return out;
}

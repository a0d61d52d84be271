import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Finding } from '../../model';
import { findParentCycles } from '../../checks/checkRecords';
import { ClaudeLine, uuidIndex } from './claudeRecords';

/** Bounds of the search for a summary's leaf in the other session files of the project directory. */
const SIBLING_LIMITS = { files: 400, bytes: 512 * 1024 * 1024 };

function f(rule: string, severity: Finding['severity'], l: ClaudeLine, message: string): Finding {
  return { rule, severity, line: l.line, ...(l.uuid ? { eventId: l.uuid } : {}), message };
}

function lineJsonFindings(lines: ClaudeLine[], out: Finding[]): void {
  for (const l of lines) if (l.shapeProblem) out.push(f('claude/line-json', 'error', l, l.shapeProblem));
}

function uniqueAndParentFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, out: Finding[]): void {
  for (const l of lines) {
    if (l.uuid !== null) {
      const first = byUuid.get(l.uuid)!;
      if (first !== l) out.push(f('claude/uuid-unique', 'warning', l, `uuid ${l.uuid} is already used by line ${first.line}; children attach to that line.`));
    }
    if (l.parentUuid === null) continue;
    const parent = byUuid.get(l.parentUuid);
    if (parent === undefined) {
      out.push(f('claude/parent-exists', 'warning', l, `parentUuid ${l.parentUuid} names no line in this file (normal for truncated or compacted sessions); the line is shown as a root.`));
    } else if (parent.index > l.index) {
      out.push(f('claude/parent-exists', 'warning', l, `parentUuid ${l.parentUuid} names line ${parent.line}, which comes later in the file; a parent must be written before its children.`));
    }
  }
}

function cycleFindings(byUuid: Map<string, ClaudeLine>, out: Finding[]): void {
  const parents = new Map<string, string>();
  const order = new Map<string, number>();
  for (const [uuid, l] of byUuid) {
    order.set(uuid, l.index);
    if (l.parentUuid === uuid) out.push(f('claude/parent-cycle', 'error', l, `Line ${l.line} names itself (${uuid}) as its parent.`));
    else if (l.parentUuid !== null) parents.set(uuid, l.parentUuid);
  }
  for (const cycle of findParentCycles(parents, order)) {
    const at = byUuid.get(cycle[0])!;
    const where = cycle.map((u) => byUuid.get(u)!.line).sort((a, b) => a - b);
    out.push(f('claude/parent-cycle', 'error', at, `Following parentUuid from line ${at.line} comes back to it (lines ${where.join(', ')} form a cycle); the line is shown as a root.`));
  }
}

/** Looks for `"uuid":"<id>"` in the other .jsonl files of the directory, within bounds; returns the ids found. */
async function findInSiblings(path: string, ids: Set<string>): Promise<Set<string>> {
  const found = new Set<string>();
  let names: string[];
  try {
    names = (await readdir(dirname(path))).filter((n) => n.endsWith('.jsonl') && n !== basename(path)).slice(0, SIBLING_LIMITS.files);
  } catch {
    return found;
  }
  let budget = SIBLING_LIMITS.bytes;
  for (const name of names) {
    if (found.size === ids.size || budget <= 0) break;
    const file = join(dirname(path), name);
    try {
      const size = (await stat(file)).size;
      const text = await readHead(file, Math.min(size, budget));
      budget -= size;
      for (const id of ids) if (!found.has(id) && (text.includes(`"uuid":${JSON.stringify(id)}`) || text.includes(`"uuid": ${JSON.stringify(id)}`))) found.add(id);
    } catch {
      // An unreadable sibling is simply not searched.
    }
  }
  return found;
}

async function readHead(file: string, bytes: number): Promise<string> {
  const h = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await h.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await h.close();
  }
}

async function summaryLeafFindings(path: string, lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, out: Finding[]): Promise<void> {
  const missing = lines.filter((l) => l.leafUuid !== null && !byUuid.has(l.leafUuid));
  if (missing.length === 0) return;
  const elsewhere = await findInSiblings(path, new Set(missing.map((l) => l.leafUuid!)));
  for (const l of missing) {
    const leaf = l.leafUuid!;
    if (!elsewhere.has(leaf)) out.push(f('claude/summary-leaf', 'info', l, `summary.leafUuid ${leaf} names no line in this file nor in the other session files of its directory.`));
  }
}

/** Integrity of a transcript: line shape, unique uuids, parents, cycles, and summary leaves. */
export async function verifyClaude(path: string, lines: ClaudeLine[]): Promise<Finding[]> {
  const out: Finding[] = [];
  const byUuid = uuidIndex(lines);
  lineJsonFindings(lines, out);
  uniqueAndParentFindings(lines, byUuid, out);
  cycleFindings(byUuid, out);
  await summaryLeafFindings(path, lines, byUuid, out);
  return out;
}

import { basename } from '../../io/paths';
import { fileSystem } from '../../io/fileSystem';
import { Finding } from '../../model';
import { findParentCycles } from '../../rules/checkRecords';
import { ClaudeLine, uuidIndex } from './claudeRecords';
import { claudeFinding as f } from './catalog';
import { findIdsIn, relatedTranscripts, subagentLink } from './claudeFolder';

function lineJsonFindings(lines: ClaudeLine[], out: Finding[]): void {
  for (const l of lines) if (l.shapeProblem) out.push(f('claude/line-json', l, l.shapeProblem));
}

/** Parents are looked up in the session's other files once, for all lines whose parent this file lacks. */
type Elsewhere = Map<string, string>;

function uniqueAndParentFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, elsewhere: Elsewhere, out: Finding[]): void {
  for (const l of lines) {
    if (l.uuid !== null) {
      const first = byUuid.get(l.uuid)!;
      if (first !== l) out.push(f('claude/uuid-unique', l, `uuid ${l.uuid} is already used by line ${first.line}; children attach to that line.`));
    }
    if (l.parentUuid === null) continue;
    const parent = byUuid.get(l.parentUuid);
    if (parent === undefined) {
      if (elsewhere.has(l.parentUuid)) continue;
      out.push(f('claude/parent-exists', l, `parentUuid ${l.parentUuid} names no line in this file nor in the session's other files (normal for truncated or compacted sessions); the line is shown as a root.`));
    } else if (parent.index === l.index + 1) {
      // Claude Code 2.1.114 writes a hook attachment just before the line it hangs off.
      out.push(f('claude/parent-next-line', l, `parentUuid ${l.parentUuid} names the next line (${parent.line}): the parent was written one line later.`));
    } else if (parent.index > l.index) {
      out.push(f('claude/parent-exists', l, `parentUuid ${l.parentUuid} names line ${parent.line}, which comes later in the file; a parent must be written before its children.`));
    }
  }
}

function logicalParentFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, elsewhere: Elsewhere, out: Finding[]): void {
  for (const l of lines) {
    const lp = l.parentUuid === null ? l.logicalParentUuid : null;
    if (lp === null || byUuid.has(lp) || elsewhere.has(lp)) continue;
    out.push(f('claude/logical-parent', l, `logicalParentUuid ${lp} (the conversation before this compaction) names no line in this file nor in the session's other files.`));
  }
}

function cycleFindings(byUuid: Map<string, ClaudeLine>, out: Finding[]): void {
  const parents = new Map<string, string>();
  const order = new Map<string, number>();
  for (const [uuid, l] of byUuid) {
    order.set(uuid, l.index);
    if (l.parentUuid === uuid) out.push(f('claude/parent-cycle', l, `Line ${l.line} names itself (${uuid}) as its parent.`));
    else if (l.parentUuid !== null) parents.set(uuid, l.parentUuid);
  }
  for (const cycle of findParentCycles(parents, order)) {
    const at = byUuid.get(cycle[0])!;
    const where = cycle.map((u) => byUuid.get(u)!.line).sort((a, b) => a - b);
    out.push(f('claude/parent-cycle', at, `Following parentUuid from line ${at.line} comes back to it (lines ${where.join(', ')} form a cycle); the line is shown as a root.`));
  }
}

/** stream-json: a subagent's lines name the Agent/Task tool_use that started it, which comes earlier in the stream. */
function parentToolUseFindings(lines: ClaudeLine[], out: Finding[]): void {
  const uses = new Set<string>();
  for (const l of lines) {
    if (l.stream && l.parentToolUseId !== null && !uses.has(l.parentToolUseId)) {
      out.push(f('claude/parent-tool-use', l, `parent_tool_use_id ${l.parentToolUseId} names no tool_use of an earlier assistant line; the line is shown under its run.`));
    }
    for (const id of l.toolUseIds) uses.add(id);
  }
}

async function summaryLeafFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, elsewhere: Elsewhere, out: Finding[]): Promise<void> {
  for (const l of lines) {
    const leaf = l.leafUuid;
    if (leaf === null || byUuid.has(leaf) || elsewhere.has(leaf)) continue;
    out.push(f('claude/summary-leaf', l, `summary.leafUuid ${leaf} names no line in this file nor in the other session files of its directory.`));
  }
}

async function subagentLinkFindings(path: string, lines: ClaudeLine[], out: Finding[]): Promise<void> {
  const link = await subagentLink(path);
  if (!link || lines.length === 0) return;
  const exists = await fileSystem().stat(link.main).then((s) => s.isFile(), () => false);
  if (!exists) return;
  const found = await findIdsIn([link.main], new Set([link.toolUseId]), 'id');
  if (found.size === 0) out.push(f('claude/subagent-link', lines[0], `The subagent's meta.json names tool_use ${link.toolUseId}, but the session file ${basename(link.main)} has no tool call with that id.`));
}

/** Ids this file names but does not hold, searched for in the session's other files (bounded). */
async function searchElsewhere(path: string, lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>): Promise<Elsewhere> {
  const wanted = new Set<string>();
  for (const l of lines) for (const id of [l.parentUuid, l.parentUuid === null ? l.logicalParentUuid : null, l.leafUuid]) if (id !== null && !byUuid.has(id)) wanted.add(id);
  if (wanted.size === 0) return new Map();
  return findIdsIn(await relatedTranscripts(path), wanted);
}

/**
 * Integrity of a transcript: line shape, unique uuids, parents (looked up across the session's folder: the
 * main session file, its subagents and compaction agents, before one is called missing), cycles, compaction
 * links, summary leaves, the subagent's link to its tool call; for stream-json, parent_tool_use_id.
 */
export async function verifyClaude(path: string, lines: ClaudeLine[]): Promise<Finding[]> {
  const out: Finding[] = [];
  const byUuid = uuidIndex(lines);
  const elsewhere = await searchElsewhere(path, lines, byUuid);
  lineJsonFindings(lines, out);
  uniqueAndParentFindings(lines, byUuid, elsewhere, out);
  logicalParentFindings(lines, byUuid, elsewhere, out);
  cycleFindings(byUuid, out);
  parentToolUseFindings(lines, out);
  await summaryLeafFindings(lines, byUuid, elsewhere, out);
  await subagentLinkFindings(path, lines, out);
  return out;
}

import { CLAUDE_KNOWN_OTHER_TYPES, CLAUDE_TYPES } from './adapter';
import { parseTime } from '../common';
import { Finding } from '../../model';
import { ClaudeLine, uuidIndex } from './claudeRecords';
import { claudeFinding as f } from './catalog';

function typeFindings(lines: ClaudeLine[], out: Finding[]): void {
  const unknown = new Map<string, { first: ClaudeLine; count: number }>();
  for (const l of lines) {
    if (l.type === null || CLAUDE_TYPES.has(l.type) || CLAUDE_KNOWN_OTHER_TYPES.has(l.type)) continue;
    const u = unknown.get(l.type);
    if (u) u.count++;
    else unknown.set(l.type, { first: l, count: 1 });
  }
  for (const [type, u] of unknown) {
    out.push(f('claude/type-known', u.first, `Line type ${JSON.stringify(type)} is not user, assistant, system or summary (${u.count} line${u.count > 1 ? 's' : ''}); shown generically.`));
  }
}

function sidechainFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, out: Finding[]): void {
  for (const l of lines) {
    if (!l.sidechain || l.parentUuid === null) continue;
    const parent = byUuid.get(l.parentUuid);
    if (parent && !parent.sidechain) {
      out.push(f('claude/sidechain-root', l, `Sidechain line parents to main-chain line ${parent.line}; a sidechain starts with parentUuid null and never links into the main chain.`));
    }
  }
}

function pairingFindings(lines: ClaudeLine[], out: Finding[]): void {
  const uses = new Map<string, ClaudeLine>();
  const answered = new Set<string>();
  for (const l of lines) {
    for (const id of l.toolUseIds) if (!uses.has(id)) uses.set(id, l);
  }
  for (const l of lines) {
    for (const id of l.toolResultIds) {
      answered.add(id);
      const use = uses.get(id);
      if (!use) out.push(f('claude/tool-result-pairing', l, `tool_result names tool_use_id ${id}, but no assistant line has a tool_use with that id.`));
      else if (use.index > l.index) out.push(f('claude/tool-result-pairing', l, `tool_result for ${id} comes before its tool_use on line ${use.line}.`));
    }
  }
  for (const [id, l] of uses) {
    if (!answered.has(id)) out.push(f('claude/unanswered-tool-use', l, `tool_use ${id} has no tool_result in this file (in flight, interrupted or truncated).`));
  }
}

function splitFindings(lines: ClaudeLine[], out: Finding[]): void {
  const groups = new Map<string, ClaudeLine[]>();
  for (const l of lines) {
    const id = l.messageId;
    if (id === null) continue;
    const g = groups.get(id);
    if (g) g.push(l);
    else groups.set(id, [l]);
  }
  for (const [id, g] of groups) {
    if (g.length < 2) continue;
    const requests = [...new Set(g.map((l) => l.requestId ?? ''))];
    const req = requests.length === 1 ? (requests[0] ? `, requestId ${requests[0]}` : '') : ` but differing requestIds ${requests.map((r) => r || '(none)').join(', ')}`;
    out.push(f('claude/split-message', g[1], `Lines ${g.map((l) => l.line).join(', ')} are one API response (message.id ${id}${req}), split one content block per line.`));
  }
}

function timeFindings(lines: ClaudeLine[], byUuid: Map<string, ClaudeLine>, out: Finding[]): void {
  for (const l of lines) {
    if (l.parentUuid === null) continue;
    const parent = byUuid.get(l.parentUuid);
    const t = parseTime(l.timestamp);
    const pt = parseTime(parent?.timestamp);
    if (parent && t !== null && pt !== null && t < pt) {
      out.push(f('claude/timestamp-order', l, `timestamp ${l.timestamp} is earlier than its parent's ${parent.timestamp} on line ${parent.line}.`));
    }
  }
}

/**
 * stream-json: every run the CLI starts (`system`/`init`) ends with a `result`; a background subagent's
 * notification is a second run with its own init and result. Fewer results than inits means the stream was cut.
 */
function streamResultFindings(lines: ClaudeLine[], out: Finding[]): void {
  if (lines.length === 0 || !lines[0].stream) return;
  const inits = lines.filter((l) => l.streamRole === 'init').length;
  const results = lines.filter((l) => l.streamRole === 'result').length;
  if (results >= inits && results > 0) return;
  const last = lines[lines.length - 1];
  out.push(f('claude/stream-result', last, `The stream has ${inits} system/init line${inits === 1 ? '' : 's'} but ${results} result line${results === 1 ? '' : 's'}: it ends at line ${last.line} before its run finished (cut, or the process was stopped).`));
}

/** Conformance of a transcript: types, sidechains, tool pairing, split responses, time order, message schema. */
export function checkClaude(lines: ClaudeLine[]): Finding[] {
  const out: Finding[] = [];
  const byUuid = uuidIndex(lines);
  typeFindings(lines, out);
  sidechainFindings(lines, byUuid, out);
  pairingFindings(lines, out);
  splitFindings(lines, out);
  timeFindings(lines, byUuid, out);
  streamResultFindings(lines, out);
  for (const l of lines) {
    for (const p of l.schema) out.push(f('claude/message-schema', l, `${l.type} line: ${p}.`));
  }
  return out;
}

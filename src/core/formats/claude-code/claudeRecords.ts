import { claudeDocumentElements, isStreamLine } from './adapter';
import { isObj, Obj } from '../common';
import { contentBlocks, toolResults, toolUses } from './claudeContent';
import { describeType } from '../common';
import { CheckContext } from '../../rules/types';
import { CheckRecord, eventLine } from '../../rules/checkRecords';
import { claudeSchemaProblems } from './claudeSchemas';

/** What the Claude rules need of one transcript line; the parsed value itself is not kept. */
export interface ClaudeLine {
  line: number;
  /** Position in the file (lines of a document do not order reliably by line number). */
  index: number;
  /** Why the line is not a transcript line (not an object, no string type), or null. */
  shapeProblem: string | null;
  type: string | null;
  uuid: string | null;
  parentUuid: string | null;
  sidechain: boolean;
  timestamp: string | null;
  messageId: string | null;
  requestId: string | null;
  leafUuid: string | null;
  /** A compaction boundary's link across the cut (`parentUuid` is null there). */
  logicalParentUuid: string | null;
  /** stream-json: the subagent tool call this line belongs to (`parent_tool_use_id`, or a task report's `tool_use_id`). */
  parentToolUseId: string | null;
  /** stream-json: the line is a `system`/`init` or a `result`. */
  streamRole: 'init' | 'result' | null;
  /** The line is stream-json output (snake_case `session_id`, `parent_tool_use_id`). */
  stream: boolean;
  toolUseIds: string[];
  toolResultIds: string[];
  /** Schema problems (computed for conformance checks only). */
  schema: string[];
}

function shapeProblem(v: unknown): string | null {
  if (!isObj(v)) return `The line is ${describeType(v)}, expected a JSON object with a string "type".`;
  if (typeof v.type === 'string' && v.type !== '') return null;
  return `The line has ${v.type === undefined ? 'no "type"' : `"type" ${JSON.stringify(v.type)}`}, expected a string such as "user" or "assistant".`;
}

/** Reduces one record to a {@link ClaudeLine}; `withSchema` runs the zod schemas too. */
export function claudeLine(r: CheckRecord, index: number, withSchema: boolean): ClaudeLine {
  const o: Obj | null = isObj(r.value) ? r.value : null;
  const s = (x: Obj | null, k: string) => (x && typeof x[k] === 'string' && x[k] !== '' ? (x[k] as string) : null);
  const type = s(o, 'type');
  const msg = o && isObj(o.message) ? o.message : null;
  const blocks = contentBlocks(msg);
  return {
    line: r.line,
    index,
    shapeProblem: shapeProblem(r.value),
    type,
    uuid: s(o, 'uuid'),
    parentUuid: s(o, 'parentUuid'),
    sidechain: o?.isSidechain === true,
    timestamp: s(o, 'timestamp'),
    messageId: type === 'assistant' ? s(msg, 'id') : null,
    requestId: s(o, 'requestId'),
    leafUuid: type === 'summary' ? s(o, 'leafUuid') : null,
    logicalParentUuid: s(o, 'logicalParentUuid'),
    parentToolUseId: s(o, 'parent_tool_use_id') ?? (type === 'system' ? s(o, 'tool_use_id') : null),
    streamRole: type === 'result' ? 'result' : type === 'system' && s(o, 'subtype') === 'init' ? 'init' : null,
    stream: isStreamLine(r.value),
    toolUseIds: type === 'assistant' ? toolUses(blocks).flatMap((u) => (u.id ? [u.id] : [])) : [],
    toolResultIds: type === 'user' ? toolResults(blocks).flatMap((x) => (x.toolUseId ? [x.toolUseId] : [])) : [],
    schema: withSchema && o ? claudeSchemaProblems(o) : [],
  };
}

/** Records of a re-read transcript document, at the lines the adapter gave their events (one per element). */
export function claudeDocumentRecords(ctx: CheckContext): (doc: unknown) => CheckRecord[] {
  return (doc) => claudeDocumentElements(doc).map((value, i) => ({ value, line: eventLine(ctx, i) }));
}

/** uuid → first line defining it. */
export function uuidIndex(lines: ClaudeLine[]): Map<string, ClaudeLine> {
  const m = new Map<string, ClaudeLine>();
  for (const l of lines) if (l.uuid !== null && !m.has(l.uuid)) m.set(l.uuid, l);
  return m;
}

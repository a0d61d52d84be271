import { Finding } from '../../model';
import { CheckRecord, collectingCheck } from '../../rules/checkRecords';
import { CheckContext, RuleModule } from '../../rules/types';
import { GEMINI_CATALOG } from './catalog';
import { isObj } from '../common';
import { functionResponses, GEMINI_STREAM_TYPES, recordingLineKind } from './geminiRecords';

/** What the rules need of one line. */
interface GeminiLine {
  line: number;
  notObject: string | null;
  kind: string;
  messageId: string | null;
  messageType: string | null;
  callIds: string[];
  resultIds: string[];
  statsToolCalls: number | null;
}

/** `an array`, `a string`, `null`… for messages. */
function describeType(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

const s = (o: unknown, k: string): string | null => (isObj(o) && typeof o[k] === 'string' ? (o[k] as string) : null);

function geminiLine(r: CheckRecord): GeminiLine {
  const v = r.value;
  const l: GeminiLine = { line: r.line, notObject: isObj(v) ? null : describeType(v), kind: 'unknown', messageId: null, messageType: null, callIds: [], resultIds: [], statsToolCalls: null };
  if (!isObj(v)) return l;
  if (typeof v.type === 'string' && GEMINI_STREAM_TYPES.has(v.type) && typeof v.id !== 'string') {
    l.kind = `stream:${v.type}`;
    if (v.type === 'tool_use' && typeof v.tool_id === 'string') l.callIds.push(v.tool_id);
    if (v.type === 'tool_result' && typeof v.tool_id === 'string') l.resultIds.push(v.tool_id);
    if (v.type === 'result' && isObj(v.stats) && typeof v.stats.tool_calls === 'number') l.statsToolCalls = v.stats.tool_calls;
    return l;
  }
  l.kind = recordingLineKind(v);
  if (l.kind === 'unknown' && typeof v.type === 'string') l.kind = `stream:${v.type}`;
  if (l.kind !== 'message') return l;
  l.messageId = v.id as string;
  l.messageType = s(v, 'type');
  if (Array.isArray(v.toolCalls)) for (const tc of v.toolCalls) if (s(tc, 'id')) l.callIds.push(s(tc, 'id')!);
  for (const fr of functionResponses(v.content)) if (typeof fr.id === 'string') l.resultIds.push(fr.id);
  return l;
}

/** A finding at the catalog severity of its rule. */
const f = GEMINI_CATALOG.finding;

function verifyGemini(lines: GeminiLine[]): Finding[] {
  const out: Finding[] = [];
  for (const l of lines) if (l.notObject) out.push(f('gemini-cli/line-json', l.line, `The line is ${l.notObject}, expected a JSON object.`));
  const first = lines.find((l) => !l.notObject);
  const stream = first?.kind.startsWith('stream:') ?? false;
  // A run that fails before it starts (bad auth, bad flags) writes only a result or error event: nothing was cut.
  const failedEarly = lines.every((l) => l.kind === 'stream:result' || l.kind === 'stream:error' || l.notObject);
  if (first && stream && first.kind !== 'stream:init' && !failedEarly) out.push(f('gemini-cli/header-first', first.line, `The stream starts with a ${first.kind.slice(7)} event, not init: the head of the output is missing.`));
  if (first && !stream && first.kind !== 'header' && first.kind !== 'set') out.push(f('gemini-cli/header-first', first.line, `The recording starts with a ${first.kind} line, not the session header: the head of the file is missing.`));
  let uses = 0;
  for (const l of lines) {
    if (l.kind === 'stream:init') uses = 0;
    if (l.kind === 'stream:tool_use') uses++;
    if (l.statsToolCalls !== null && l.statsToolCalls !== uses) {
      out.push(f('gemini-cli/stream-totals', l.line, `The result counts ${l.statsToolCalls} tool call(s), but the stream holds ${uses} tool_use line(s) since its init: lines were lost or added.`));
    }
  }
  return out;
}

function checkGemini(lines: GeminiLine[]): Finding[] {
  const out: Finding[] = [];
  const unknown = new Set<string>();
  const types = new Map<string, { type: string | null; line: number }>();
  const calls = new Set<string>();
  for (const l of lines) {
    if (l.notObject) continue;
    const known = l.kind === 'header' || l.kind === 'set' || l.kind === 'rewind' || l.kind === 'message' || GEMINI_STREAM_TYPES.has(l.kind.replace(/^stream:/, ''));
    if (!known && !unknown.has(l.kind)) {
      unknown.add(l.kind);
      out.push(f('gemini-cli/record-known', l.line, `A ${l.kind.replace(/^stream:/, '')} line: not a record type Gemini CLI is known to write; shown as a plain record.`));
    }
    if (l.messageId !== null) {
      const before = types.get(l.messageId);
      if (before && before.type !== l.messageType) out.push(f('gemini-cli/update-type', l.line, `Message ${l.messageId} was a ${before.type} message on line ${before.line} and is rewritten here as ${l.messageType}.`));
      else if (!before) types.set(l.messageId, { type: l.messageType, line: l.line });
    }
    for (const id of l.resultIds) if (!calls.has(id)) out.push(f('gemini-cli/result-pairing', l.line, `The tool result for ${id} names no earlier tool call: the call's line is missing.`));
    for (const id of l.callIds) calls.add(id);
  }
  return out;
}

/** Whole-document files (json output, older `.json` recordings) have no lines of their own to check. */
const noDocumentRecords = (): CheckRecord[] => [];

/** Gemini CLI verification (line shape, header, the result's own counts) and conformance (types, pairing). */
export const geminiCliRules: RuleModule = {
  format: 'gemini-cli',
  rules: GEMINI_CATALOG.rules,
  createVerifier: (ctx: CheckContext) => collectingCheck(ctx, geminiLine, verifyGemini, noDocumentRecords),
  createChecker: (ctx: CheckContext) => collectingCheck(ctx, geminiLine, checkGemini, noDocumentRecords),
};

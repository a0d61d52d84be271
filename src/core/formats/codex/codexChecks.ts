import { basename } from '../../io/paths';
import { CODEX_CALL_OUTPUT, CODEX_TYPES } from './adapter';
import { isObj, Obj, parseTime } from '../common';
import { describeType } from '../common';
import { Finding } from '../../model';
import { CODEX_CATALOG } from './catalog';
import { CheckRecord } from '../../rules/checkRecords';
import { codexPayloadProblems } from './codexSchemas';
import { isExecEvent } from './codexSniff';
import { checkExec, execLine, ExecLine, verifyExec } from './execChecks';

/** What the Codex rules need of one rollout line; the parsed value itself is not kept. */
export interface CodexLine {
  line: number;
  /** `describeType` of a value that is not an object, else null. */
  notObject: string | null;
  type: string | null;
  payloadType: string | null;
  callId: string | null;
  sessionId: string | null;
  timestamp: string | null;
  /** The `ordinal` 0.17x writes on every line (0, 1, 2, … in file order), or null. */
  ordinal: number | null;
  /** The line as a `codex exec --json` event, when it is one. */
  exec: ExecLine | null;
  /** Findings about this line alone (shape, arguments, schema), computed for conformance checks only. */
  own: Finding[];
}

/** Reduces one record to a {@link CodexLine}; `withChecks` computes the per-line conformance findings. */
export function codexLine(r: CheckRecord, withChecks: boolean): CodexLine {
  const o = isObj(r.value) ? r.value : null;
  const p = o && isObj(o.payload) ? o.payload : null;
  const s = (x: Obj | null, k: string) => (x && typeof x[k] === 'string' ? (x[k] as string) : null);
  const l: CodexLine = {
    line: r.line, notObject: o ? null : describeType(r.value), type: s(o, 'type'), payloadType: s(p, 'type'), callId: s(p, 'call_id'),
    sessionId: s(o, 'type') === 'session_meta' ? s(p, 'id') : null, timestamp: s(o, 'timestamp'),
    ordinal: o && typeof o.ordinal === 'number' ? o.ordinal : null, exec: isExecEvent(r.value) || (o && !p && !('timestamp' in o)) ? execLine(r.line, o) : null, own: [],
  };
  if (withChecks && o) {
    shapeFindings(r.line, o, l.own);
    if (p) argumentFindings(r.line, l.type, p, l.own);
    if (l.type && p) for (const msg of codexPayloadProblems(l.type, p)) l.own.push(f('codex/payload-schema', r.line, `${l.type}${l.payloadType ? ' ' + l.payloadType : ''}: ${msg}.`));
  }
  return l;
}

/** A finding at the catalog severity of its rule. */
const f = CODEX_CATALOG.finding;
const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** True when the file is a `codex exec --json` stream: its first object line is an exec event. */
function isExecStream(lines: CodexLine[]): boolean {
  const first = lines.find((l) => l.notObject === null);
  return first !== undefined && first.exec !== null && first.type !== null && !first.payloadType && first.timestamp === null;
}

/** 0.17x numbers its lines: a gap or repeat in `ordinal` is a line lost, inserted or moved at that point. */
function ordinalFindings(lines: CodexLine[], out: Finding[]): void {
  let prev: CodexLine | null = null;
  for (const l of lines) {
    if (l.ordinal === null) continue;
    if (prev && l.ordinal !== prev.ordinal! + 1) {
      const what = l.ordinal > prev.ordinal! + 1 ? `${l.ordinal - prev.ordinal! - 1} line(s) missing before it` : 'a line repeated or moved';
      out.push(f('codex/ordinal-sequence', l.line, `ordinal ${l.ordinal} follows ordinal ${prev.ordinal} (line ${prev.line}): ${what}.`));
    }
    prev = l;
  }
}

/** Integrity of a rollout (JSON objects, one leading session_meta, ordinals, the file name's session id) or an exec stream. */
export function verifyCodex(path: string, lines: CodexLine[]): Finding[] {
  const out: Finding[] = [];
  for (const l of lines) if (l.notObject) out.push(f('codex/line-json', l.line, `The line is ${l.notObject}, expected a JSON object.`));
  if (isExecStream(lines)) return [...out, ...verifyExec(lines.flatMap((l) => (l.exec ? [l.exec] : [])))];
  ordinalFindings(lines, out);
  const metas = lines.filter((l) => l.type === 'session_meta');
  const first = lines[0];
  if (first && first.type !== 'session_meta') {
    out.push(f('codex/session-meta-first', first.line, `The first line is ${first.type === null ? 'not a rollout item' : `a ${first.type}`}, expected session_meta${metas.length ? ` (it is on line ${metas[0].line})` : ' (there is none)'}.`));
  }
  for (const extra of metas.slice(1)) out.push(f('codex/session-meta-first', extra.line, `A second session_meta (the first is on line ${metas[0].line}); a rollout holds one session.`));
  const m = UUID.exec(basename(path));
  const id = metas[0]?.sessionId;
  if (m && id && m[1].toLowerCase() !== id.toLowerCase()) {
    out.push(f('codex/file-name-id', metas[0].line, `The file name names session ${m[1]}, but session_meta.payload.id is ${id}.`));
  }
  return out;
}

function shapeFindings(line: number, o: Obj, out: Finding[]): void {
  const bad: string[] = [];
  if (typeof o.timestamp !== 'string') bad.push(`timestamp is ${describeType(o.timestamp)} (expected a string)`);
  if (typeof o.type !== 'string') bad.push(`type is ${describeType(o.type)} (expected a string)`);
  if (!isObj(o.payload)) bad.push(`payload is ${describeType(o.payload)} (expected an object)`);
  if (bad.length) out.push(f('codex/line-shape', line, `Not a rollout line: ${bad.join(', ')}.`));
  else if (parseTime(o.timestamp) === null) out.push(f('codex/line-shape', line, `timestamp ${JSON.stringify(o.timestamp)} is not an RFC 3339 time.`));
}

function pairingFindings(lines: CodexLine[], out: Finding[]): void {
  const calls = new Map<string, { line: number; kind: string; answered: boolean }>();
  for (const l of lines) {
    if (l.type !== 'response_item' || l.payloadType === null) continue;
    const kind = l.payloadType;
    const callId = l.callId;
    if (kind in CODEX_CALL_OUTPUT && callId) {
      if (!calls.has(callId)) calls.set(callId, { line: l.line, kind, answered: false });
      continue;
    }
    if (!kind.endsWith('_call_output') || callId === null) continue;
    const call = calls.get(callId);
    if (!call) {
      out.push(f('codex/call-pairing', l.line, `${kind} names call_id ${callId}, but no earlier call has that id.`));
      continue;
    }
    if (CODEX_CALL_OUTPUT[call.kind] !== kind) out.push(f('codex/call-pairing', l.line, `${kind} answers call_id ${callId}, but that call (line ${call.line}) is a ${call.kind}, answered by ${CODEX_CALL_OUTPUT[call.kind]}.`));
    else if (call.answered) out.push(f('codex/call-pairing', l.line, `call_id ${callId} (line ${call.line}) already has an output.`));
    call.answered = true;
  }
  for (const [id, c] of calls) if (!c.answered) out.push(f('codex/unanswered-call', c.line, `${c.kind} ${id} has no ${CODEX_CALL_OUTPUT[c.kind]} in this file (in flight or interrupted).`));
}

function argumentFindings(line: number, type: string | null, p: Obj, out: Finding[]): void {
  if (type !== 'response_item' || p.type !== 'function_call' || typeof p.arguments !== 'string') return;
  try {
    JSON.parse(p.arguments);
  } catch (err) {
    out.push(f('codex/arguments-json', line, `function_call ${String(p.name ?? '')} arguments are not JSON (${err instanceof Error ? err.message : String(err)}).`));
  }
}

/** Conformance of a rollout: line shape, item types, call pairing, arguments, time order and payload schemas. */
export function checkCodex(lines: CodexLine[]): Finding[] {
  if (isExecStream(lines)) return checkExec(lines.flatMap((l) => (l.exec ? [l.exec] : [])));
  const out: Finding[] = [];
  const unknown = new Map<string, { line: number; count: number }>();
  let last: { time: number; line: number } | null = null;
  for (const l of lines) {
    out.push(...l.own);
    if (l.type !== null && !CODEX_TYPES.has(l.type)) {
      const u = unknown.get(l.type);
      if (u) u.count++;
      else unknown.set(l.type, { line: l.line, count: 1 });
    }
    const t = parseTime(l.timestamp);
    if (t !== null && last && t < last.time) out.push(f('codex/timestamp-order', l.line, `timestamp ${l.timestamp} is earlier than line ${last.line}'s.`));
    if (t !== null && (!last || t >= last.time)) last = { time: t, line: l.line };
  }
  for (const [type, u] of unknown) out.push(f('codex/type-known', u.line, `Item type ${JSON.stringify(type)} is not one of ${[...CODEX_TYPES].join(', ')} (${u.count} line${u.count > 1 ? 's' : ''}); shown as opaque.`));
  pairingFindings(lines, out);
  return out;
}

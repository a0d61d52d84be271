import { isObj, Obj } from '../common';
import { ENVELOPE_KEYS, isU64, LedgerLine, RECORD_KEYS, unwrapLedgerLine } from './records';
import { Finding } from '../../model';
import { HARNESS_CATALOG, HarnessRuleId } from './catalog';
import { LineInput } from '../../rules/types';
import { numberToken, u64TokenProblem } from '../../json/numberToken';

const RECORD_EXPECTED = RECORD_KEYS.map((k) => `\`${k}\``).join(', ');

/** Problems of the outer `RecordedEvent` (deny_unknown_fields, u64 fields, a tagged event object). */
function recordShape(rec: Obj, where: string, text: string): string[] {
  const out: string[] = [];
  for (const k of Object.keys(rec)) {
    if (!(RECORD_KEYS as readonly string[]).includes(k)) out.push(`unknown field \`${k}\`, expected one of ${RECORD_EXPECTED}${where}`);
  }
  for (const k of RECORD_KEYS) if (!(k in rec)) out.push(`missing field \`${k}\`${where}`);
  for (const k of ['seq', 'occurred_at_ms'] as const) {
    const token = typeof rec[k] === 'number' ? numberToken(text, k) : null;
    const exact = token !== null ? u64TokenProblem(token) : null;
    if (exact !== null) out.push(`${exact} for \`${k}\`${where}`);
    else if (k in rec && !isU64(rec[k])) out.push(`invalid type for \`${k}\`: ${JSON.stringify(rec[k])}, expected u64${where}`);
  }
  if ('event' in rec && !(isObj(rec.event) && typeof rec.event.event === 'string')) {
    out.push(isObj(rec.event) ? `missing field \`event\` (the event tag)${where}` : `invalid type for \`event\`: expected an internally tagged HarnessEvent object${where}`);
  }
  return out;
}

/** Line-level state shared across one file: torn-tail lines from the loader and the voice line count. */
export interface LineScan {
  torn: { has(line: number): boolean };
  voiceLines: number;
}

/**
 * Checks one line's framing (§1, §2.1, §2.2): JSON object, bare record or `{v, record}` envelope or one
 * `voice_events` line. Returns the findings and the unwrapped line when it carries a record.
 */
export function checkLedgerLine(input: LineInput, scan: LineScan): { findings: Finding[]; line: LedgerLine | null } {
  const findings: Finding[] = [];
  const f = (rule: HarnessRuleId, message: string) => findings.push(HARNESS_CATALOG.finding(rule, input.line, message));
  if (input.blank) return { findings, line: null };
  if (input.value === undefined) {
    if (scan.torn.has(input.line)) findings.push(HARNESS_CATALOG.overridden('harness/line-json', input.line, 'torn tail: the last line has no newline and is not complete JSON; only bytes up to the last newline are committed'));
    else f('harness/line-json', 'line is not valid JSON');
    return { findings, line: null };
  }
  if (!isObj(input.value)) {
    f('harness/line-json', `line is a JSON ${Array.isArray(input.value) ? 'array' : typeof input.value}, not an object`);
    return { findings, line: null };
  }
  const v = input.value;
  const line = unwrapLedgerLine(v);
  // A seq that is not an exact u64 as written (1e+299, 2^64) is not a sequence number; its line says why.
  if (line?.seq != null) {
    const token = numberToken(input.text, 'seq');
    if (token !== null && u64TokenProblem(token) !== null) line.seq = null;
  }
  if (line?.form === 'voice') {
    scan.voiceLines++;
    if (Object.keys(v).length !== 1) f('harness/line-shape', `a voice_events line has exactly the key \`voice_events\`, found ${Object.keys(v).map((k) => `\`${k}\``).join(', ')}`);
    if (!Array.isArray(v.voice_events)) f('harness/line-shape', 'voice_events is not an array');
    if (scan.voiceLines > 1) f('harness/line-shape', `a ledger holds at most one voice_events line; this is number ${scan.voiceLines}`);
    return { findings, line };
  }
  if (line?.form === 'envelope') {
    for (const k of Object.keys(v)) if (!(ENVELOPE_KEYS as readonly string[]).includes(k)) f('harness/line-shape', `unknown field \`${k}\`, expected \`v\` or \`record\``);
    if (!('v' in v)) f('harness/line-shape', 'missing field `v`');
    else if (v.v !== 1 && v.v !== 2) f('harness/envelope-version', `envelope version is ${JSON.stringify(v.v)}, expected 1 (plato) or 2 (server)`);
    if (!line.record) f('harness/line-shape', 'envelope `record` is not an object');
    else for (const m of recordShape(line.record, ' (in record)', input.text)) f('harness/line-shape', m);
    return { findings, line };
  }
  if (!line) {
    f('harness/line-shape', `not a harness ledger line: expected {${RECORD_EXPECTED}} or {\`v\`, \`record\`}`);
    return { findings, line: null };
  }
  for (const m of recordShape(v, '', input.text)) f('harness/line-shape', m);
  return { findings, line };
}

import { Finding } from '../model';
import { CheckMode, RuleInfo, RuleModule } from './types';

/** Rules every format gets from reading and tree building (parse and tree findings of the loader). */
export const GENERIC_RULES: RuleInfo[] = [
  { id: 'parse/invalid-json', format: 'any', mode: 'verify', severity: 'error', summary: 'A line is not valid JSON.',
    explanation: 'Every line of a JSONL trace must be one JSON value. A line that does not parse was torn by concurrent writers, cut by a crash or edited by hand; nothing on it can be verified.',
    example: '{"seq":3,"kind":"cell_start"{"seq":4,…' },
  { id: 'parse/torn-tail', format: 'any', mode: 'verify', severity: 'warning', summary: 'The last line has no newline and is incomplete.',
    explanation: 'Writers end every line with a newline. An incomplete last line means the writer was still writing (a live trace) or stopped mid-line (a crash or a full disk).',
    example: '{"seq":9,"kind":"run_e' },
  { id: 'parse/line-too-long', format: 'any', mode: 'verify', severity: 'error', summary: 'A line is larger than the reader accepts.',
    explanation: 'Lines above the size limit are indexed but not parsed, so their events are not shown or checked.' },
  { id: 'parse/gzip-truncated', format: 'any', mode: 'verify', severity: 'error', summary: 'A .gz trace ends in the middle of its compressed data.',
    explanation: 'The gzip stream stops before its end marker: the file was cut while being copied or written. Every line that decompresses is read; the last one may be cut, and whatever followed it is missing.' },
  { id: 'parse/bom', format: 'any', mode: 'verify', severity: 'info', summary: 'The file starts with a UTF-8 byte-order mark.',
    explanation: 'No runtime writes a BOM; it usually means the file was re-saved by an editor. It is skipped when reading.' },
  { id: 'parse/invalid-utf8', format: 'any', mode: 'verify', severity: 'warning', summary: 'A line holds bytes that are not valid UTF-8.',
    explanation: 'JSONL is UTF-8 text. Invalid bytes (a cut multi-byte character, Latin-1 text, binary data) are read as U+FFFD, so the value shown is not the value written; the message gives the byte offset. An error for formats whose spec requires UTF-8 (lumen).',
    example: '{"text":"caf\\xe9"}' },
  { id: 'parse/lone-cr', format: 'any', mode: 'verify', severity: 'warning', summary: 'A line ends with a carriage return but no newline.',
    explanation: 'VS Code and this viewer count a lone CR as a line break, so line numbers agree with the editor; most JSONL readers split on newlines only and would read the two lines as one. Usually a file converted by an old Mac tool or a writer that wrote `\\r` by mistake. An error for formats whose spec splits on newlines (lumen).',
    example: '{"id":"a"}\\r{"id":"b"}' },
  { id: 'parse/time-out-of-range', format: 'any', mode: 'verify', severity: 'warning', summary: 'A timestamp is outside the range a date can hold.',
    explanation: 'Times are milliseconds around 1970 and a date can hold ±8.64e15 ms (about 275,000 years). A larger number, often one duplicated digit, cannot be shown as a date; the event is kept with its raw value and no time.',
    example: '{"seq":0,"occurred_at_ms":17000000000000000}' },
  { id: 'tree/duplicate-id', format: 'generic', mode: 'verify', severity: 'warning', summary: 'Two events share one id.',
    explanation: 'Event ids identify one event. A repeated id makes parent links ambiguous; the first event with the id is the one children attach to.',
    example: '{"id":"a"}\n{"id":"a"}' },
  { id: 'tree/dangling-parent', format: 'generic', mode: 'verify', severity: 'warning', summary: 'A parent id names no event in the trace.',
    explanation: 'The event links to a parent that is not in this file: lines were lost, the trace was cut, or the parent lives in another file. The event is shown as a root.',
    example: '{"id":"b","parent_id":"missing"}' },
  { id: 'tree/parent-elsewhere', format: 'generic', mode: 'verify', severity: 'info', summary: 'A parent is in another file of the same session.',
    explanation: 'The event links to a parent that is not in this file but in a file that belongs with it (for Claude Code: the main session file, its subagents/ and compaction agent files). The event is shown as a root of this file; the parent is not missing.',
    example: 'subagents/agent-a1.jsonl line 1: {"parentUuid":"<uuid of a line of the main session file>",…}' },
  { id: 'tree/cycle', format: 'generic', mode: 'verify', severity: 'error', summary: 'Parent links form a cycle.',
    explanation: 'Following parent ids from an event leads back to it. No writer produces this; the link on the last line of the cycle is cut and its event shown as a root.',
    example: '{"id":"a","parent_id":"b"}\n{"id":"b","parent_id":"a"}' },
  { id: 'generic/time-backwards', format: 'generic', mode: 'check', severity: 'info', summary: 'A timestamp is earlier than the previous line\'s.',
    explanation: 'Appending writers usually write in time order. Time going backwards hints at merged files, clock changes or concurrent writers.' },
];

/**
 * The findings the loader made, mapped onto the generic rules. Format modules may supersede some of them
 * (see {@link RuleModule}), in which case the runner drops those.
 */
export function loaderFindings(diagnostics: Finding[], mode: CheckMode): Finding[] {
  const verifyIds = new Set(GENERIC_RULES.filter((r) => r.mode === 'verify').map((r) => r.id));
  // Both modes report what the reader saw: a check of an unreadable line is as broken as its verification.
  return diagnostics.filter((d) => verifyIds.has(d.rule) && (mode === 'verify' || d.rule.startsWith('parse/') || d.rule.startsWith('tree/')));
}

/** Generic conformance: timestamps going backwards (per run/session). */
export const genericRules: RuleModule = {
  format: 'generic',
  rules: GENERIC_RULES,
  createChecker(ctx) {
    const t = ctx.model.events;
    return {
      add() {},
      finish() {
        const out: Finding[] = [];
        const last = new Map<string, { time: number; line: number }>();
        for (let i = 0; i < t.size; i++) {
          const time = t.timeOf(i);
          if (time === null) continue;
          const g = t.groupOf(i) ?? '';
          const prev = last.get(g);
          if (prev && time < prev.time && t.lineOf(i) !== prev.line) {
            out.push({ rule: 'generic/time-backwards', severity: 'info', line: t.lineOf(i), seq: t.seqOf(i) ?? undefined, eventId: t.id(i) ?? undefined,
              message: `Timestamp ${new Date(time).toISOString()} is earlier than ${new Date(prev.time).toISOString()} on line ${prev.line}.` });
          }
          if (!prev || time >= prev.time) last.set(g, { time, line: t.lineOf(i) });
        }
        return out;
      },
    };
  },
};

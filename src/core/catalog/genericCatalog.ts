import { ruleCatalog, RuleEntry } from './ruleEntries';

/**
 * The rules every format gets, in three catalogs by prefix: `parse/` (the reader: JSON, line limits, gzip, BOM,
 * UTF-8, line breaks, time range), `tree/` (the tree builder: ids and parent links) and `generic/` (the one
 * generic conformance rule). The loader, the tree builder and the generic checker make their findings from
 * these, so each severity is written here once.
 * This module imports nothing but the catalog helper, so the loader's hot paths can use it without a cycle.
 */
const PARSE_ENTRIES = [
  ['invalid-json', 'verify', 'error', 'A line is not valid JSON.',
    'Every line of a JSONL trace must be one JSON value. A line that does not parse was torn by concurrent writers, cut by a crash or edited by hand; nothing on it can be verified.',
    '{"seq":3,"kind":"cell_start"{"seq":4,…'],
  ['torn-tail', 'verify', 'warning', 'The last line has no newline and is incomplete.',
    'Writers end every line with a newline. An incomplete last line means the writer was still writing (a live trace) or stopped mid-line (a crash or a full disk).',
    '{"seq":9,"kind":"run_e'],
  ['zeroed-bytes', 'verify', 'error', 'A line holds zeroed (NUL) bytes, as a crash leaves them.',
    'No trace writer writes NUL bytes. A run of them is a block the file system zeroed after a crash (ext4 keeps a file\'s size and zeroes the blocks it had not written): the bytes written there are lost. Every other line is still read; each line the zeroed run touches is reported at its line. A last line that ends in NUL bytes is a lost end of the file, not a write in progress, so it is this error and not parse/torn-tail.',
    '{"seq":3,"kind":"cell_st\\u0000\\u0000\\u0000…'],
  ['line-too-long', 'verify', 'error', 'A line is larger than the reader accepts.',
    'Lines above the size limit are indexed but not parsed, so their events are not shown or checked.'],
  ['gzip-truncated', 'verify', 'error', 'A .gz trace ends in the middle of its compressed data.',
    'The gzip stream stops before its end marker: the file was cut while being copied or written. Every line that decompresses is read; the last one may be cut, and whatever followed it is missing.'],
  ['bom', 'verify', 'info', 'The file starts with a UTF-8 byte-order mark.',
    'No runtime writes a BOM; it usually means the file was re-saved by an editor. It is skipped when reading.'],
  ['invalid-utf8', 'verify', 'warning', 'A line holds bytes that are not valid UTF-8.',
    'JSONL is UTF-8 text. Invalid bytes (a cut multi-byte character, Latin-1 text, binary data) are read as U+FFFD, so the value shown is not the value written; the message gives the byte offset. An error for formats whose spec requires UTF-8 (lumen).',
    '{"text":"caf\\xe9"}'],
  ['lone-cr', 'verify', 'warning', 'A line ends with a carriage return but no newline.',
    'VS Code and this viewer count a lone CR as a line break, so line numbers agree with the editor; most JSONL readers split on newlines only and would read the two lines as one. Usually a file converted by an old Mac tool or a writer that wrote `\\r` by mistake. An error for formats whose spec splits on newlines (lumen).',
    '{"id":"a"}\\r{"id":"b"}'],
  ['time-out-of-range', 'verify', 'warning', 'A timestamp is outside the range a date can hold.',
    'Times are milliseconds around 1970 and a date can hold ±8.64e15 ms (about 275,000 years). A larger number, often one duplicated digit, cannot be shown as a date; the event is kept with its raw value and no time.',
    '{"seq":0,"occurred_at_ms":17000000000000000}'],
] as const satisfies readonly RuleEntry[];

const TREE_ENTRIES = [
  ['duplicate-id', 'verify', 'warning', 'Two events share one id.',
    'Event ids identify one event. A repeated id makes parent links ambiguous; the first event with the id is the one children attach to.',
    '{"id":"a"}\n{"id":"a"}'],
  ['dangling-parent', 'verify', 'warning', 'A parent id names no event in the trace.',
    'The event links to a parent that is not in this file: lines were lost, the trace was cut, or the parent lives in another file. The event is shown as a root.',
    '{"id":"b","parent_id":"missing"}'],
  ['parent-elsewhere', 'verify', 'info', 'A parent is in another file of the same session.',
    'The event links to a parent that is not in this file but in a file that belongs with it (for Claude Code: the main session file, its subagents/ and compaction agent files). The event is shown as a root of this file; the parent is not missing.',
    'subagents/agent-a1.jsonl line 1: {"parentUuid":"<uuid of a line of the main session file>",…}'],
  ['cycle', 'verify', 'error', 'Parent links form a cycle.',
    'Following parent ids from an event leads back to it. No writer produces this; the link on the last line of the cycle is cut and its event shown as a root.',
    '{"id":"a","parent_id":"b"}\n{"id":"b","parent_id":"a"}'],
] as const satisfies readonly RuleEntry[];

const GENERIC_ENTRIES = [
  ['time-backwards', 'check', 'info', 'A timestamp is earlier than the previous line\'s.',
    'Appending writers usually write in time order. Time going backwards hints at merged files, clock changes or concurrent writers.'],
  ['usage-totals', 'check', 'info', 'The tokens the events report do not add up to the file\'s own totals.',
    'Where a format writes its own totals (murmur session_end and task_end, Claude Code result and cost-state, Codex token_count running totals, deepstrike run_terminal, an agent span that sums its model calls), the viewer sums the events and compares, field by field where both sides report it. A difference means lines are missing, the totals cover more than this file (a resumed session, subagent files), or the writer counts differently. The rollups count the events; an aggregate never adds to its children.',
    '{"event_type":"inference","input_tokens":100}\n{"event_type":"session_end","total_input_tokens":150}'],
] as const satisfies readonly RuleEntry[];

/**
 * The reader's rules (`parse/…`), for every format. Invalid UTF-8 and lone CRs are errors for formats whose
 * spec requires UTF-8 and newline-split lines (`strictText` in their module: lumen).
 */
export const PARSE_CATALOG = ruleCatalog('parse', 'any', PARSE_ENTRIES, {
  'invalid-utf8': { severity: 'error', when: 'a format whose spec requires UTF-8 (strictText: lumen)' },
  'lone-cr': { severity: 'error', when: 'a format whose spec splits lines on newlines only (strictText: lumen)' },
});

/** The tree builder's rules (`tree/…`); formats with their own parent rules supersede them. */
export const TREE_CATALOG = ruleCatalog('tree', 'generic', TREE_ENTRIES);

/** The generic conformance rules (`generic/…`). */
export const GENERIC_CATALOG = ruleCatalog('generic', 'generic', GENERIC_ENTRIES);

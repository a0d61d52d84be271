/**
 * The fields the filter language knows: one table that the compiler, the completions and the CLI help read,
 * so a field is added in one place.
 */
import type { EventStatus, Severity } from '../model';

/** What the filter evaluates one row against: an event or a malformed line. */
export interface FilterSubject {
  kind: string;
  category: string;
  status: EventStatus;
  /** Worst finding on the subject's line (loader diagnostics, check results), when known. */
  badge?: Severity;
  tool: string | null;
  model: string | null;
  id: string | null;
  label: string;
  group: string | null;
  durationMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  line: number;
  seq: number | null;
}

/** How a field's value is read. */
export type FieldType = 'name' | 'label' | 'status' | 'number' | 'text';

/** One field of the language. */
export interface FilterField {
  name: string;
  type: FieldType;
  /** What the completion list says about it. */
  doc: string;
  /** For names and labels: the subject's value. */
  get?: (s: FilterSubject) => string | null;
  /** For numbers: the subject's value, and how a written number is read (units). */
  num?: (s: FilterSubject) => number | null;
  unit?: 'duration' | 'tokens' | 'integer';
}

const tokens = (s: FilterSubject): number | null =>
  s.tokensIn === null && s.tokensOut === null ? null : (s.tokensIn ?? 0) + (s.tokensOut ?? 0);

/** Every field, in the order completions offer them. */
export const FILTER_FIELDS: readonly FilterField[] = [
  { name: 'kind', type: 'name', doc: 'event kind (kind:tool_call, kind:llm_*)', get: (s) => s.kind },
  { name: 'status', type: 'status', doc: 'ok, warning, error, or problems (warnings and errors)' },
  { name: 'tool', type: 'name', doc: 'tool name (tool:shell, tool:read_*)', get: (s) => s.tool },
  { name: 'model', type: 'name', doc: 'model name (model:claude*)', get: (s) => s.model },
  { name: 'category', type: 'name', doc: 'coarse role: tool, inference, turn, run, message…', get: (s) => s.category },
  { name: 'text', type: 'text', doc: 'text anywhere in the event: label, id, its JSON line (text:"timeout")' },
  { name: 'duration', type: 'number', doc: 'duration (duration>500ms, duration>=2s)', num: (s) => s.durationMs, unit: 'duration' },
  { name: 'tokens', type: 'number', doc: 'input plus output tokens (tokens>1k)', num: tokens, unit: 'tokens' },
  { name: 'in', type: 'number', doc: 'input tokens (in>10k)', num: (s) => s.tokensIn, unit: 'tokens' },
  { name: 'out', type: 'number', doc: 'output tokens (out>500)', num: (s) => s.tokensOut, unit: 'tokens' },
  { name: 'line', type: 'number', doc: 'line in the file (line:100..200, line>50)', num: (s) => s.line, unit: 'integer' },
  { name: 'seq', type: 'number', doc: 'sequence number (seq:10..20)', num: (s) => s.seq, unit: 'integer' },
  { name: 'label', type: 'label', doc: 'text in the row label (label:"npm test")', get: (s) => s.label },
  { name: 'id', type: 'name', doc: 'the event id (id:call_*)', get: (s) => s.id },
  { name: 'group', type: 'name', doc: 'run or session (group:run-1)', get: (s) => s.group },
];

/** The field of a name, or undefined. */
export function filterField(name: string): FilterField | undefined {
  return FILTER_FIELDS.find((f) => f.name === name);
}

/** Values `status:` accepts, with what each matches. */
export const STATUS_VALUES: readonly { value: string; doc: string }[] = [
  { value: 'ok', doc: 'no warning or error' },
  { value: 'warning', doc: 'a warning (the event or a finding on its line)' },
  { value: 'error', doc: 'an error (the event or a finding on its line)' },
  { value: 'problems', doc: 'a warning or an error' },
];

const UNIT_FACTORS: Record<NonNullable<FilterField['unit']>, Record<string, number>> = {
  duration: { '': 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 },
  tokens: { '': 1, k: 1000, m: 1_000_000 },
  integer: { '': 1 },
};

/** Reads a written number with its unit (`500ms`, `2.5s`, `1k`); null when it is not one. */
export function readNumber(text: string, unit: NonNullable<FilterField['unit']>): number | null {
  const m = /^(\d+(?:\.\d+)?)([a-z]*)$/i.exec(text);
  if (!m) return null;
  const factor = UNIT_FACTORS[unit][m[2].toLowerCase()];
  if (factor === undefined) return null;
  if (unit === 'integer' && m[1].includes('.')) return null;
  return Number(m[1]) * factor;
}

/** The units a field's numbers take, for messages. */
export function unitsOf(unit: NonNullable<FilterField['unit']>): string {
  return Object.keys(UNIT_FACTORS[unit]).filter((u) => u !== '').join(', ');
}

/** Facts of the Lumen trace line format (lumen.md §3, §4, §6), defined once for the adapter and the rules. */

/** The ten `TraceEventKind` values, in declaration order. */
export const LUMEN_KINDS = [
  'run_start', 'cell_start', 'cell_end', 'call_enter', 'call_exit', 'vm_step', 'tool_call', 'schema_validate', 'error', 'run_end',
] as const;
export type LumenKind = (typeof LUMEN_KINDS)[number];
const KIND_SET: ReadonlySet<string> = new Set(LUMEN_KINDS);

/** True when `kind` is one of the ten kinds upstream can load. */
export function isLumenKind(kind: unknown): kind is LumenKind {
  return typeof kind === 'string' && KIND_SET.has(kind);
}

/** The sixteen keys of a line, in serialization order; the index of a key is its slot. */
export const LUMEN_KEYS = [
  'seq', 'kind', 'prev_hash', 'hash', 'timestamp', 'doc_hash', 'cell', 'tool_id', 'tool_version',
  'inputs_hash', 'outputs_hash', 'policy_hash', 'latency_ms', 'cached', 'details', 'message',
] as const;
export type LumenKey = (typeof LUMEN_KEYS)[number];

/** Slot numbers of the keys, for fixed-size per-line arrays. */
export const SLOT = {
  seq: 0, kind: 1, prev_hash: 2, hash: 3, timestamp: 4, doc_hash: 5, cell: 6, tool_id: 7, tool_version: 8,
  inputs_hash: 9, outputs_hash: 10, policy_hash: 11, latency_ms: 12, cached: 13, details: 14, message: 15,
} as const satisfies Record<LumenKey, number>;

/** Key → slot lookup. */
export const SLOT_OF: ReadonlyMap<string, number> = new Map(LUMEN_KEYS.map((k, i) => [k, i]));

/** Keys that must be present on every line (§11 `lumen/required-fields`). */
export const REQUIRED_SLOTS = [SLOT.seq, SLOT.kind, SLOT.prev_hash, SLOT.hash, SLOT.timestamp, SLOT.doc_hash] as const;

/** The `prev_hash` of the first line (`TRACE_GENESIS_HASH`); a literal, not a digest. */
export const GENESIS_HASH = 'sha256:genesis';

/** A chain hash: `sha256:` and 64 lowercase hex digits. */
export const CHAIN_HASH_RE = /^sha256:[0-9a-f]{64}$/;

/** A UUID (the writer mints v4 run ids; any version is accepted). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LEADING_UUID_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.|$)/i;

/**
 * The run id of a trace file: the run id exists only in the file name (`<run_id>.jsonl`). A copy named
 * `<run_id>.<note>.jsonl` keeps its leading UUID; any other name gives its stem.
 */
export function runIdFromFileName(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const m = LEADING_UUID_RE.exec(base);
  if (m) return m[1].toLowerCase();
  return base.replace(/\.jsonl$/i, '');
}

/** True when the file name is exactly `<uuid>.jsonl`, as the writer names it. */
export function isRunIdFileName(fileName: string): boolean {
  const base = fileName.replace(/^.*[\\/]/, '');
  return UUID_RE.test(base.replace(/\.jsonl$/i, ''));
}

/** RFC 3339 as chrono's `DateTime<FixedOffset>::from_str` reads it (`T`, `t` or space; `Z` or an offset). */
const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):?(\d{2}))$/;

/** The date part (`YYYY-MM-DD`) of the last timestamp that passed the full check: its day is known valid. */
let lastValidDay = '';

/** True when `s` parses as an RFC 3339 date-time with valid field ranges. */
export function isRfc3339(s: string): boolean {
  if (lastValidDay !== '' && s.startsWith(lastValidDay) && isUtcTimeTail(s)) return true;
  const m = RFC3339_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 60) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  if (d > days) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  lastValidDay = s.slice(0, 10);
  return true;
}

function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -100;
}

/** `THH:MM:SS[.fraction]Z` after a known-good date: the writer's shape, checked without a regex. */
function isUtcTimeTail(s: string): boolean {
  const n = s.length;
  if (n < 20 || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[n - 1] !== 'Z') return false;
  const h = digitAt(s, 11) * 10 + digitAt(s, 12);
  const mi = digitAt(s, 14) * 10 + digitAt(s, 15);
  const sec = digitAt(s, 17) * 10 + digitAt(s, 18);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return false;
  if (n === 20) return true;
  if (s[19] !== '.' || n === 21) return false;
  for (let i = 20; i < n - 1; i++) if (digitAt(s, i) < 0) return false;
  return true;
}

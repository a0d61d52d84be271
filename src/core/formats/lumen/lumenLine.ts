import { sha256Hex } from '../../io/platform';
import { JsonKind, LosslessJsonError, MemberSpanVisitor, scanMemberSpans } from '../../json/losslessJson';
import { Finding } from '../../model';
import { LUMEN_CATALOG, LumenRuleId } from './lumenRuleCatalog';
import { isLumenKind, isRfc3339, LUMEN_KEYS, LUMEN_KINDS, SLOT, SLOT_OF } from './lumenFields';

// Slots as plain numbers: hot code should not go through module export accessors.
const { seq: SEQ, kind: KIND, prev_hash: PREV_HASH, timestamp: TIMESTAMP, doc_hash: DOC_HASH, cell: CELL, tool_id: TOOL_ID, tool_version: TOOL_VERSION,
  inputs_hash: INPUTS_HASH, outputs_hash: OUTPUTS_HASH, policy_hash: POLICY_HASH, latency_ms: LATENCY_MS, cached: CACHED,
  details: DETAILS, message: MESSAGE } = SLOT;

/** Lowercase hex SHA-256 of a string's UTF-8 bytes: the platform's one-shot hash (no Hash object per line). */
export { sha256Hex };

const NO_FINDINGS: readonly Finding[] = [];

/** Known keys by length and first character (unique for the sixteen keys), matched in place in the line. */
const KEY_TABLE = new Map<number, [string, number]>(LUMEN_KEYS.map((k, slot) => [k.length * 128 + k.charCodeAt(0), [k, slot]]));

/** The slot of the key at `text[start, start + length)`, or -1 for a key outside the line format. */
function slotAt(text: string, start: number, length: number): number {
  const entry = KEY_TABLE.get(length * 128 + text.charCodeAt(start));
  if (entry === undefined) return -1;
  const key = entry[0];
  for (let i = 1; i < length; i++) if (text.charCodeAt(start + i) !== key.charCodeAt(i)) return -1;
  return entry[1];
}

/**
 * Reads one Lumen trace line the way upstream's serde deserialization sees it: the canonical (serde_json)
 * text and JSON kind of each of the sixteen known keys, unknown keys, repeated keys and float tokens.
 * One reader is reused for every line so that a large file does not allocate per line.
 */
export class LumenLineReader {
  /** Canonical value text per key slot; undefined when the key is absent. */
  readonly canon: (string | undefined)[] = new Array(LUMEN_KEYS.length).fill(undefined);
  readonly kinds: (JsonKind | undefined)[] = new Array(LUMEN_KEYS.length).fill(undefined);
  readonly unknownKeys: string[] = [];
  /** First known key that appears twice (serde's derive rejects the line: `duplicate field`). */
  duplicateKey: string | null = null;
  floatInDetails = false;
  /** Why the line is not a JSON object, when `read` returned false. */
  error = '';

  private text = '';
  private readonly visit: MemberSpanVisitor = (start, end, escapedKey, canonical, kind, hasFloat) => {
    const slot = escapedKey === null ? slotAt(this.text, start, end - start) : SLOT_OF.get(escapedKey) ?? -1;
    if (slot < 0) {
      this.unknownKeys.push(escapedKey ?? this.text.slice(start, end));
      return;
    }
    if (this.canon[slot] !== undefined && this.duplicateKey === null) this.duplicateKey = LUMEN_KEYS[slot];
    this.canon[slot] = canonical;
    this.kinds[slot] = kind;
    if (hasFloat && slot === DETAILS) this.floatInDetails = true;
  };

  /** Reads a line; false when it is not one JSON object (then `error` says why). See scanMembers for `validated`. */
  read(text: string, validated = false): boolean {
    this.canon.fill(undefined);
    this.kinds.fill(undefined);
    this.unknownKeys.length = 0;
    this.duplicateKey = null;
    this.floatInDetails = false;
    this.error = '';
    try {
      this.text = text;
      scanMemberSpans(text, this.visit, validated);
      return true;
    } catch (err) {
      if (!(err instanceof LosslessJsonError)) throw err;
      this.error = err.message;
      return false;
    }
  }

  /** The decoded string at a slot, or null when absent or not a string. */
  string(slot: number): string | null {
    const c = this.canon[slot];
    if (c === undefined || this.kinds[slot] !== 'string') return null;
    return c.indexOf('\\') < 0 ? c.slice(1, -1) : (JSON.parse(c) as string);
  }

  /** The `seq` token when it is a valid u64, else null. */
  seqText(): string | null {
    const c = this.canon[SEQ];
    return c !== undefined && this.kinds[SEQ] === 'integer' && c.charCodeAt(0) !== 45 ? c : null;
  }

  /** The hash pre-image (§6.1–6.2): the fourteen hashed keys, sorted, absent ones as null. */
  preimage(): string {
    const c = this.canon;
    return (
      `{"cached":${c[CACHED] ?? 'null'},"cell":${c[CELL] ?? 'null'},"details":${c[DETAILS] ?? 'null'}` +
      `,"doc_hash":${c[DOC_HASH] ?? 'null'},"inputs_hash":${c[INPUTS_HASH] ?? 'null'},"kind":${c[KIND] ?? 'null'}` +
      `,"latency_ms":${c[LATENCY_MS] ?? 'null'},"message":${c[MESSAGE] ?? 'null'}` +
      `,"outputs_hash":${c[OUTPUTS_HASH] ?? 'null'},"policy_hash":${c[POLICY_HASH] ?? 'null'}` +
      `,"prev_hash":${c[PREV_HASH] ?? 'null'},"seq":${c[SEQ] ?? 'null'}` +
      `,"tool_id":${c[TOOL_ID] ?? 'null'},"tool_version":${c[TOOL_VERSION] ?? 'null'}}`
    );
  }

  /** `sha256:` + hex SHA-256 of the pre-image: the hash the writer would have stored. */
  computeHash(): string {
    return 'sha256:' + sha256Hex(this.preimage());
  }

  /**
   * Findings for what makes upstream fail to load the line (every line must deserialize into a
   * `TraceEvent`): repeated keys, required keys, field types, unknown kinds, bad timestamps.
   */
  loadFindings(line: number): readonly Finding[] {
    let out: Finding[] | null = null;
    const add = (rule: LumenRuleId, message: string): void => {
      const seq = seqNumber(this.seqText());
      (out ??= []).push(LUMEN_CATALOG.finding(rule, line, message, seq !== undefined ? { seq } : undefined));
    };
    if (this.duplicateKey !== null) add('lumen/line-json', `invalid JSON in trace at line ${line}: duplicate field \`${this.duplicateKey}\``);
    for (let slot = 0; slot <= MESSAGE; slot++) {
      if (this.kinds[slot] === undefined && slot > DOC_HASH) continue; // optional and absent: the common case
      const problem = this.typeProblem(slot, slot > DOC_HASH);
      if (problem) add(slot > DOC_HASH ? 'lumen/field-type' : 'lumen/required-fields', problem);
    }
    const kind = this.string(KIND);
    if (kind !== null && !isLumenKind(kind)) add('lumen/kind-known', `unknown kind '${kind}' (expected one of ${LUMEN_KINDS.join(', ')})`);
    const ts = this.string(TIMESTAMP);
    if (ts !== null && !isRfc3339(ts)) add('lumen/timestamp-rfc3339', `timestamp '${ts}' does not parse as RFC 3339 (expected e.g. 2026-11-29T15:20:28.219905992Z)`);
    return out ?? NO_FINDINGS;
  }

  /** What is wrong with the type at a slot, or null. Optional keys may be absent or null. */
  private typeProblem(slot: number, optional: boolean): string | null {
    const key = LUMEN_KEYS[slot];
    const kind = this.kinds[slot];
    if (kind === undefined) return optional ? null : `required field \`${key}\` is missing`;
    if (optional && kind === 'null') return null;
    const want = expectedType(slot);
    const ok = want === 'u64' ? kind === 'integer' && this.canon[slot]!.charCodeAt(0) !== 45 : want === 'any' || kind === want;
    if (ok) return null;
    const label = want === 'u64' ? 'a non-negative integer (u64)' : want === 'boolean' ? 'a boolean' : 'a string';
    return `${optional ? 'field' : 'required field'} \`${key}\` must be ${label}${optional ? ' or null' : ''}; found ${kind} ${clip(this.canon[slot]!)}`;
  }
}

function expectedType(slot: number): 'u64' | 'string' | 'boolean' | 'any' {
  if (slot === SEQ || slot === LATENCY_MS) return 'u64';
  if (slot === CACHED) return 'boolean';
  if (slot === DETAILS) return 'any';
  return 'string';
}

function clip(s: string): string {
  return s.length > 40 ? s.slice(0, 39) + '…' : s;
}

/** A `seq` token as a number for findings, when it is exactly representable. */
export function seqNumber(text: string | null): number | undefined {
  if (text === null) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The decimal text of `seq + 1` (exact beyond 2^53). */
export function nextSeq(text: string): string {
  return text.length < 15 ? String(Number(text) + 1) : (BigInt(text) + 1n).toString();
}

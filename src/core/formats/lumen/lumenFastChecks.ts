/**
 * What LumenLineReader.loadFindings and the chain's own-line checks decide, answered from the fast reader's spans
 * for a line in its subset (lumenFastLine.ts): whether the line alone has nothing to report.
 */
import { Buffer } from 'buffer';
import { isRfc3339, LumenKind, SLOT } from './lumenFields';
import { LumenFastLine, objectValue, Tok, ValueSpan } from './lumenFastLine';

const { seq: SEQ, kind: KIND, hash: HASH, timestamp: TIMESTAMP, doc_hash: DOC_HASH, latency_ms: LATENCY_MS, cached: CACHED, details: DETAILS, message: MESSAGE, cell: CELL, tool_id: TOOL_ID, tool_version: TOOL_VERSION } = SLOT;

/**
 * The type each slot must have: required slots (seq … doc_hash) exactly, optional ones (cell … message) may also
 * be absent or null. Absent means any (details takes every JSON value).
 */
const WANT = new Uint8Array(MESSAGE + 1).fill(Tok.Str);
WANT[SEQ] = Tok.Int;
WANT[LATENCY_MS] = Tok.Int;
WANT[CACHED] = Tok.Bool;
WANT[DETAILS] = Tok.Absent;

/**
 * True when loading the line finds nothing: every required key is there with its type, optional keys are absent,
 * null or of their type, the kind is known and the timestamp parses as RFC 3339. (The subset already rules out
 * repeated and unknown keys, floats and values serde_json refuses.)
 */
export function fastFieldsClean(f: LumenFastLine, times: FastTimestamps): boolean {
  const tok = f.tok;
  for (let slot = 0; slot <= MESSAGE; slot++) {
    const t = tok[slot];
    const want = WANT[slot];
    if (t === want || want === Tok.Absent) continue;
    if (slot <= DOC_HASH || (t !== Tok.Absent && t !== Tok.Null)) return false;
  }
  return f.kindIndex(KIND) >= 0 && times.isRfc3339(f);
}

/**
 * isRfc3339 of the line's timestamp, from its bytes for the writer's `YYYY-MM-DDTHH:MM:SS[.fraction]Z` on a day
 * that already passed the full check (as isRfc3339 itself shortcuts); any other string goes to isRfc3339.
 */
export class FastTimestamps {
  private readonly day = Buffer.alloc(10);
  private hasDay = false;

  isRfc3339(f: LumenFastLine): boolean {
    const b = f.buf;
    const s = f.start[TIMESTAMP] + 1;
    const n = f.end[TIMESTAMP] - 1 - s;
    if (this.hasDay && n >= 20 && this.sameDay(b, s) && utcTimeTail(b, s, n)) return true;
    const text = f.string(TIMESTAMP);
    if (!isRfc3339(text)) return false;
    // A valid RFC 3339 string starts with its ten-character date, all ASCII.
    this.day.write(text.slice(0, 10), 'latin1');
    this.hasDay = true;
    return true;
  }

  private sameDay(b: Buffer, s: number): boolean {
    for (let i = 0; i < 10; i++) if (b[s + i] !== this.day[i]) return false;
    return true;
  }
}

function digit(b: Buffer, i: number): number {
  const c = b[i] - 48;
  return c >= 0 && c <= 9 ? c : -100;
}

/** `THH:MM:SS[.digits]Z` at `b[s + 10, s + n)` (lumenFields' isUtcTimeTail, on bytes). */
function utcTimeTail(b: Buffer, s: number, n: number): boolean {
  if (b[s + 10] !== 84 || b[s + 13] !== 58 || b[s + 16] !== 58 || b[s + n - 1] !== 90) return false;
  const h = digit(b, s + 11) * 10 + digit(b, s + 12);
  const mi = digit(b, s + 14) * 10 + digit(b, s + 15);
  const sec = digit(b, s + 17) * 10 + digit(b, s + 18);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return false;
  if (n === 20) return true;
  if (b[s + 19] !== 46 || n === 21) return false;
  for (let i = s + 20; i < s + n - 1; i++) if (digit(b, i) < 0) return false;
  return true;
}

/** The recomputed hash's hex digits when the stored hash equals it; else null. */
export function fastHashMatches(f: LumenFastLine): string | null {
  const hex = f.preimageHex();
  return f.hashEquals(HASH, hex) ? hex : null;
}

/**
 * Whether the line has every field its kind needs (lumenKindSchemas' fast verdicts, so kindFieldProblem would be
 * null), answered from the fast reader's spans for a line it took; false where it cannot tell (the caller then
 * reads the line the slow way, which names the problem).
 */
export function fastKindFieldsOk(kind: LumenKind, f: LumenFastLine): boolean {
  const tok = f.tok;
  const cell = tok[CELL] === Tok.Str;
  switch (kind) {
    case 'cell_start':
    case 'cell_end':
    case 'call_enter':
      return cell;
    case 'call_exit':
      return cell && detailToken(f, RESULT_TYPE) === Tok.Str;
    case 'vm_step':
      // A top-level integer is never negative in the subset; one in details may be.
      return cell && detailToken(f, IP) === Tok.Int && f.buf[detail.start] !== 45 && detailToken(f, OPCODE) === Tok.Str;
    case 'tool_call':
      return cell && tok[TOOL_ID] === Tok.Str && tok[TOOL_VERSION] === Tok.Str && tok[LATENCY_MS] === Tok.Int && tok[CACHED] === Tok.Bool
        && detailToken(f, SUCCESS) === Tok.Bool;
    case 'schema_validate':
      return cell && detailToken(f, SCHEMA) === Tok.Str && detailToken(f, VALID) === Tok.Bool;
    case 'error':
      return tok[MESSAGE] === Tok.Str;
    default:
      return true; // run_start, run_end: no fields to need
  }
}

/** The value {@link detailToken} found last. */
const detail: ValueSpan = { start: 0, end: 0 };
const [RESULT_TYPE, IP, OPCODE, SUCCESS, SCHEMA, VALID] = ['result_type', 'ip', 'opcode', 'success', 'schema', 'valid'].map((k) => Buffer.from(k));

/** The token of `details.<key>` in a line the fast reader took; Absent when details is no object or lacks it. */
function detailToken(f: LumenFastLine, key: Buffer): Tok {
  if (f.tok[DETAILS] !== Tok.Obj) return Tok.Absent;
  return objectValue(f.buf, f.start[DETAILS], f.end[DETAILS], key, detail);
}

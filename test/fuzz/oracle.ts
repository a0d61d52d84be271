import { isDeepStrictEqual } from 'node:util';
import { isUtf8 } from 'node:buffer';

/** What the oracle knows of one line of a mutated file, found without the project's code. */
export interface OracleLine {
  /** 1-based line number under the shared definition (LF, CRLF and a lone CR end a line). */
  line: number;
  blank: boolean;
  /** `JSON.parse` throws on the line's text. */
  broken: boolean;
  badUtf8: boolean;
  value?: unknown;
}

/**
 * Splits bytes into lines the way VS Code does (the definition the project shares) and judges each with
 * `JSON.parse`: an independent reading to hold the loader's and the checks' verdicts against.
 */
export function oracleLines(bytes: Buffer): OracleLine[] {
  let start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const out: OracleLine[] = [];
  const push = (end: number) => {
    const b = bytes.subarray(start, end);
    const text = b.toString('utf8');
    const blank = /^[ \t]*$/.test(text);
    let broken = false;
    let value: unknown;
    if (!blank) {
      try {
        value = JSON.parse(text);
      } catch {
        broken = true;
      }
    }
    out.push({ line: out.length + 1, blank, broken, badUtf8: !isUtf8(b), value });
  };
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 10 && c !== 13) continue;
    push(i);
    if (c === 13 && bytes[i + 1] === 10) i++;
    start = i + 1;
  }
  if (start < bytes.length) push(bytes.length);
  return out;
}

/** The keys lumen's hash covers (lumen spec §6.1), and the stored hash itself. */
export const LUMEN_HASHED_KEYS = ['cached', 'cell', 'details', 'doc_hash', 'inputs_hash', 'kind', 'latency_ms', 'message', 'outputs_hash', 'policy_hash', 'prev_hash', 'seq', 'tool_id', 'tool_version', 'hash'];

/** Only the hashed fields of a lumen line (absent ones as undefined), so unhashed edits compare equal. */
function hashedPart(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return LUMEN_HASHED_KEYS.map((k) => (v as Record<string, unknown>)[k]);
}

/**
 * The first line (1-based) whose hashed fields differ between two in-place versions of a lumen file (or that
 * stopped or started being JSON), or null.
 */
export function firstChangedLine(before: OracleLine[], after: OracleLine[]): number | null {
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const a = before[i];
    const b = after[i];
    if (!a || !b || a.broken !== b.broken || a.blank !== b.blank || !sameValue(hashedPart(a.value), hashedPart(b.value))) return i + 1;
  }
  return null;
}

/** Deep equality that calls a value too deeply nested to compare different (the safe side for the chain check). */
function sameValue(a: unknown, b: unknown): boolean {
  try {
    return isDeepStrictEqual(a, b);
  } catch {
    return false;
  }
}

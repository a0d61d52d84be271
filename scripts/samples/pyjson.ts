// Python's `json.dumps` reproduced byte for byte for the values the AgentLedger sample uses: sort_keys,
// ensure_ascii=False, the three separator layouts, `indent`, and float `repr` (a Python float that is integral
// prints as `230.0`, which JavaScript cannot express with plain numbers; hence the PyFloat wrapper).
import { codePointCompare } from './common';

/** A Python float: serialized with `repr`, so `PyFloat(1)` prints `1.0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A JSON value as Python holds it: numbers are ints unless wrapped in PyFloat. */
export type PyValue = null | boolean | number | string | PyFloat | PyValue[] | { [key: string]: PyValue };

/** Shorthand for a Python float. */
export const f = (value: number): PyFloat => new PyFloat(value);

/** Python `float.__repr__` for the magnitudes the samples use (1e-4 ≤ |x| < 1e16, or 0). */
export function pyFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`pyFloatRepr: ${x}`);
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs < 1e-4 || abs >= 1e16) throw new Error(`pyFloatRepr: exponent form not needed by the samples: ${x}`);
  // Both languages print the shortest round-trip digits; only the integral case differs.
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

interface DumpOptions {
  /** `indent=2` style; omitted for one-line output. */
  indent?: number;
  /** `separators=(",", ":")`; otherwise Python's defaults (", " / ": ", or "," with indent). */
  compact?: boolean;
}

/** `json.dumps(value, ensure_ascii=False, sort_keys=True, …)`. */
export function pyDumps(value: PyValue, options: DumpOptions = {}): string {
  const itemSep = options.compact || options.indent !== undefined ? ',' : ', ';
  const keySep = options.compact ? ':' : ': ';
  const walk = (v: PyValue, depth: number): string => {
    if (v instanceof PyFloat) return pyFloatRepr(v.value);
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new Error(`pyDumps: use PyFloat for non-integers: ${v}`);
      return JSON.stringify(v); // same escaping as ensure_ascii=False for well-formed strings
    }
    const entries: string[] = Array.isArray(v)
      ? v.map((x) => walk(x, depth + 1))
      : Object.keys(v).sort(codePointCompare).map((k) => `${JSON.stringify(k)}${keySep}${walk(v[k], depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) return open + close;
    if (options.indent === undefined) return open + entries.join(itemSep) + close;
    const pad = ' '.repeat(options.indent * (depth + 1));
    const outer = ' '.repeat(options.indent * depth);
    return `${open}\n${pad}${entries.join(`${itemSep}\n${pad}`)}\n${outer}${close}`;
  };
  return walk(value, 0);
}

/**
 * `json.dumps(value)` with insertion order kept (no sort_keys), as Python writes `state_json`,
 * `metadata_json` and `retry_policy_json` in the bundle.
 */
export function pyDumpsUnsorted(value: PyValue): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyDumpsUnsorted).join(', ')}]`;
  return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}: ${pyDumpsUnsorted(value[k])}`).join(', ')}}`;
}

/** `canonical_json` of agentledger.md §7.5: sorted keys, compact separators, non-ASCII raw. */
export function pyCanonical(value: PyValue): string {
  return pyDumps(value, { compact: true });
}

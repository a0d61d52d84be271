import { sha256Hex } from '../../io/platform';
import { compareUtf8, serdeString } from '../../json/losslessJson';

/** Nesting bound of the kernel's canonical writer (`CANONICAL_MAX_DEPTH`). */
export const CANONICAL_MAX_DEPTH = 128;
const SAFE = Number.MAX_SAFE_INTEGER;

/** A value the kernel's canonical writer refuses (§8.3). */
export class CanonicalError extends Error {}

function writeNumber(n: number): string {
  if (!Number.isFinite(n)) throw new CanonicalError(`number ${n} is not finite`);
  if (Number.isInteger(n)) {
    if (Math.abs(n) > SAFE) {
      throw new CanonicalError(`integer ${n} exceeds the cross-language exact-integer range (±${SAFE}); logical u64 travels as a decimal string`);
    }
    return String(n === 0 ? 0 : n); // -0 becomes 0
  }
  // JavaScript's shortest round-trip form equals serde_json's (ryu) for every non-integral double.
  return String(n);
}

/**
 * The kernel's canonical JSON (`canonical_bytes`, DKR §8.3): keys by code point (the serde room's `compareUtf8`),
 * no whitespace, serde_json string escaping (`serdeString`), integral floats as integers, integers beyond ±(2^53−1)
 * rejected, depth ≤ 128. The number and depth rules are the kernel's own, which is why this writer is not the
 * serde room's `canonicalJson` (that one writes any number in serde_json's layout and has no depth limit).
 * Iterative, so hostile nesting cannot overflow the stack before the depth limit is reported.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: { v: unknown; depth: number; raw?: string }[] = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth, raw } = stack.pop()!;
    if (raw !== undefined) {
      out.push(raw);
      continue;
    }
    if (depth > CANONICAL_MAX_DEPTH) throw new CanonicalError(`value nests deeper than ${CANONICAL_MAX_DEPTH}`);
    if (v === null || typeof v === 'boolean') out.push(String(v));
    else if (typeof v === 'number') out.push(writeNumber(v));
    else if (typeof v === 'string') out.push(serdeString(v));
    else if (Array.isArray(v)) {
      const items: { v: unknown; depth: number; raw?: string }[] = [{ v: null, depth, raw: '[' }];
      v.forEach((x, i) => {
        if (i > 0) items.push({ v: null, depth, raw: ',' });
        items.push({ v: x, depth: depth + 1 });
      });
      items.push({ v: null, depth, raw: ']' });
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    } else if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort(compareUtf8);
      const items: { v: unknown; depth: number; raw?: string }[] = [{ v: null, depth, raw: '{' }];
      keys.forEach((k, i) => {
        items.push({ v: null, depth, raw: `${i > 0 ? ',' : ''}${serdeString(k)}:` });
        items.push({ v: o[k], depth: depth + 1 });
      });
      items.push({ v: null, depth, raw: '}' });
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    } else throw new CanonicalError(`value of type ${typeof v} is not JSON`);
  }
  return out.join('');
}

/** `sha256:` + 64 lowercase hex over the given bytes (a string is taken as UTF-8). */
export function kernelDigest(bytes: string | Uint8Array): string {
  return 'sha256:' + sha256Hex(bytes);
}

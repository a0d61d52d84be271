import { FormatName, HashRef } from '../model';
import { isObj, parseDigest } from '../formats/common';
import { checkBlobUri } from './blobReference';

/** A blob reference found on one line of the trace, valid or not. */
export interface LineRef {
  line: number;
  field: string;
  /** The valid reference, when the text is a well-formed digest. */
  ref?: HashRef;
  /** Why the text was refused (unsafe or malformed), when it was. */
  refused?: string;
  /** The refusal is a name that is safe but not a digest (cannot be verified), not an unsafe one. */
  unverifiable?: boolean;
  /** A murmur blob field or a `blob://` value. */
  source: 'murmur-field' | 'blob-uri';
}

const MURMUR_SINGLE_FIELDS = ['system_prompt_sha256', 'system_sha', 'tools_sha', 'response_sha'] as const;
const MAX_VISITS = 10_000;

function digestRef(field: string, raw: string): LineRef['ref'] {
  const d = parseDigest(raw);
  return d && d.algorithm === 'sha256' && d.raw === d.digest ? { field, ...d } : undefined;
}

/** murmur blob fields read straight from the line, so malformed values (uppercase, short) are caught too. */
function murmurRefs(line: number, o: Record<string, unknown>, out: LineRef[]): void {
  const take = (field: string, v: unknown) => {
    if (typeof v !== 'string') return; // null system_prompt_sha256 = no prompt; other shapes: murmur/sha-format
    const ref = digestRef(field, v);
    out.push(ref ? { line, field, ref, source: 'murmur-field' } : { line, field, source: 'murmur-field', refused: `${field} value ${JSON.stringify(v.slice(0, 80))} is not 64 lowercase hex digits, so it cannot name a blob` });
  };
  for (const f of MURMUR_SINGLE_FIELDS) take(f, o[f]);
  const shas = o.message_shas;
  if (Array.isArray(shas)) shas.forEach((v, i) => take(`message_shas[${i}]`, v));
}

/** Every string starting with `blob://` in a value (bounded walk), with its JSON path. */
function blobUriRefs(line: number, value: unknown, out: LineRef[]): void {
  const stack: [unknown, string][] = [[value, '']];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (!v.startsWith('blob://')) continue;
      const check = checkBlobUri(v);
      const d = check.ok ? parseDigest(v) : null;
      if (d) out.push({ line, field: path, ref: { field: path, ...d }, source: 'blob-uri' });
      else out.push({ line, field: path, source: 'blob-uri', refused: check.reason ?? `unsupported blob ref: ${v}`, unverifiable: check.unverifiable });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (isObj(v)) {
      for (const k of Object.keys(v).reverse()) stack.push([v[k], path ? `${path}.${k}` : k]);
    }
  }
}

/**
 * Blob references on one parsed line, read from the line itself: murmur's blob fields (format doc §2.9) and
 * any `blob://` value. This does not depend on the format adapter's hashRefs, and sees malformed references
 * the adapter cannot represent as a HashRef.
 */
export function scanLineForBlobRefs(format: FormatName, line: number, value: unknown, text: string): LineRef[] {
  const out: LineRef[] = [];
  if (!isObj(value)) return out;
  if (format === 'murmur') murmurRefs(line, value, out);
  if (text.includes('blob://')) blobUriRefs(line, value, out);
  return out;
}

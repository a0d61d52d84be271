import { HashRef } from '../model';
import { isObj } from '../json/jsonObject';
import { parseDigest } from './digestValue';
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
  /**
   * `field`: one of the format's own blob fields (its rules report malformed values);
   * `blob-uri`: a `blob://` value (the blob verifier reports unusable ones).
   */
  source: 'field' | 'blob-uri';
}

const MAX_VISITS = 10_000;

/** Every string starting with `blob://` in a value (bounded walk), with its JSON path. */
export function blobUriRefs(line: number, value: unknown, out: LineRef[]): void {
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
 * The `blob://` references of one parsed line: the scan of every layout that names blobs by URI. Lines
 * without `blob://` in their text are not walked.
 */
export function scanBlobUriLine(line: number, value: Record<string, unknown>, text: string): LineRef[] {
  const out: LineRef[] = [];
  if (text.includes('blob://')) blobUriRefs(line, value, out);
  return out;
}

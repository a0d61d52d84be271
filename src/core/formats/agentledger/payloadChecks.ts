/**
 * Per-line payload integrity (format doc §7, §13): payload_hash against the payload text it covers, the
 * payload_ref / payload agreement, digest classification and blob ref syntax.
 */
import { fnv1a64HexOfText, sha256Hex } from '../../digests';
import { Finding } from '../../model';
import { isObj } from '../common';
import { canonicalJson, parseRawJson, rawMember } from '../../json/pythonRawJson';
import { isBlobRef, LedgerRow } from './rows';
import { rustFormatState } from './rustText';
import { At, finding } from './catalog';
import { blobRefProblem } from './evidence';

/** A digest value split into its hex and the algorithm its length implies. */
export interface DigestParts {
  hex: string;
  algorithm: 'sha256' | 'fnv1a64' | null;
  labelled: boolean;
}

/** Splits `sha256:<hex>` or bare hex; the algorithm follows the length, never the label (§0.1). */
export function digestParts(value: string): DigestParts {
  const labelled = value.startsWith('sha256:');
  const hex = labelled ? value.slice(7) : value;
  const algorithm = /^[0-9a-f]{64}$/.test(hex) ? 'sha256' : /^[0-9a-f]{16}$/.test(hex) ? 'fnv1a64' : null;
  return { hex, algorithm, labelled };
}

/** Deep equality of parsed JSON, numbers by value (Python compares `230.0 == 230` as equal). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

function shortHash(h: string): string {
  return h.length > 24 ? `${h.slice(0, 20)}…` : h;
}

/** payload-hash, hash-algorithm and blob-ref-syntax for one row. */
export function checkPayloadHash(row: LedgerRow, text: string, at: At): Finding[] {
  const out: Finding[] = [];
  const { payloadHash: hash, payloadRef: ref } = row;
  const python = row.dialect === 'python-event' || row.dialect === 'python-span';
  if (isBlobRef(ref)) {
    const problem = blobRefProblem(ref);
    if (problem) out.push(finding('blob-ref-syntax', at, problem));
  }
  if (hash === undefined) return out;
  if (row.dialect === 'ts-event' || row.dialect === 'ts-span') return [...out, ...checkTsPayloadHash(hash, ref, at)];
  if (hash === null) {
    if (isBlobRef(ref) && python) out.push(finding('payload-hash', at, `payload_ref is the blob ref ${ref} but payload_hash is null; blob-backed rows carry sha256:<the same hex>.`));
    else if (row.dialect === 'rust-event') out.push(finding('payload-hash', at, 'payload_hash is null; Rust rows always carry stable_hash(payload_ref).'));
    return out;
  }
  if (typeof hash !== 'string') return [...out, finding('payload-hash', at, `payload_hash must be a string or null, found ${JSON.stringify(hash)}.`)];
  const d = digestParts(hash);
  if (d.algorithm === null) return [...out, finding('hash-algorithm', at, `payload_hash ${JSON.stringify(shortHash(hash))} is neither 16 hex (FNV-1a) nor 64 hex (SHA-256); it cannot be verified.`)];
  if (typeof ref !== 'string') return [...out, finding('payload-hash', at, `payload_hash is set but payload_ref is ${JSON.stringify(ref)}, not text to hash.`)];
  if (d.algorithm === 'fnv1a64') {
    const actual = fnv1a64HexOfText(ref);
    if (actual !== d.hex) out.push(finding('payload-hash', at, `payload_hash ${hash} does not match stable_hash(payload_ref) = ${actual} (FNV-1a 64 of the payload_ref text).`));
    return out;
  }
  if (!isBlobRef(ref)) {
    out.push(finding('payload-hash', at, `payload_hash ${shortHash(hash)} is set but payload_ref holds inline JSON; Python rows with inline payloads have a null payload_hash.`));
    return out;
  }
  const refHex = ref.replace(/^blob:\/\/sha256\//, '').replace(/\.json$/, '');
  const problems: string[] = [];
  if (refHex !== d.hex) problems.push(`it does not name the blob in payload_ref (${shortHash(refHex)})`);
  const actual = row.payload !== undefined ? payloadSha256(text) : null;
  if (actual !== null && actual !== d.hex) problems.push(`SHA-256 of the canonical JSON of payload is sha256:${shortHash(actual)}`);
  if (problems.length > 0) out.push(finding('payload-hash', at, `payload_hash sha256:${shortHash(d.hex)} does not match: ${problems.join('; ')}.`));
  return out;
}

/** The TypeScript runtime's rule: `payload_hash` is SHA-256 of the `payload_ref` text (bare hex, or `sha256:` for artifacts). */
function checkTsPayloadHash(hash: unknown, ref: unknown, at: At): Finding[] {
  if (typeof hash !== 'string' || typeof ref !== 'string') return [finding('payload-hash', at, `payload_hash ${JSON.stringify(hash)} and payload_ref ${JSON.stringify(ref)?.slice(0, 40)}: the TypeScript runtime writes both as text.`)];
  const d = digestParts(hash);
  const actual = sha256Hex(ref);
  if (d.algorithm === 'sha256' && actual === d.hex) return [];
  return [finding('payload-hash', at, `payload_hash ${shortHash(hash)} does not match SHA-256 of the payload_ref text (${shortHash(actual)}), which the TypeScript runtime writes.`)];
}

/** SHA-256 of the canonical compact JSON of the line's `payload`, from the exact line text; null if unparsable. */
function payloadSha256(text: string): string | null {
  try {
    const payload = rawMember(parseRawJson(text), 'payload');
    return payload ? sha256Hex(canonicalJson(payload)) : null;
  } catch {
    return null;
  }
}

/** payload-ref-canonical: the ref text and the payload describe the same content. */
export function checkPayloadRef(row: LedgerRow, at: At): Finding[] {
  const { payload, payloadRef: ref } = row;
  if (payload === undefined || typeof ref !== 'string' || isBlobRef(ref)) return [];
  if (row.dialect === 'rust-event') {
    if (!isObj(payload)) return [finding('payload-ref-canonical', at, `payload is ${JSON.stringify(payload)?.slice(0, 40)}, not an object, so format_state cannot reproduce payload_ref.`)];
    const expected = rustFormatState(payload);
    if (expected === ref) return [];
    return [finding('payload-ref-canonical', at, `payload_ref is not format_state(payload): expected ${JSON.stringify(clip(expected))}, found ${JSON.stringify(clip(ref))}.`)];
  }
  // The TypeScript runtime points tool_call_completed at the tool's response and artifact_created at the artifact's
  // content (its payload only names them), so only the other events' refs restate their payload.
  if (row.dialect === 'ts-event' && (row.type === 'tool_call_completed' || row.type === 'artifact_created')) return [];
  if (row.dialect !== 'python-event' && row.dialect !== 'ts-event') return [];
  let decoded: unknown;
  try {
    decoded = JSON.parse(ref);
  } catch {
    decoded = ref; // decode_payload falls back to the raw string
  }
  if (jsonEqual(decoded, payload)) return [];
  return [finding('payload-ref-canonical', at, `payload differs from json.loads(payload_ref): payload_ref says ${JSON.stringify(clip(ref))}, payload is ${JSON.stringify(clip(JSON.stringify(payload) ?? ''))}.`)];
}

function clip(s: string): string {
  return s.length > 80 ? s.slice(0, 79) + '…' : s;
}

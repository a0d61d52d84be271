/**
 * Lossless JSON reading and canonical JSON writing with Rust serde_json's conventions, for rebuilding hash
 * pre-images exactly: numbers are kept as their token text (integers above 2^53 stay exact, floats are
 * re-laid out as serde_json prints them), objects keep every member in file order, and the canonical writer
 * sorts keys by UTF-8 bytes, writes no whitespace and escapes strings like serde_json.
 *
 * The reader is one hand-written pass over the string. {@link canonicalize} and {@link scanMembers} write
 * canonical text directly, without building a value tree, which is what hash verification needs.
 */
import { JsonCursor } from './losslessJsonCursor';
import { LosslessNumber, LosslessObject, LosslessValue, MemberSpanVisitor, MemberVisitor, serdeString, sortedMembers } from './losslessJsonValue';
import { formatF64, serdeNumberText } from './serdeNumber';

export { formatF64, isSerdeInteger, serdeNumberText, serdeParseF64 } from './serdeNumber';
export { compareUtf8, LosslessJsonError, LosslessNumber, LosslessObject, serdeString } from './losslessJsonValue';
export type { JsonKind, LosslessValue, MemberSpanVisitor, MemberVisitor } from './losslessJsonValue';

/** Parses JSON text into a {@link LosslessValue}. Throws {@link LosslessJsonError} where serde_json would fail. */
export function parseLossless(text: string): LosslessValue {
  const c = new JsonCursor(text);
  const v = c.tree();
  c.end();
  return v;
}

/** Canonical JSON of JSON text in one pass (sorted keys, no whitespace, serde_json scalars), without a tree. */
export function canonicalize(text: string): string {
  const c = new JsonCursor(text);
  const v = c.canonical();
  c.end();
  return v;
}

/**
 * Reads a top-level JSON object and hands each member's key and canonical value text to `visit`.
 * Throws {@link LosslessJsonError} when the text is not one JSON object. Pass `validated` when `JSON.parse`
 * already accepted the text: the scan for raw control characters is then skipped.
 */
export function scanMembers(text: string, visit: MemberVisitor, validated = false): void {
  const c = new JsonCursor(text, validated);
  c.members(visit);
  c.end();
}

/** {@link scanMembers} with keys as spans of `text` (see {@link MemberSpanVisitor}); for hot loops. */
export function scanMemberSpans(text: string, visit: MemberSpanVisitor, validated = false): void {
  const c = new JsonCursor(text, validated);
  c.memberSpans(visit);
  c.end();
}

/**
 * Canonical JSON of a value: a {@link LosslessValue} (exact), or plain JavaScript data, whose numbers are
 * written as integers when they are safe integers and in ryu layout otherwise.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return serdeString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : formatF64(value);
  }
  if (value instanceof LosslessNumber) return serdeNumberText(value.raw);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof LosslessObject) return `{${sortedMembers(value.keys, value.values.map(canonicalJson))}}`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  return `{${sortedMembers(keys, keys.map((k) => canonicalJson(o[k])))}}`;
}

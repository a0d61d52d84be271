/**
 * Which fields of an event change from run to run without meaning anything: ids, times and hashes. Two runs of
 * the same task differ in all of them, so the diff leaves them out by default (a toggle shows them).
 */

/** Why a field is left out: it names something, says when, or digests content. */
export type VolatileClass = 'id' | 'time' | 'hash';

// Snake and dotted names compare without case; camelCase suffixes need their capital (`paidAt`, not `format`).
const ID_KEY = /(^|[_.-])(id|ids|uuid|guid|seq|sequence|nonce|token)$|[_.-]key$|^index$/i;
const ID_CAMEL = /[a-z0-9](Id|Ids|ID|Uuid|Seq|Key)$/;
const TIME_KEY = /(^|[_.-])(time|timestamp|ts|date|duration|elapsed|latency|until|created|updated|started|ended|finished|at)([_.-]?(ms|ns|us|s|unix|unix_?nano|nano|iso|seconds))?$/i;
const TIME_CAMEL = /[a-z0-9](At|Time|TimeUnixNano|Ms|Duration|Timestamp)$/;
const HASH_KEY = /(^|[_.-])(hash|hashes|sha|sha256|shas|digest|checksum|signature|ref)$/i;
const HASH_CAMEL = /[a-z0-9](Hash|Digest|Sha256|Ref)$/;

// Traces repeat the same few hundred field names on every line: classify each name once.
const keyClasses = new Map<string, VolatileClass | null>();
const MAX_KEY_CACHE = 50_000;

/** The class of a field by its name, or null when the field carries content. */
export function volatileKeyClass(key: string): VolatileClass | null {
  let c = keyClasses.get(key);
  if (c === undefined) {
    c = classifyKey(key);
    if (keyClasses.size >= MAX_KEY_CACHE) keyClasses.clear();
    keyClasses.set(key, c);
  }
  return c;
}

function classifyKey(key: string): VolatileClass | null {
  if (HASH_KEY.test(key) || HASH_CAMEL.test(key)) return 'hash';
  if (TIME_KEY.test(key) || TIME_CAMEL.test(key)) return 'time';
  if (ID_KEY.test(key) || ID_CAMEL.test(key)) return 'id';
  return null;
}

const HAS_DIGIT = /\d/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// `evt_92a59d0a20e6472b`, `toolu_01AbC…`, `lease_a003…`: a short prefix and a long opaque tail with a digit.
const PREFIXED_ID = /^[a-z]{2,12}[_-]([0-9A-Za-z]{12,})$/;
const HEX_DIGEST = /^(sha256:|sha1:|fnv1a64:|blob:\/\/)|^[0-9a-f]{40}$|^[0-9a-f]{64}$/i;
const HEX_ID = /^[0-9a-f]{16}$|^[0-9a-f]{32}$/i;
const MIN_ID_OR_TIME = 15;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;

/**
 * Whether `text.slice(start, end)` may have a class (see {@link volatileValueClass}) at all, without making the
 * slice: it has a digit, and is long enough for an id or a time, or starts like a tagged digest (`sha256:…`).
 */
export function mayBeVolatile(text: string, start: number, end: number): boolean {
  const n = end - start;
  if (n === 0 || n > 200) return false;
  let digit = false;
  for (let k = start; k < end && !digit; k++) digit = text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57;
  if (!digit) return false;
  // Shorter than every id and time shape: only a tagged digest (sha256:, sha1:, fnv1a64:, blob://) qualifies.
  const c = text.charCodeAt(start) | 0x20;
  return n >= MIN_ID_OR_TIME || c === 0x73 || c === 0x66 || c === 0x62;
}

/** The class of a string value that looks like an id, a time or a digest whatever its field is called. */
export function volatileValueClass(value: string): VolatileClass | null {
  // Every id, time and digest shape below has a digit; most content strings (`bash`, `ok`) have none.
  if (value.length > 200 || !HAS_DIGIT.test(value)) return null;
  if (HEX_DIGEST.test(value)) return 'hash';
  // Every other shape is at least this long (a prefixed id: `ab_` and 12 more); most label words are shorter.
  if (value.length < MIN_ID_OR_TIME) return null;
  if (ISO_TIME.test(value)) return 'time';
  if (UUID.test(value) || HEX_ID.test(value)) return 'id';
  const m = PREFIXED_ID.exec(value);
  if (m && /\d/.test(m[1])) return 'id';
  return null;
}

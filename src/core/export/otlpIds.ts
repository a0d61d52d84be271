import { sha256Hex } from '../io/platform';
import { EventTable } from '../eventTable';
import { EventTree } from '../tree';

/**
 * Trace and span ids of every event of an export, as lowercase hex (32 and 16 digits). Held as numbers (a span id
 * as two 32-bit halves, a trace id once per root), each string made when asked for: a million events' ids as strings
 * (each a slice holding its whole SHA-256 digest) took over 100 MB.
 */
export interface OtlpIds {
  traceId(i: number): string;
  spanId(i: number): string;
}

const HEX_TRACE = /^[0-9a-f]{32}$/;
const HEX_SPAN = /^[0-9a-f]{16}$/;
const ZERO = /^0+$/;

function hexDigest(text: string, digits: number): string {
  const hex = sha256Hex(text).slice(0, digits);
  // All-zero ids are invalid in OTLP; a SHA-256 prefix of zeros is astronomically unlikely, but cheap to rule out.
  return ZERO.test(hex) ? '1'.padStart(digits, '0') : hex;
}

/** `traceId/spanId` of an event read from OTLP, when both parts are valid hex ids: kept as they are. */
function ownOtlpIds(id: string | null): { trace: string; span: string } | null {
  if (id === null) return null;
  const [trace, span, more] = id.split('/');
  if (more !== undefined || !HEX_TRACE.test(trace ?? '') || !HEX_SPAN.test(span ?? '')) return null;
  if (ZERO.test(trace) || ZERO.test(span)) return null;
  return { trace, span };
}

/** A set of 64-bit values given as two 32-bit halves, in typed arrays (a Map of a million numbers took ~50 MB). */
class PairSet {
  private hi = new Uint32Array(16);
  private lo = new Uint32Array(16);
  private full = new Uint8Array(16);
  private size = 0;

  private slot(hi: number, lo: number): number {
    const mask = this.full.length - 1;
    let k = Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b) & mask;
    while (this.full[k] && (this.hi[k] !== hi || this.lo[k] !== lo)) k = (k + 1) & mask;
    return k;
  }
  has(hi: number, lo: number): boolean {
    return this.full[this.slot(hi, lo)] === 1;
  }
  add(hi: number, lo: number): void {
    if (2 * (this.size + 1) > this.full.length) {
      const { hi: h, lo: l, full } = this;
      this.hi = new Uint32Array(2 * full.length);
      this.lo = new Uint32Array(2 * full.length);
      this.full = new Uint8Array(2 * full.length);
      for (let k = 0; k < full.length; k++) if (full[k]) this.put(h[k], l[k]);
    }
    this.put(hi, lo);
    this.size++;
  }
  private put(hi: number, lo: number): void {
    const k = this.slot(hi, lo);
    this.hi[k] = hi;
    this.lo[k] = lo;
    this.full[k] = 1;
  }
}

/** A 16-digit hex id as its two 32-bit halves. */
function halves(hex: string): [number, number] {
  return [parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8, 16), 16)];
}

/**
 * The key of an event inside its trace: its own id when it has one, else its parent's key plus its kind and
 * place among its siblings (a key met again gets `#dupN`). Keys (and the ids hashed from them) stay the same when
 * the file is exported again, and when events are appended to it, since nothing depends on the file's path, the
 * time or a random source. Only the keys of roots and parents are held; `digest` holds, per event, the span id
 * its key hashes to (as two halves); `keyOf` makes any other key again (for the rare span id met twice).
 */
function eventKeys(table: EventTable, tree: EventTree): { roots: Int32Array; digest: Uint32Array; keyOf: (i: number) => string } {
  const roots = new Int32Array(table.size);
  const digest = new Uint32Array(2 * table.size);
  // Where each event's key comes from: its parent in the walk (-1: a root, -2: unreached) and place among siblings.
  const from = new Int32Array(table.size);
  const ordinal = new Int32Array(table.size);
  const held = new Map<number, string>();
  const dupOf = new Map<number, number>();
  // Keys seen, by the span id they hash to: a 64-bit digest stands for its key (a clash is ~2^-64 per pair).
  const seen = new PairSet();
  const dupCount = new Map<string, number>();
  const base = (i: number, parentKey: string): string => {
    const id = table.id(i);
    return id !== null ? `id:${id}` : `${parentKey}>${table.kindOf(i)}@${ordinal[i]}`;
  };
  const parentKeyOf = (i: number): string => (from[i] >= 0 ? keyOf(from[i]) : from[i] === -1 ? 'root' : 'unreached');
  const keyOf = (i: number): string => {
    const kept = held.get(i);
    if (kept !== undefined) return kept;
    const b = base(i, parentKeyOf(i));
    const n = dupOf.get(i);
    return n === undefined ? b : `${b}#dup${n}`;
  };
  const visit = (i: number, parent: number, parentKey: string, k: number, root: number): void => {
    roots[i] = root;
    from[i] = parent;
    ordinal[i] = k;
    let key = base(i, parentKey);
    let [hi, lo] = halves(hexDigest(`span:${key}`, 16));
    if (seen.has(hi, lo)) {
      const n = (dupCount.get(key) ?? 0) + 1;
      dupCount.set(key, n);
      dupOf.set(i, n);
      key = `${key}#dup${n}`;
      [hi, lo] = halves(hexDigest(`span:${key}`, 16));
    } else seen.add(hi, lo);
    digest[2 * i] = hi;
    digest[2 * i + 1] = lo;
    if (parent < 0 || tree.childCount(i) > 0) held.set(i, key);
  };
  // Iterative pre-order: parents get their keys before their children (no recursion on deep trees).
  const visited = new Uint8Array(table.size);
  const stack: number[] = [];
  tree.roots.forEach((r, k) => (visit(r, -1, 'root', k, r), (visited[r] = 1)));
  for (let k = tree.roots.length - 1; k >= 0; k--) stack.push(tree.roots[k]);
  while (stack.length > 0) {
    const i = stack.pop()!;
    const kids = tree.children(i);
    const key = held.get(i)!;
    kids.forEach((c, k) => (visit(c, i, key, k, roots[i]), (visited[c] = 1)));
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  // Events of a parent cycle are roots too, but guard against any the walk did not reach.
  for (let i = 0; i < table.size; i++) if (!visited[i]) visit(i, -2, 'unreached', i, i);
  return { roots, digest, keyOf };
}

/**
 * Derives OTLP ids for every event: one trace per root of the event tree (hashed from the root's run or
 * session and its key), span ids hashed from each event's key. Events read from an OTLP file keep their
 * own trace and span ids, so exporting an OTLP trace gives back the ids it had.
 */
export function deriveOtlpIds(table: EventTable, tree: EventTree): OtlpIds {
  const { roots, digest, keyOf } = eventKeys(table, tree);
  // One trace id per root (computed once) and the span ids used in each trace.
  const traceIds: string[] = [];
  const traceOf = new Int32Array(table.size);
  const slotOf = new Map<number, number>();
  const slotOfTrace = new Map<string, number>();
  const usedIn: PairSet[] = [];
  const ids = new Uint32Array(2 * table.size);
  for (let i = 0; i < table.size; i++) {
    const root = roots[i];
    let slot = slotOf.get(root);
    if (slot === undefined) {
      const trace = ownOtlpIds(table.id(root))?.trace ?? hexDigest(`trace:${table.groupOf(root) ?? ''}:${keyOf(root)}`, 32);
      // Roots of one trace (an OTLP file's) share it, and its span ids.
      slot = slotOfTrace.get(trace);
      if (slot === undefined) {
        slotOfTrace.set(trace, (slot = traceIds.length));
        traceIds.push(trace);
        usedIn.push(new PairSet());
      }
      slotOf.set(root, slot);
    }
    traceOf[i] = slot;
    const used = usedIn[slot];
    const own = ownOtlpIds(table.id(i));
    let [hi, lo] = own && own.trace === traceIds[slot] ? halves(own.span) : [digest[2 * i], digest[2 * i + 1]];
    // Two events must never share a span id in one trace, or a backend merges them.
    for (let n = 1; used.has(hi, lo); n++) [hi, lo] = halves(hexDigest(`span:${keyOf(i)}:${n}`, 16));
    used.add(hi, lo);
    ids[2 * i] = hi;
    ids[2 * i + 1] = lo;
  }
  const hex8 = (n: number): string => n.toString(16).padStart(8, '0');
  return {
    traceId: (i) => traceIds[traceOf[i]],
    spanId: (i) => hex8(ids[2 * i]) + hex8(ids[2 * i + 1]),
  };
}

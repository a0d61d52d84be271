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

/**
 * The key of an event inside its trace: its own id when it has one, else its parent's key plus its kind and
 * place among its siblings. Keys (and the ids hashed from them) stay the same when the file is exported again,
 * and when events are appended to it, since nothing depends on the file's path, the time or a random source.
 */
function eventKeys(table: EventTable, tree: EventTree): { keys: string[]; roots: Int32Array } {
  const keys: string[] = new Array(table.size);
  const roots = new Int32Array(table.size);
  const seen = new Map<string, number>();
  const unique = (key: string): string => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? key : `${key}#dup${n}`;
  };
  const visit = (i: number, parentKey: string, ordinal: number, root: number): void => {
    const id = table.id(i);
    roots[i] = root;
    keys[i] = unique(id !== null ? `id:${id}` : `${parentKey}>${table.kindOf(i)}@${ordinal}`);
  };
  // Iterative pre-order: parents get their keys before their children (no recursion on deep trees).
  const stack: number[] = [];
  tree.roots.forEach((r, k) => visit(r, 'root', k, r));
  for (let k = tree.roots.length - 1; k >= 0; k--) stack.push(tree.roots[k]);
  while (stack.length > 0) {
    const i = stack.pop()!;
    const kids = tree.children(i);
    kids.forEach((c, k) => visit(c, keys[i], k, roots[i]));
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  // Events of a parent cycle are roots too, but guard against any the walk did not reach.
  for (let i = 0; i < table.size; i++) if (keys[i] === undefined) visit(i, 'unreached', i, i);
  return { keys, roots };
}

/**
 * Derives OTLP ids for every event: one trace per root of the event tree (hashed from the root's run or
 * session and its key), span ids hashed from each event's key. Events read from an OTLP file keep their
 * own trace and span ids, so exporting an OTLP trace gives back the ids it had.
 */
export function deriveOtlpIds(table: EventTable, tree: EventTree): OtlpIds {
  const { keys, roots } = eventKeys(table, tree);
  // One trace id per root (computed once) and the span ids used in each trace (by their high half, then low).
  const traceIds: string[] = [];
  const traceOf = new Int32Array(table.size);
  const slotOf = new Map<number, number>();
  const slotOfTrace = new Map<string, number>();
  const usedIn: Map<number, number | number[]>[] = [];
  const halves = new Uint32Array(2 * table.size);
  const isUsed = (used: Map<number, number | number[]>, hi: number, lo: number): boolean => {
    const had = used.get(hi);
    return had !== undefined && (typeof had === 'number' ? had === lo : had.includes(lo));
  };
  const use = (used: Map<number, number | number[]>, hi: number, lo: number): void => {
    const had = used.get(hi);
    if (had === undefined) used.set(hi, lo);
    else if (typeof had === 'number') used.set(hi, [had, lo]);
    else had.push(lo);
  };
  for (let i = 0; i < table.size; i++) {
    const root = roots[i];
    let slot = slotOf.get(root);
    if (slot === undefined) {
      const trace = ownOtlpIds(table.id(root))?.trace ?? hexDigest(`trace:${table.groupOf(root) ?? ''}:${keys[root]}`, 32);
      // Roots of one trace (an OTLP file's) share it, and its span ids.
      slot = slotOfTrace.get(trace);
      if (slot === undefined) {
        slotOfTrace.set(trace, (slot = traceIds.length));
        traceIds.push(trace);
        usedIn.push(new Map());
      }
      slotOf.set(root, slot);
    }
    traceOf[i] = slot;
    const used = usedIn[slot];
    const own = ownOtlpIds(table.id(i));
    let span = own && own.trace === traceIds[slot] ? own.span : hexDigest(`span:${keys[i]}`, 16);
    let hi = parseInt(span.slice(0, 8), 16);
    let lo = parseInt(span.slice(8, 16), 16);
    // Two events must never share a span id in one trace, or a backend merges them.
    for (let n = 1; isUsed(used, hi, lo); n++) {
      span = hexDigest(`span:${keys[i]}:${n}`, 16);
      hi = parseInt(span.slice(0, 8), 16);
      lo = parseInt(span.slice(8, 16), 16);
    }
    use(used, hi, lo);
    halves[2 * i] = hi;
    halves[2 * i + 1] = lo;
  }
  const hex8 = (n: number): string => n.toString(16).padStart(8, '0');
  return {
    traceId: (i) => traceIds[traceOf[i]],
    spanId: (i) => hex8(halves[2 * i]) + hex8(halves[2 * i + 1]),
  };
}

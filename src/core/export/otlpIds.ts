import { sha256Hex } from '../io/platform';
import { EventTable } from '../eventTable';
import { EventTree } from '../tree';

/** Trace and span ids of every event of an export, as lowercase hex (32 and 16 digits). */
export interface OtlpIds {
  traceIds: string[];
  spanIds: string[];
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
  const traceIds: string[] = new Array(table.size);
  const spanIds: string[] = new Array(table.size);
  // One trace id per root (computed once, one string shared by its events) and the span ids used in each trace.
  const traces = new Map<number, { trace: string; used: Set<string> }>();
  const usedIn = new Map<string, Set<string>>();
  for (let i = 0; i < table.size; i++) {
    const root = roots[i];
    let t = traces.get(root);
    if (t === undefined) {
      const trace = ownOtlpIds(table.id(root))?.trace ?? hexDigest(`trace:${table.groupOf(root) ?? ''}:${keys[root]}`, 32);
      // Roots of one trace (an OTLP file's) share its span ids.
      let used = usedIn.get(trace);
      if (used === undefined) usedIn.set(trace, (used = new Set()));
      traces.set(root, (t = { trace, used }));
    }
    traceIds[i] = t.trace;
    const own = ownOtlpIds(table.id(i));
    let span = own && own.trace === t.trace ? own.span : hexDigest(`span:${keys[i]}`, 16);
    // Two events must never share a span id in one trace, or a backend merges them.
    for (let n = 1; t.used.has(span); n++) span = hexDigest(`span:${keys[i]}:${n}`, 16);
    t.used.add(span);
    spanIds[i] = span;
  }
  return { traceIds, spanIds };
}

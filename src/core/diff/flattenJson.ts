import { volatileValueClass } from './volatileFields';
import { sortedKeysOf } from './objectShapes';

/** One leaf of an event's JSON: its path (`payload.args.title`, `messages[0].content`) and its value. */
export interface FlatField {
  path: string;
  value: string | number | boolean | null;
}

/** How an event's JSON is flattened for comparison. */
export interface FlattenOptions {
  /** Keep ids, times and hashes (left out by default). */
  includeVolatile: boolean;
}

const MAX_DEPTH = 64;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Traces repeat the same few hundred keys on every line: decide each key's path form once.
const plainKeys = new Map<string, boolean>();
const MAX_PLAIN_KEYS = 50_000;

/** Whether a key shows in a path as `a.key` (else as `a["key"]`). */
export function plainKey(key: string): boolean {
  let plain = plainKeys.get(key);
  if (plain === undefined) {
    plain = IDENT.test(key) || /^[A-Za-z_$][\w$.-]*$/.test(key);
    if (plainKeys.size >= MAX_PLAIN_KEYS) plainKeys.clear();
    plainKeys.set(key, plain);
  }
  return plain;
}

function childPath(path: string, key: string): string {
  if (plainKey(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** A string holding a JSON object or array (agentledger's `payload_ref`, `causal_token`) is read as that value. */
function embeddedJson(s: string): unknown {
  if (s.length < 2 || s.length > 1 << 20) return undefined;
  const c = s[0];
  if ((c !== '{' || s[s.length - 1] !== '}') && (c !== '[' || s[s.length - 1] !== ']')) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Longest text kept for a value nested below {@link MAX_DEPTH}. */
const MAX_DEEP_TEXT = 1 << 20;

/**
 * The JSON text of a value nested too deep to flatten, written without recursion (`JSON.stringify` would
 * overflow the stack on a crafted line) and cut at {@link MAX_DEEP_TEXT}.
 */
function deepText(root: unknown): string {
  let s = '';
  const stack: unknown[] = [root];
  while (stack.length > 0 && s.length < MAX_DEEP_TEXT) {
    const v = stack.pop();
    if (typeof v === 'symbol') s += v.description;
    else if (typeof v !== 'object' || v === null) s += JSON.stringify(v) ?? 'null';
    else if (Array.isArray(v)) {
      stack.push(Symbol(']'));
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i], ...(i > 0 ? [Symbol(',')] : []));
      s += '[';
    } else {
      const keys = Object.keys(v).sort();
      stack.push(Symbol('}'));
      for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]], Symbol(`${JSON.stringify(keys[i])}:`), ...(i > 0 ? [Symbol(',')] : []));
      s += '{';
    }
  }
  return s;
}

/** How {@link walkLeaves} names a value's place: a path of type `P` made from its parent's. */
export interface LeafPaths<P> {
  /** The path of the root value (`''` for text paths). */
  root: P;
  /** The path of member `key` of an object at `parent`. */
  key(parent: P, key: string): P;
  /** The path of element `i` of an array at `parent`. */
  index(parent: P, i: number): P;
  /** Called for each leaf, in canonical order. */
  leaf(path: P, value: FlatField['value']): void;
}

/**
 * Walks a parsed event's leaves in a canonical order (object keys sorted), so that two events with the same
 * content give the same leaves whatever their key order. Ids, times and hashes are skipped unless asked for.
 * Iterative: a deeply nested value cannot overflow the stack; below {@link MAX_DEPTH} a value is one leaf.
 * Paths are the caller's (`paths`): text for listing fields, hash states for digests (no string per path).
 */
export function walkLeaves<P>(root: unknown, options: FlattenOptions, paths: LeafPaths<P>): void {
  // Three parallel stacks rather than a tuple per value: this walk runs over every line of both runs.
  const at: P[] = [paths.root];
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const push = (path: P, v: unknown, depth: number): void => {
    at.push(path);
    values.push(v);
    depths.push(depth);
  };
  while (values.length > 0) {
    const path = at.pop()!;
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === 'string') {
      const inner = embeddedJson(v);
      if (inner !== undefined && typeof inner === 'object' && inner !== null) push(path, inner, depth + 1);
      else if (options.includeVolatile || volatileValueClass(v) === null) paths.leaf(path, v);
      continue;
    }
    if (typeof v !== 'object' || v === null) {
      paths.leaf(path, v as FlatField['value']);
      continue;
    }
    if (depth >= MAX_DEPTH) {
      paths.leaf(path, deepText(v));
      continue;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) paths.leaf(path, '[]');
      for (let i = v.length - 1; i >= 0; i--) push(paths.index(path, i), v[i], depth + 1);
      continue;
    }
    const sorted = sortedKeysOf(v);
    if (sorted.all.length === 0) paths.leaf(path, '{}');
    const keys = options.includeVolatile ? sorted.all : sorted.content;
    for (let k = keys.length - 1; k >= 0; k--) push(paths.key(path, keys[k]), (v as Record<string, unknown>)[keys[k]], depth + 1);
  }
}

/** The leaves of a parsed event (see {@link walkLeaves}), for listing the fields two events differ in. */
export function flattenEvent(root: unknown, options: FlattenOptions): FlatField[] {
  const out: FlatField[] = [];
  walkLeaves<string>(root, options, {
    root: '',
    key: childPath,
    index: (path, i) => `${path}[${i}]`,
    leaf: (path, value) => out.push({ path, value }),
  });
  return out;
}

const ARG_KEYS = new Set(['arguments', 'args', 'input', 'tool_input', 'toolInput', 'params', 'parameters', 'command']);
const ARG_SEARCH_DEPTH = 4;

/**
 * The arguments of a tool call, wherever the format keeps them: the first field named like `arguments`, `args`
 * or `input` found breadth-first within a few levels (embedded JSON strings included). Undefined when none.
 */
export function findArguments(root: unknown): unknown {
  let level: unknown[] = [root];
  for (let d = 0; d <= ARG_SEARCH_DEPTH && level.length > 0; d++) {
    const next: unknown[] = [];
    for (const v0 of level) {
      const v = typeof v0 === 'string' ? embeddedJson(v0) : v0;
      if (typeof v !== 'object' || v === null) continue;
      if (Array.isArray(v)) {
        for (const x of v) next.push(x);
        continue;
      }
      for (const [k, x] of Object.entries(v)) {
        if (ARG_KEYS.has(k)) return x;
        next.push(x);
      }
    }
    level = next;
  }
  return undefined;
}

import { volatileKeyClass } from './volatileFields';

/** An object's keys in code-unit order (as `sort()` orders them), and those left without ids, times and hashes. */
export interface SortedKeys {
  all: readonly string[];
  content: readonly string[];
}

interface Shape {
  keys: string[];
  sorted: SortedKeys;
}

// Every line of a trace repeats a few shapes of object (the same keys in the same order): each shape's keys are
// sorted and classified once. Shapes are found by their first key, then compared key by key.
const shapes = new Map<string, Shape[]>();
const MAX_FIRST_KEYS = 10_000;
const MAX_SHAPES_PER_FIRST_KEY = 16;
/** Larger objects (a map keyed by ids) are rarely repeated: sorted each time, never kept. */
const MAX_SHAPE_KEYS = 64;
const NO_KEYS: SortedKeys = { all: [], content: [] };

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortKeys(keys: string[]): SortedKeys {
  const all = keys.slice().sort();
  return { all, content: all.filter((k) => volatileKeyClass(k) === null) };
}

/** The keys of `v` sorted, and its content keys (see volatileKeyClass), from the cache when its shape was seen. */
export function sortedKeysOf(v: object): SortedKeys {
  const keys = Object.keys(v);
  if (keys.length === 0) return NO_KEYS;
  if (keys.length > MAX_SHAPE_KEYS) return sortKeys(keys);
  let list = shapes.get(keys[0]);
  if (list) for (const s of list) if (sameKeys(s.keys, keys)) return s.sorted;
  const sorted = sortKeys(keys);
  if (!list) {
    if (shapes.size >= MAX_FIRST_KEYS) shapes.clear();
    shapes.set(keys[0], (list = []));
  }
  if (list.length < MAX_SHAPES_PER_FIRST_KEY) list.push({ keys, sorted });
  return sorted;
}

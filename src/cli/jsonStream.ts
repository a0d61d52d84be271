/**
 * JSON written in pieces, byte for byte what `JSON.stringify(value, null, 2)` (or, with `pretty` false,
 * `JSON.stringify(value)`) gives for plain data: objects, arrays, strings, numbers, booleans, null; undefined
 * members skipped, undefined elements as null. Containers down to `depth` levels are written member by member,
 * deeper values with one `JSON.stringify`, so a result with millions of findings never becomes one string
 * (V8 caps strings at about 512 MB).
 */
export function* jsonPieces(value: unknown, depth: number, pretty = true, indent = ''): Generator<string> {
  // An object one level above the depth holds only values written whole: written whole itself (one finding of
  // millions, say), it is one piece made by JSON.stringify instead of a generator per member, and its text is at
  // most its members' texts together. An array there is still written item by item: it may hold millions.
  const whole = depth <= 0 || (depth === 1 && !Array.isArray(value) && !(value instanceof LazyArray));
  if (whole || typeof value !== 'object' || value === null) {
    const text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) ?? 'null';
    yield pretty && indent ? text.replace(/\n/g, '\n' + indent) : text;
    return;
  }
  const inner = pretty ? indent + '  ' : '';
  const sep = pretty ? `\n${inner}` : '';
  const close = pretty ? `\n${indent}` : '';
  // A lazy sequence (see lazyArray) is written like the array it stands for, one element at a time.
  const items: Iterable<unknown> | null = Array.isArray(value) ? value : value instanceof LazyArray ? value : null;
  if (items !== null) {
    let i = 0;
    for (const item of items) {
      yield i === 0 ? '[' + sep : ',' + sep;
      yield* jsonPieces(item === undefined ? null : item, depth - 1, pretty, inner);
      i++;
    }
    return yield i === 0 ? '[]' : `${close}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
  if (entries.length === 0) return yield '{}';
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    yield `${i > 0 ? ',' : ''}${sep}${JSON.stringify(entries[i][0])}:${pretty ? ' ' : ''}`;
    yield* jsonPieces(entries[i][1], depth - 1, pretty, inner);
  }
  yield `${close}}`;
}

/**
 * An array made element by element when written: a SARIF log of millions of results never holds them all.
 * `JSON.stringify` sees the real array through `toJSON`, so both writers give the same text.
 */
export class LazyArray<T> implements Iterable<T> {
  constructor(private readonly make: () => Iterable<T>) {}
  [Symbol.iterator](): Iterator<T> {
    return this.make()[Symbol.iterator]();
  }
  toJSON(): T[] {
    return [...this];
  }
}

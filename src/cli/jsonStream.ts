/**
 * JSON written in pieces, byte for byte what `JSON.stringify(value, null, 2)` (or, with `pretty` false,
 * `JSON.stringify(value)`) gives for plain data: objects, arrays, strings, numbers, booleans, null; undefined
 * members skipped, undefined elements as null. Containers down to `depth` levels are written member by member,
 * deeper values with one `JSON.stringify`, so a result with millions of findings never becomes one string
 * (V8 caps strings at about 512 MB).
 */
export function* jsonPieces(value: unknown, depth: number, pretty = true, indent = ''): Generator<string> {
  if (writtenWhole(value, depth)) return yield wholeText(value, pretty, indent);
  const inner = pretty ? indent + '  ' : '';
  const sep = pretty ? `\n${inner}` : '';
  const close = pretty ? `\n${indent}` : '';
  // A lazy sequence (see lazyArray) is written like the array it stands for, one element at a time.
  const items: Iterable<unknown> | null = Array.isArray(value) ? value : value instanceof LazyArray ? value : null;
  if (items !== null) {
    // Items written whole (the findings of a result) are gathered into pieces of about PIECE characters.
    let i = 0;
    let buf = '';
    for (const item of items) {
      const v = item === undefined ? null : item;
      buf += i === 0 ? '[' + sep : ',' + sep;
      if (writtenWhole(v, depth - 1)) buf += wholeText(v, pretty, inner);
      else {
        yield buf;
        buf = '';
        yield* jsonPieces(v, depth - 1, pretty, inner);
      }
      if (buf.length >= PIECE) {
        yield buf;
        buf = '';
      }
      i++;
    }
    return yield buf + (i === 0 ? '[]' : `${close}]`);
  }
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
  if (entries.length === 0) return yield '{}';
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    yield `${i > 0 ? ',' : ''}${sep}${JSON.stringify(entries[i][0])}:${pretty ? ' ' : ''}`;
    yield* jsonPieces(entries[i][1], depth - 1, pretty, inner);
  }
  yield `${close}}`;
}

/** About the size of the pieces gathered from items written whole (writePieces writes about 64 KB at once). */
const PIECE = 1 << 16;

/**
 * Whether a value is written with one JSON.stringify: a value at or below the depth, a primitive, or an object one
 * level above it (one finding of millions, say: its text is at most its members' texts together). An array there
 * is still written item by item: it may hold millions.
 */
function writtenWhole(value: unknown, depth: number): boolean {
  return depth <= 0 || typeof value !== 'object' || value === null || (depth === 1 && !Array.isArray(value) && !(value instanceof LazyArray));
}

/** A value's JSON text, its lines indented by `indent` (pretty) to sit at that depth. */
function wholeText(value: unknown, pretty: boolean, indent: string): string {
  const text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) ?? 'null';
  return pretty && indent ? text.replace(/\n/g, '\n' + indent) : text;
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

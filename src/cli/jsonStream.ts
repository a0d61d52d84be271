/**
 * JSON written in pieces, byte for byte what `JSON.stringify(value, null, 2)` (or, with `pretty` false,
 * `JSON.stringify(value)`) gives for plain data: objects, arrays, strings, numbers, booleans, null; undefined
 * members skipped, undefined elements as null. Containers down to `depth` levels are written member by member,
 * deeper values with one `JSON.stringify`, so a result with millions of findings never becomes one string
 * (V8 caps strings at about 512 MB).
 */
export function* jsonPieces(value: unknown, depth: number, pretty = true, indent = ''): Generator<string> {
  if (depth <= 0 || typeof value !== 'object' || value === null) {
    const text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) ?? 'null';
    yield pretty && indent ? text.replace(/\n/g, '\n' + indent) : text;
    return;
  }
  const inner = pretty ? indent + '  ' : '';
  const sep = pretty ? `\n${inner}` : '';
  const close = pretty ? `\n${indent}` : '';
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield i > 0 ? ',' + sep : sep;
      yield* jsonPieces(value[i] === undefined ? null : value[i], depth - 1, pretty, inner);
    }
    return yield `${close}]`;
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

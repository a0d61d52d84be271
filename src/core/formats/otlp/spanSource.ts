/** Where a normalized span's own id is written in the file (key and value as written), to find its line. */
export interface SpanSource {
  key: string;
  value: string;
}

const SOURCES = new WeakMap<object, SpanSource>();

/** Remembers how a converted span's id was written, so locating it searches the file's own spelling. */
export function setSpanSource(span: object, source: SpanSource): void {
  SOURCES.set(span, source);
}

/** The key and value of a span's id as the file writes them (`spanId`, `span_id`, `spanID`), or null. */
export function spanSourceOf(span: Record<string, unknown>): SpanSource | null {
  const s = SOURCES.get(span);
  if (s) return s;
  return typeof span.spanId === 'string' ? { key: 'spanId', value: span.spanId } : null;
}

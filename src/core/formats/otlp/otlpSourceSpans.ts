import { readTextFile } from '../../io/fileSystem';
import type { SourceSpan } from '../../format';
import { forEachOtlpEvent, spanKey } from './otlpSpans';

const NANOS = /^\d+$/;

/** A span's nanosecond time as the file writes it (a decimal string, or a safe integer), else null. */
function nanosText(v: unknown): string | null {
  if (typeof v === 'string' && NANOS.test(v)) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return null;
}

/** The records of an OTLP/JSON file: one document, else one per JSON line (lines that do not parse are skipped). */
function recordsOf(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    const out: unknown[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        // A malformed line is the reader's finding; it has no span to keep.
      }
    }
    return out;
  }
}

/**
 * Every span of an OTLP/JSON file by `traceId/spanId` (as the reader's event ids, {@link spanKey}): its attributes as
 * written (`KeyValue[]`, in every shape the reader reads, normalized) and its start and end nanoseconds as written, for
 * an export that keeps what it does not set itself (`FormatModule.sourceSpans`).
 */
export async function otlpSourceSpans(path: string): Promise<ReadonlyMap<string, SourceSpan>> {
  const out = new Map<string, SourceSpan>();
  for (const record of recordsOf(await readTextFile(path))) {
    forEachOtlpEvent(record, ({ span }) => {
      if (typeof span.traceId !== 'string' || typeof span.spanId !== 'string' || !span.traceId || !span.spanId) return;
      const key = spanKey(span.traceId, span.spanId);
      if (out.has(key)) return;
      out.set(key, {
        attributes: Array.isArray(span.attributes) ? span.attributes : [],
        startTimeUnixNano: nanosText(span.startTimeUnixNano),
        endTimeUnixNano: nanosText(span.endTimeUnixNano),
      });
    }, () => undefined);
  }
  return out;
}

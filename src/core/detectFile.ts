import { basename } from './io/paths';
import { shownPath, TracePath } from './tracePath';
import { probeFile } from './byteSource';
import { Detection, MIN_CONFIDENCE } from './detect';
import { isFallbackFormat } from './formats';
import { parseLine } from './json/jsonLine';
import { detectValues, sampleBaseOf, SNIFF_VALUES } from './jsonlReading';
import { scanLines } from './lineIndexer';
import { FORCED_REASON, tryReadDocument, TraceModel } from './loadTrace';

/** A JSON document larger than this is not parsed just to see whether it is a trace. */
const MAX_SNIFF_DOCUMENT_BYTES = 64 << 20;
/** JSON Lines read at most, looking for the first values. */
const MAX_SNIFF_LINE_BYTES = 4 << 20;

/**
 * Detects a file's format the way loading it would (a multi-line JSON document whole, else its first JSONL
 * values), without building events. Throws what loading throws: unreadable files, and {@link NotATraceError}
 * for binary ones.
 */
export async function detectFile(path: TracePath): Promise<Detection> {
  await probeFile(path);
  const base = sampleBaseOf(shownPath(path));
  const doc = await tryReadDocument(path, MAX_SNIFF_DOCUMENT_BYTES);
  if (doc) return detectValues(base, doc.records.slice(0, SNIFF_VALUES).map((r) => r.value), true);
  const values: unknown[] = [];
  let scanned = 0;
  await scanLines(
    path,
    (span, bytes) => {
      if (values.length >= SNIFF_VALUES) return;
      const parsed = parseLine(span, bytes, 1 << 20);
      if (parsed.kind === 'value') values.push(parsed.value);
    },
    // A pretty-printed JSON file too large to parse has no JSON value on any line: stop looking after a few MiB.
    { chunkSize: 256 * 1024, maxLineBytes: 1 << 20, isCancelled: () => values.length >= SNIFF_VALUES || scanned >= MAX_SNIFF_LINE_BYTES, onProgress: (n) => (scanned = n) },
  );
  return detectValues(base, values, false);
}

/** True when a detection names a runtime format with confidence: not generic, at least {@link MIN_CONFIDENCE}. */
export function isConfidentTrace(d: Detection): boolean {
  return !isFallbackFormat(d.format) && d.confidence >= MIN_CONFIDENCE;
}

/**
 * Why a loaded file is not a trace at all, for the viewer to say instead of showing one meaningless event; null
 * for a trace. Only a multi-line JSON document that no format claims qualifies (package.json, a settings file):
 * JSONL that no format claims is still generic JSONL, worth a tree. A format the user chose is never second-guessed.
 */
export function notATraceMessage(model: Pick<TraceModel, 'path' | 'document' | 'detection'>): string | null {
  if (!model.document || !isFallbackFormat(model.detection.format) || model.detection.reason === FORCED_REASON) return null;
  const name = basename(model.path.replace(/\\/g, '/'));
  return `${name} is not a trace: it is a JSON document that no trace format recognises (OTLP, Jaeger, Gemini CLI, deepstrike events…). Open it as text.`;
}

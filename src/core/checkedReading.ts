import { Buffer } from 'buffer';
import type { LineChecks } from './checks/lineChecks';
import { formatModule } from './formats';
import type { EventSink, JsonlReading } from './jsonlReading';
import type { ParsedLine } from './json/jsonLine';
import { lineByteFindings } from './lineFindings';
import type { LineSpan } from './lineIndexer';
import type { Finding } from './model';
import type { JsonlSink } from './parallel/scanJsonl';
import { LineExtra, lineForChecks } from './parallel/rangeDigest';
import { StreamLine } from './checks/streamLine';

/**
 * A JSONL reading with checks riding along: each line is decoded and parsed once, taken by the reading (the
 * events, the findings of reading) and then handed, with the same text and value, to the checks. The loader reads
 * through one when a trace is opened with checks on; a streamed verification reads through one into compact facts.
 * Lines a range worker read come with their digest for the checks, or their text.
 */
export class CheckedReading<T extends EventSink> implements JsonlSink {
  constructor(readonly reading: JsonlReading<T>, readonly checks: LineChecks) {}

  get builder(): unknown {
    return this.reading.builder;
  }

  get detection(): JsonlReading<T>['detection'] {
    return this.reading.detection;
  }

  onLine(span: LineSpan, bytes: Buffer | null, utf8 = false): void {
    // Decoded once, for the parse and for the checks that read the text (lumen's hash chain reads every line).
    const text = bytes ? bytes.toString('utf8') : '';
    const parsed = this.reading.parse(span, bytes, text);
    this.reading.takeLine(span, lineByteFindings(span, bytes, utf8), parsed);
    const started = this.start();
    // A line held until detection keeps its text, not a view of the read buffer (the next chunk reuses it).
    this.checks.add(started && bytes ? new StreamLine(span.line, text, parsed, bytes, utf8) : new StreamLine(span.line, text, parsed));
  }

  takeLine(span: LineSpan, byteFindings: readonly Finding[], parsed: ParsedLine, extra?: LineExtra): void {
    if (!extra) throw new Error('a checked read needs each line\'s digest or text from the range workers');
    this.reading.takeLine(span, byteFindings, parsed);
    this.start();
    this.checks.add(lineForChecks(span.line, parsed, extra));
  }

  /** Starts the checks once detection has started the builder; whether they run. */
  private start(): boolean {
    if (!this.checks.started && this.reading.builder) {
      const format = this.reading.detection!.format;
      this.checks.start(format, formatModule(format));
    }
    return this.checks.started;
  }
}

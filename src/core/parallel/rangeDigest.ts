import { Buffer } from 'buffer';
import { blobLayoutOf } from '../blobStore/formatBlobs';
import { blobVerifierReadsLine } from '../checks/blobVerification';
import type { LineScanner } from '../lineFacts';
import type { BlobLayout } from '../blobs/blobLayout';
import type { CheckMode, LineDigest, LineDigestColumns, LineDigestWriter, LineInput } from '../rules/types';
import type { ParsedLine } from '../json/jsonLine';
import { formatModule } from '../formats';
import type { FormatName } from '../model';

/** What a range worker digests lines for: the checks of one mode over one format. */
export interface DigestJob {
  format: FormatName;
  mode: CheckMode;
}

/** Whether a streamed run of `mode` over `format` can have its lines digested in range workers. */
export function canDigest(format: FormatName, mode: CheckMode): boolean {
  return formatModule(format).rules?.lineDigest?.(mode) !== undefined && !readsEveryLine(blobLayoutOf(format), mode);
}

/** The blob verifier reads every line of a layout that finds the capture mode in the lines: nothing to save. */
function readsEveryLine(layout: BlobLayout, mode: CheckMode): boolean {
  return mode === 'verify' && layout.contentCaptured !== undefined;
}

/**
 * In a range worker: digests each line for the format's own check, or keeps its text when a check on the main
 * thread must read it (the line did not digest, it is not a JSON object, or the blob verifier reads it). The
 * checks of a streamed run are the generic checker (reads no line), the blob verifier (verify) and the format's
 * own check; a line input without text throws when read, so a check that would need more fails the tests.
 */
export class RangeDigester {
  private readonly writer: LineDigestWriter;
  private readonly layout: BlobLayout;

  constructor(private readonly job: DigestJob) {
    this.writer = formatModule(job.format).rules!.lineDigest!(job.mode)!;
    this.layout = blobLayoutOf(job.format);
  }

  /** The line's row in the digest, or -1 when its text must go to the main thread. `value` only for an object line. */
  add(text: string, objectValue: unknown | undefined, bytes?: Buffer): number {
    if (objectValue === undefined) return -1;
    if (this.job.mode === 'verify' && blobVerifierReadsLine(this.layout, text)) return -1;
    return this.writer.add(text, objectValue, bytes);
  }

  /**
   * The row of a line the format's scanner has just read (its bytes, valid UTF-8), or -1: the worker then reads the
   * line as any other (decoded, parsed, {@link add}).
   */
  addScanned(scanner: LineScanner, bytes: Buffer): number {
    if (!this.writer.addScanned) return -1;
    if (this.job.mode === 'verify' && blobVerifierReadsLine(this.layout, bytes)) return -1;
    return this.writer.addScanned(scanner);
  }

  take(): { columns: LineDigestColumns; transfer: ArrayBuffer[] } {
    return this.writer.take();
  }
}

/** What a range worker sent of one line for the checks: its digest, or its text. */
export type LineExtra = { digest: LineDigest; text?: undefined } | { text: string; digest?: undefined };

/** A line for the checks from what a range worker sent: digested (no text), or its text, parsed again only if asked. */
export function lineForChecks(line: number, parsed: ParsedLine, extra: LineExtra): LineInput {
  return extra.digest ? new DigestedLine(line, extra.digest) : new ShippedLine(line, extra.text, parsed);
}

class DigestedLine implements LineInput {
  readonly blank = false;
  readonly validJson = true;
  constructor(readonly line: number, readonly digest: LineDigest) {}
  get text(): string {
    throw new Error(`line ${this.line} was digested in a range worker: its text is not here`);
  }
  get value(): unknown {
    throw new Error(`line ${this.line} was digested in a range worker: its value is not here`);
  }
}

/** A line whose text a worker sent; its parsed value (the worker sent only the builder's fields) is made on request. */
class ShippedLine implements LineInput {
  private parsedValue: unknown;
  private hasValue = false;
  constructor(readonly line: number, readonly text: string, private readonly parsed: ParsedLine) {}
  get value(): unknown {
    if (this.parsed.kind !== 'value') return undefined;
    if (!this.hasValue) {
      this.parsedValue = JSON.parse(this.text);
      this.hasValue = true;
    }
    return this.parsedValue;
  }
  get blank(): boolean {
    return this.parsed.kind === 'blank';
  }
  get validJson(): boolean {
    return this.parsed.kind === 'value';
  }
}

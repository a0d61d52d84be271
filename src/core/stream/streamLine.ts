import type { LineInput } from '../checks/types';
import type { ParsedLine } from '../json/jsonLine';

/** A line handed to the checks with the value the reading parsed, so each line is parsed once. */
export class StreamLine implements LineInput {
  private decoded: string | undefined;
  constructor(readonly line: number, private readonly bytes: Buffer | null, private readonly parsed: ParsedLine) {}
  get text(): string {
    return (this.decoded ??= this.bytes ? this.bytes.toString('utf8') : '');
  }
  get value(): unknown {
    return this.parsed.kind === 'value' ? this.parsed.value : undefined;
  }
  get blank(): boolean {
    return this.parsed.kind === 'blank';
  }
  get validJson(): boolean {
    return this.parsed.kind === 'value';
  }
}

import type { CheckResult } from '../core/checks/runChecks';
import type { FormatName } from '../core/model';
import type { BlobAnswer } from '../viewer/blobResolver';

/** Everything a report page embeds (compressed), read by its in-page host (reportHost.ts). */
export interface ReportData {
  version: 1;
  /** The trace file's base name; the page reads the trace at `/report/<fileName>` in memory. */
  fileName: string;
  /** The format detected at export time, so the page reads the (possibly cut) content the same way. */
  format: FormatName;
  /** The trace's content (decompressed, cut after `--max-events` events), base64. */
  trace: string;
  /** Verification and conformance results at export time. */
  verify: CheckResult | null;
  check: CheckResult | null;
  /** Blob answers by digest (`--include-blobs`); empty otherwise. */
  blobs: Record<string, BlobAnswer>;
  includeBlobs: boolean;
  /** When and by what the report was made, and what it leaves out: shown above the viewer. */
  note: string;
}

/** The in-memory path of the trace inside a report page. */
export function reportTracePath(fileName: string): string {
  return `/report/${fileName.replace(/[\\/]/g, '_')}`;
}

/** The id of the element that holds the data. */
export const REPORT_DATA_ID = 'atv-report-data';

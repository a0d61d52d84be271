import type { CliCommand } from './command';
import { CHECK_HELP, makeCheckCommand, VERIFY_HELP } from './checkCommand';
import { version } from '../../package.json';
import { EXPORT_HELP, makeExportCommand } from './exportCommand';
import { markdownExport, MIN_MAX_CHARS } from '../report/markdown/markdownTranscript';
import { standaloneBlobs } from '../report/standaloneBlobs';
import { otlpContentOf } from '../report/otlpContent';
import { makeReportCommand, REPORT_HELP } from './reportCommand';

/** The verify and check commands, kept apart from the dispatcher. */
export const CLI_COMMANDS_EXTRA: Record<string, CliCommand> = {
  verify: { help: VERIFY_HELP, summary: 'verify hash chains, sequence numbers, digests and blobs (exit 1 when broken)', run: makeCheckCommand('verify', VERIFY_HELP, version) },
  check: { help: CHECK_HELP, summary: 'check conformance to the runtime\'s rules (--json, --sarif)', run: makeCheckCommand('check', CHECK_HELP, version) },
  export: { help: EXPORT_HELP, summary: 'the trace as OTLP/JSON spans (--otlp, to a file or --endpoint) or Markdown (--markdown)', run: makeExportCommand(version, (m, r) => markdownExport(m, { ...r, blobs: standaloneBlobs() }), MIN_MAX_CHARS, (m) => otlpContentOf(m, standaloneBlobs())) },
  report: { help: REPORT_HELP, summary: 'one self-contained HTML file that shows the trace in the viewer, offline (-o report.html)', run: makeReportCommand(version) },
};

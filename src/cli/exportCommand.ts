import { writeFile } from 'node:fs/promises';
import { holdTrace } from '../core/io/traceHandles';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { basename } from 'node:path';
import { otlpJsonRequests, otlpSourceSpansOf, writeOtlpJson, type OtlpContentSource } from '../core/export/otlpExport';
import { OtlpPostError, parseOtlpHeaders, postOtlpJson } from '../core/export/otlpHttp';
import { parseArgs, ParsedArgs, UsageError } from './args';
import { formatOption, fsCause, loadForCli, UnreadableError, write, writeError } from './io';
import type { TraceModel } from '../core/loadTrace';

/** Makes the OTLP export's content source for a trace (`--include-content`), read as the spans are made. */
export type ContentSource = (model: TraceModel) => OtlpContentSource;

export const EXPORT_HELP = `Usage: agent-trace export FILE --otlp [--include-content] [-o OUT.json | --endpoint URL] [--format NAME]
       agent-trace export FILE --markdown [--line N] [--max-chars N | --summary] [-o OUT.md] [--format NAME]

Writes the trace in another format, to stdout unless -o names a file.

  --otlp           OTLP/JSON spans (an ExportTraceServiceRequest) with the OpenTelemetry GenAI attributes
                   of @opentelemetry/semantic-conventions 1.45 (gen_ai.operation.name, gen_ai.provider.name,
                   gen_ai.request.model, gen_ai.response.model, gen_ai.tool.name, gen_ai.tool.call.id,
                   gen_ai.usage.input_tokens/output_tokens, cache_read/cache_creation.input_tokens);
                   one execute_tool span per tool call, from the call to its result; ids are derived
                   from the trace's own ids, so exporting the same file again gives the same trace and
                   span ids; written as it is made
  --endpoint URL   POST the spans to an OTLP/HTTP receiver (URL/v1/traces, JSON) instead of writing them;
                   headers from OTEL_EXPORTER_OTLP_HEADERS (key=value,key2=value2), user:password@ in
                   the URL as Basic credentials; 429/502/503/504 are retried (Retry-After honoured, at
                   most 3 retries, waits up to 30 s), a 307/308 to the same origin is followed, any
                   other redirect is an error; bodies are gzip-compressed (sent plain to a receiver
                   that refuses gzip); user agent agent-trace/<version>; messages never show header
                   values or the password
  --include-content  with --otlp: also the conversation (opt-in: it may be private): on model calls
                   gen_ai.input.messages, gen_ai.output.messages and gen_ai.system_instructions, on
                   execute_tool spans gen_ai.tool.call.arguments and gen_ai.tool.call.result (JSON
                   strings, each cut at 64 KiB with a marker; content blobs beside the trace resolved)
  --markdown       the conversation and tool calls as Markdown for a GitHub comment, in the transcript's
                   order, each once (content blobs beside the trace included, tool definitions left out);
                   long outputs fold in <details> with their line count; prompts and replies keep their
                   own Markdown (raw HTML, images and mentions made inert), other trace text is escaped
  --line N         with --markdown: only the event on line N and what is under it (a run, a turn)
  --max-chars N    with --markdown: cut at a block boundary to at most N characters, with a note of
                   what was left out (default 65536, what a GitHub comment holds; 0: no limit)
  --summary        with --markdown: the short form: turns, tool calls, failures, tokens, cost, the
                   first prompt and the last reply
  -o, --output F   write to F
  --format NAME    read the file as NAME instead of detecting it
Exit codes: 0 success, 2 unreadable file, bad usage, or an endpoint that could not be reached or refused.`;

/** Spans per POST: small enough for a collector's default request limit (about 4 MiB). */
const POST_BATCH = 1000;

async function output(text: string, file: string | undefined): Promise<void> {
  if (file === undefined) return write(text.endsWith('\n') ? text : text + '\n');
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new UnreadableError(`${file}: cannot write: ${fsCause(err)}`);
  }
}

/** Runs `produce` with a writer to `file` (or stdout), waiting for the stream to drain; a write error is a clear message. */
async function streamed(file: string | undefined, produce: (put: (text: string) => Promise<void>) => Promise<void>): Promise<void> {
  if (file === undefined) return produce(write).then(() => write('\n'));
  // A buffer of a few MiB: the next spans are made while the disk takes the last ones, not after.
  const stream = createWriteStream(file, { highWaterMark: 4 << 20 });
  let failure: unknown = null;
  stream.on('error', (err) => (failure ??= err));
  const drained = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  const put = async (text: string): Promise<void> => {
    if (failure) throw new UnreadableError(`${file}: cannot write: ${fsCause(failure)}`);
    if (!stream.write(text) && !stream.destroyed) await drained();
  };
  try {
    await produce(put);
  } finally {
    // A stream that failed (a folder that does not exist) is closed already: waiting for its close would never end.
    if (!stream.destroyed) {
      const closed = once(stream, 'close').catch(() => undefined);
      stream.end();
      await closed;
    }
  }
  if (failure) throw new UnreadableError(`${file}: cannot write: ${fsCause(failure)}`);
}

async function exportOtlp(model: TraceModel, args: ParsedArgs, version: string, contentSource?: ContentSource): Promise<number> {
  const endpoint = args.options.get('--endpoint');
  const out = args.options.get('--output');
  if (endpoint !== undefined && out !== undefined) throw new UsageError('--endpoint and -o are alternatives: give one');
  // An OTLP trace keeps its spans' own attributes and exact times.
  const content = args.flags.has('--include-content') ? contentSource!(model) : undefined;
  const options = { version, fileName: basename(model.path), sourceSpans: await otlpSourceSpansOf(model), content: content?.content, contentThrough: content?.through };
  if (endpoint === undefined) {
    // Indented, so the file reads well and a reader can point each span at its own line; written as it is made.
    await streamed(out, (put) => writeOtlpJson(model, options, put));
    return 0;
  }
  try {
    // Each request is made when the one before it was accepted: never every body at once.
    const bodies = otlpJsonRequests(model, { ...options, batchSize: POST_BATCH });
    const headers = parseOtlpHeaders(process.env.OTEL_EXPORTER_OTLP_HEADERS);
    const onRetry = (message: string): void => void process.stderr.write(`agent-trace: ${message}\n`);
    const r = await postOtlpJson(endpoint, bodies, { headers, version, onRetry });
    const via = r.url === r.endpointUrl ? '' : ` (redirected from ${r.endpointUrl})`;
    process.stderr.write(`agent-trace: sent ${model.events.size} spans to ${r.url}${via} in ${r.requests} request${r.requests === 1 ? '' : 's'}\n`);
    if (r.rejectedSpans > 0) writeError(`the receiver rejected ${r.rejectedSpans} spans${r.messages.length ? ': ' + r.messages.join('; ') : ''}`);
    return r.rejectedSpans > 0 ? 2 : 0;
  } catch (err) {
    if (err instanceof OtlpPostError) throw new UnreadableError(err.message);
    throw err;
  }
}

/** The event on line `value` (the first, when several share it), for `--line`. */
function rootAtLine(model: TraceModel, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const line = Number(value);
  if (!Number.isInteger(line) || line < 1) throw new UsageError(`--line needs a line number, not ${value}`);
  for (let i = 0; i < model.events.size; i++) if (model.events.lineOf(i) === line) return i;
  throw new UsageError(`no event on line ${line} of ${model.path}`);
}

/** `-o` is the one short option besides `-h`; it is read as `--output`. */
function normalize(argv: string[]): string[] {
  return argv.map((a) => (a === '-o' ? '--output' : a));
}

/** What `--markdown` is given besides the trace: the subtree, the limit, the short form. */
export interface MarkdownRequest {
  root?: number;
  maxChars?: number;
  summary: boolean;
}

/** `--max-chars`: a whole number, 0 (no limit) or at least `min`. */
function maxCharsOption(value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new UsageError(`--max-chars needs a whole number of characters (0: no limit), not ${value}`);
  if (n !== 0 && n < min) throw new UsageError(`--max-chars ${value} is too small to hold the header and the note; give at least ${min} (0: no limit)`);
  return n;
}

/** `agent-trace export`: OTLP/JSON (to a file or an endpoint) or Markdown. */
export function makeExportCommand(version: string, markdown?: (model: TraceModel, request: MarkdownRequest) => Promise<{ text: string; cut: { leftOut: number; blocks: number; fromLine: number } | null }>, minMaxChars = 1, contentSource?: ContentSource): (argv: string[]) => Promise<number> {
  return async (argv) => {
    const args = parseArgs(normalize(argv), ['--otlp', '--markdown', '--summary', '--include-content', '--help'], ['--output', '--endpoint', '--format', '--line', '--max-chars']);
    if (args.flags.has('--help')) return write(EXPORT_HELP + '\n').then(() => 0);
    if (args.positional.length !== 1) throw new UsageError('export takes exactly one FILE');
    const otlp = args.flags.has('--otlp');
    if (otlp === args.flags.has('--markdown')) throw new UsageError('export needs one of --otlp or --markdown');
    if (!otlp && !markdown) throw new UsageError('--markdown is not available in this build');
    if (!otlp && args.options.has('--endpoint')) throw new UsageError('--endpoint goes with --otlp');
    if (otlp && args.options.has('--line')) throw new UsageError('--line goes with --markdown');
    if (otlp && args.options.has('--max-chars')) throw new UsageError('--max-chars goes with --markdown');
    if (!otlp && args.flags.has('--include-content')) throw new UsageError('--include-content goes with --otlp');
    if (otlp && args.flags.has('--include-content') && !contentSource) throw new UsageError('--include-content is not available in this build');
    if (otlp && args.flags.has('--summary')) throw new UsageError('--summary goes with --markdown');
    if (args.flags.has('--summary') && args.options.has('--max-chars')) throw new UsageError('--summary and --max-chars are alternatives: the summary is short');
    const maxChars = maxCharsOption(args.options.get('--max-chars'), minMaxChars);
    const model = await loadForCli(args.positional[0], { format: formatOption(args.options.get('--format')) });
    // The conversation is read back from the trace block by block (the transcript's path): one open file for all of
    // it, not an open, a read and a close per block (core/io/traceHandles.ts).
    if (otlp) return holdTrace(model.path, () => exportOtlp(model, args, version, contentSource));
    const request = { root: rootAtLine(model, args.options.get('--line')), maxChars, summary: args.flags.has('--summary') };
    const md = await holdTrace(model.path, () => markdown!(model, request));
    await output(md.text, args.options.get('--output'));
    // The note at the end of the Markdown says it too; a reader of the terminal sees it here.
    if (md.cut) process.stderr.write(`agent-trace: the Markdown was cut to ${md.text.length} characters: the last ${md.cut.leftOut} of ${md.cut.blocks} transcript blocks (from line ${md.cut.fromLine}) are left out; --max-chars 0 writes everything\n`);
    return 0;
  };
}

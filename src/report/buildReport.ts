import { Buffer } from 'buffer';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { strToU8, zlibSync } from 'fflate';
import type { TraceModel } from '../core/loadTrace';
import { readRange } from '../core/byteSource';
import { tracePathToOpen } from '../core/tracePath';
import { runChecks } from '../core/formatRules';
import type { BlobAnswer, TraceBlobs } from '../viewer/blobResolver';
import type { ReportData } from './reportData';
import { renderReportHtml, ReportAssets } from './reportHtml';

/** What goes into a report. */
export interface ReportOptions {
  /** Most events embedded (the rest of the file is left out, and the note says so); default 50,000. */
  maxEvents?: number;
  /** Embeds the previews of the content blobs the events reference (bounded, as the viewer shows them). */
  blobs?: TraceBlobs;
  /** The exporting tool and version, for the note. */
  generator: string;
  /** The export time (tests pass a fixed one). */
  now?: Date;
}

export const DEFAULT_REPORT_MAX_EVENTS = 50_000;

/** Reads the built viewer, its styles and the report host from `distDir`. */
export function readReportAssets(distDir: string): ReportAssets {
  const text = (name: string) => readFileSync(join(distDir, name), 'utf8');
  return {
    webviewJs: text('webview.js'), webviewCss: text('webview.css'), codiconCss: text('codicon.css'),
    codiconTtf: readFileSync(join(distDir, 'codicon.ttf')), reportHostJs: text('reportHost.js'),
  };
}

/** The content to embed: all of it, or up to the end of the line of event `maxEvents` (events are in file order). */
async function embeddedContent(model: TraceModel, maxEvents: number): Promise<{ bytes: Buffer; leftOut: number }> {
  const t = model.events;
  const total = model.bytesIndexed;
  const cut = !model.document && t.size > maxEvents;
  let end = total;
  if (cut) {
    end = 0;
    for (let i = 0; i < maxEvents; i++) end = Math.max(end, t.get(i).offset + t.lengthOf(i));
  }
  const bytes = await readRange(tracePathToOpen(model), 0, end);
  if (!cut) return { bytes, leftOut: 0 };
  let kept = 0;
  for (let i = 0; i < t.size; i++) if (t.get(i).offset + t.lengthOf(i) <= end) kept++;
  return { bytes, leftOut: t.size - kept };
}

async function blobAnswers(model: TraceModel, blobs: TraceBlobs): Promise<Record<string, BlobAnswer>> {
  const out: Record<string, BlobAnswer> = {};
  for (const i of model.events.eventsWithHashRefs()) {
    for (const ref of model.events.hashRefsOf(i)) {
      if (!(ref.digest in out)) out[ref.digest] = await blobs.answer(model.path, model, ref.digest, ref.algorithm);
    }
  }
  return out;
}

function noteOf(model: TraceModel, options: ReportOptions, leftOut: number, maxEvents: number, blobCount: number): string {
  const parts = [
    `Report of ${basename(model.path)} (${model.format}, ${model.events.size} events), exported ${(options.now ?? new Date()).toISOString()} by ${options.generator}.`,
    'Verification and conformance results are as of that time.',
  ];
  if (leftOut > 0) parts.push(`The first ${model.events.size - leftOut} events are included; ${leftOut} later events are left out (--max-events ${maxEvents}).`);
  else if (model.document && model.events.size > maxEvents) parts.push(`The trace is one JSON document and is included whole (${model.events.size} events, more than --max-events ${maxEvents}).`);
  parts.push(options.blobs ? `${blobCount} content blobs are included (previews, as the viewer shows them).` : 'Content blobs are not included (--include-blobs adds them).');
  return parts.join(' ');
}

/**
 * Builds a self-contained HTML report of a loaded trace: the viewer's own page and logic with the trace's
 * content, the checks' results and (optionally) blob previews embedded, compressed. See reportHtml.ts for
 * what the page may do (nothing over the network, no script but its own).
 */
export async function buildReport(model: TraceModel, assets: ReportAssets, options: ReportOptions): Promise<{ html: string; leftOut: number }> {
  const maxEvents = options.maxEvents ?? DEFAULT_REPORT_MAX_EVENTS;
  const { bytes, leftOut } = await embeddedContent(model, maxEvents);
  const blobs = options.blobs ? await blobAnswers(model, options.blobs) : {};
  const data: ReportData = {
    version: 1,
    fileName: basename(model.path).replace(/\.gz$/i, ''),
    format: model.format,
    trace: bytes.toString('base64'),
    verify: await runChecks(model, 'verify'),
    check: await runChecks(model, 'check'),
    blobs,
    includeBlobs: options.blobs !== undefined,
    note: noteOf(model, options, leftOut, maxEvents, Object.keys(blobs).length),
  };
  const compressed = Buffer.from(zlibSync(strToU8(JSON.stringify(data)), { level: 9 })).toString('base64');
  return { html: renderReportHtml(assets, data, compressed, `Agent trace report: ${basename(model.path)}`), leftOut };
}

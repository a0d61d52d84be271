/**
 * The host of a report page: it plays the part VS Code plays for the viewer. It reads the embedded data
 * (reportData.ts), loads the trace with the core's own loader from memory, and answers the webview's
 * messages with the viewer's own session (src/viewer/viewerSession.ts), validated as in the editor. Actions
 * that need an editor (reveal in text, open a blob document, re-run checks) do nothing in a report.
 */
import './zodJitless';
import { unzlibSync } from 'fflate';
import { loadTrace } from '../core/loadTrace';
import { parseViewMessage } from '../protocol/validate';
import { ViewerSession } from '../viewer/viewerSession';
import type { HostMessage } from '../protocol';
import { setFileSystem } from '../core/io/fileSystem';
import { MemoryFileSystem } from '../core/io/memoryFileSystem';
import { setPlatform } from '../core/io/platform';
import { reportPlatform } from './platform/reportPlatform';
import { REPORT_DATA_ID, ReportData, reportTracePath } from './reportData';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const w = globalThis as any;

function decodeBase64(text: string): Uint8Array {
  const bin = w.atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function readData(): ReportData {
  const el = w.document.getElementById(REPORT_DATA_ID);
  const json = new TextDecoder().decode(unzlibSync(decodeBase64(el?.textContent ?? '')));
  return JSON.parse(json) as ReportData;
}

function notIncluded(digest: string) {
  return { digest, state: 'unresolved' as const, preview: null, bytes: null, message: 'Blob contents are not part of this report (export it with --include-blobs to include them).' };
}

/** Where an embedded blob's preview is kept in the page's memory file system. */
function embeddedBlobPath(digest: string): string {
  return `/report-blobs/${digest.replace(/[^0-9A-Za-z_-]/g, '_')}`;
}

/** The embedded blob previews (`--include-blobs`) as files, so Find searches them with the editor's blob search. */
function writeEmbeddedBlobs(files: MemoryFileSystem, data: ReportData): void {
  for (const [digest, answer] of Object.entries(data.blobs)) if (answer.preview != null) files.write(embeddedBlobPath(digest), answer.preview);
}

function startSession(data: ReportData): ViewerSession {
  let state: unknown = null;
  const session = new ViewerSession({
    // The webview listens for host messages on its window, as in VS Code.
    post: (m: HostMessage) => w.postMessage(m, '*'),
    revealInTextEditor: () => undefined,
    copy: (text) => void w.navigator.clipboard?.writeText(text).catch(() => undefined),
    openExternal: () => undefined,
    runChecks: () => undefined,
    openAsText: () => undefined,
    reload: () => undefined,
    openBlob: () => undefined,
    resolveBlob: async (digest) => data.blobs[digest] ?? notIncluded(digest),
    // Find reads the embedded blob previews as it reads blob files in the editor (writeEmbeddedBlobs).
    blobStore: async () => ({ locator: () => async (ref) => (data.blobs[ref.digest]?.preview != null ? embeddedBlobPath(ref.digest) : null) }),
  });
  w.acquireVsCodeApi = () => ({
    postMessage: (raw: unknown) => {
      const msg = parseViewMessage('viewer', raw);
      if (msg) void session.handle(msg);
    },
    getState: () => state,
    setState: (s: unknown) => (state = s),
  });
  return session;
}

async function main(): Promise<void> {
  // The core's seams: its platform (paths, hashing, no gzip, no workers) and files, here the trace in memory.
  setPlatform(reportPlatform);
  const data = readData();
  const session = startSession(data);
  const path = reportTracePath(data.fileName);
  const files = new MemoryFileSystem();
  files.write(path, decodeBase64(data.trace));
  writeEmbeddedBlobs(files, data);
  setFileSystem(files);
  const model = await loadTrace(path, { format: data.format });
  session.setModel(model);
  if (data.verify) session.setCheckResults('verify', data.verify);
  if (data.check) session.setCheckResults('check', data.check);
  w.__atvReportReady = true;
}

main().catch((err: unknown) => {
  w.__atvReportError = String(err);
  const el = w.document.getElementById('atv-report-note');
  if (el) el.textContent = `This report could not be read: ${String(err)}`;
});

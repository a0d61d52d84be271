/** What a viewer session needs from its surroundings (VS Code, or a test's stub), and the actions it passes on. */
import type { DigestAlgorithm } from '../core/model';
import type { CheckMode } from '../core/rules/types';
import type { BlobLocator } from '../core/find/findInBlobs';
import type { BlobContentMessage, HostMessage, ViewerLayout, WebviewMessage } from '../protocol';

/** What a session needs from its surroundings (VS Code, or a test's stub). */
export interface SessionHost {
  post(msg: HostMessage): void;
  /** Opens the trace (or `path`, a file of its session: a subagent's transcript) in the text editor at a line. */
  revealInTextEditor(line: number, path?: string): void;
  copy(text: string): void;
  openExternal(url: string): void;
  runChecks(mode: CheckMode): void;
  openAsText(): void;
  reload(ignoreSizeLimit: boolean): void;
  openBlob(digest: string, algorithm: DigestAlgorithm): void;
  /** Opens another trace file in the viewer (a file of the session: a subagent's transcript); absent where it cannot. */
  openTrace?(path: string): void;
  /** Pane sizes remembered for the workspace (VS Code's workspaceState); absent: only the webview state keeps them. */
  layout?: { get(): ViewerLayout | null; set(layout: ViewerLayout): void };
  /** The trace's blob store, for find in blob text; absent where blobs are not available. */
  blobStore?(): Promise<BlobLocator | null>;
  /** Resolves a content blob (the blob resolver's job); absent until it exists. */
  resolveBlob?(digest: string, algorithm: DigestAlgorithm): Promise<Omit<BlobContentMessage, 'type' | 'requestId'>>;
  /** The selected event changed (the status bar shows its line). */
  selectionChanged?(): void;
}

/** Tunables. */
export interface SessionOptions {
  /** Traces with at most this many events open fully expanded; larger ones show their roots' children. */
  expandAllMaxEvents: number;
  /** Models with more events than this get their header's totals after their first rows (default 100,000). */
  countTotalsAfterRowsAbove?: number;
}

/** Webview requests that only the host can carry out. */
export type HostAction = Extract<WebviewMessage, { type: 'copy' | 'openExternal' | 'runChecks' | 'openBlob' | 'reload' | 'openAsText' }>;

/** Hands a webview request to the host. */
export function forwardToHost(host: SessionHost, msg: HostAction): void {
  switch (msg.type) {
    case 'copy':
      return host.copy(msg.text);
    case 'openExternal':
      return host.openExternal(msg.url);
    case 'runChecks':
      return host.runChecks(msg.mode);
    case 'openBlob':
      return host.openBlob(msg.digest, msg.algorithm);
    case 'reload':
      return host.reload(msg.ignoreSizeLimit === true);
    case 'openAsText':
      return host.openAsText();
    default:
      return assertNever(msg);
  }
}

/** Fails to compile when a switch over a message union misses a case. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message ${JSON.stringify(x)}`);
}

/** The webview side of the host connection: typed posting and persisted state. */
import type { PersistedViewState, WebviewMessage } from '../src/protocol';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

/** Sends a message to the extension host. */
export function post(msg: WebviewMessage): void {
  api.postMessage(msg);
}

/** The state saved before the webview was hidden or the window closed, if any. */
export function loadState(): PersistedViewState | null {
  const s = api.getState();
  return typeof s === 'object' && s !== null && 'detailTab' in s ? (s as PersistedViewState) : null;
}

/** Saves the view state (VS Code keeps it across hide/show and restarts). */
export function saveState(state: PersistedViewState): void {
  api.setState(state);
}

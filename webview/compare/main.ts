// The compare view's webview entry: its own bundle (dist/compare.js), reusing the viewer's DOM helpers and styles.
import type { CompareHostMessage, CompareViewMessage } from '../../src/protocol/compare';
import { el } from '../dom';
import { CompareView } from './compareView';

interface VsCodeApi {
  postMessage(msg: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Never a blank panel: an unexpected script error is shown as text at the top. */
function showCrash(message: string): void {
  document.body.prepend(el('div', { class: 'banner banner-unreadable crash', attrs: { role: 'alert' } }, el('span', { text: `The compare view hit an error: ${message}.` })));
}

window.addEventListener('error', (e) => showCrash(e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(String(e.reason)));

const api = acquireVsCodeApi();
const root = document.getElementById('app');
if (root) {
  root.classList.add('compare-app');
  const post = (m: CompareViewMessage): void => api.postMessage(m);
  const view = new CompareView(root, post);
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as CompareHostMessage;
    if (m && typeof m === 'object' && typeof m.type === 'string' && m.type.startsWith('compare')) view.receive(m);
  });
  post({ type: 'compareReady' });
}

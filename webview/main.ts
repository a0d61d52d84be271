// The viewer's webview entry: registers the @vscode-elements it uses and starts the app.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-multi-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import { App } from './app';
import { el } from './dom';

/** Never a blank panel: an unexpected script error is shown as text at the top. */
function showCrash(message: string): void {
  const box = el('div', { class: 'banner banner-unreadable crash', attrs: { role: 'alert' } }, el('span', { text: `The viewer hit an error: ${message}. Reopen the file or use Open as Text.` }));
  document.body.prepend(box);
}

window.addEventListener('error', (e) => showCrash(e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(String(e.reason)));

const root = document.getElementById('app');
if (root) {
  try {
    new App(root);
  } catch (err) {
    showCrash(err instanceof Error ? err.message : String(err));
  }
}

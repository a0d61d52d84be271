import * as vscode from 'vscode';
import { PageIdentity, renderViewerHtml } from '../viewer/webviewHtml';

/**
 * The HTML of a webview that runs one of the extension's bundles (`dist/<bundle>.js` with `dist/<bundle>.css` and the
 * codicons): the viewer, the compare panel, the usage panel. `dist` must be among the webview's local resource roots.
 */
export function bundlePageHtml(webview: vscode.Webview, dist: vscode.Uri, bundle: string, page?: PageIdentity): string {
  const uri = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(dist, name)).toString();
  return renderViewerHtml({ cspSource: webview.cspSource, scriptUri: uri(`${bundle}.js`), styleUri: uri(`${bundle}.css`), codiconUri: uri('codicon.css') }, page);
}

/**
 * The viewer's HTML page: a strict Content Security Policy (scripts only with this page's nonce, styles
 * and fonts only from the extension's own files), the codicon and viewer stylesheets, and the bundle.
 * vscode-free, so the webview tests load the very same page.
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../core/escapes';

/** Where the page's resources are, as webview URIs (or test server URLs). */
export interface ViewerPageResources {
  /** `webview.cspSource`: the origin allowed for styles, fonts and images. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  nonce?: string;
}

/** A fresh nonce for one page. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

/** The sources a page may load each kind of resource from; everything else is denied. */
export interface PageSources {
  img: string;
  font: string;
  style: string;
  script: string;
}

/**
 * The Content Security Policy of the viewer's pages (the webview and the shared report): nothing by
 * default, no connections, frames, forms or base URL, and only the given image, font, style and script
 * sources.
 */
export function contentSecurityPolicy(p: PageSources): string {
  return [
    "default-src 'none'",
    `img-src ${p.img}`,
    `font-src ${p.font}`,
    `style-src ${p.style}`,
    `script-src ${p.script}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** A page other than the viewer's (the usage view): its title, and its root's role and label (a document, not an application). */
export interface PageIdentity {
  title: string;
  label: string;
  role: 'main' | 'application';
}

const VIEWER_PAGE: PageIdentity = { title: 'Agent Trace Viewer', label: 'Agent trace', role: 'application' };

/** The page; every interpolated value is an attribute-escaped URI, the nonce or the page's escaped names. */
export function renderViewerHtml(r: ViewerPageResources, page: PageIdentity = VIEWER_PAGE): string {
  const nonce = r.nonce ?? makeNonce();
  const csp = contentSecurityPolicy({
    img: `${r.cspSource} data:`,
    font: r.cspSource,
    style: `${r.cspSource} 'nonce-${nonce}'`,
    script: `'nonce-${nonce}'`,
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeHtml(r.codiconUri)}" nonce="${nonce}">
<link rel="stylesheet" href="${escapeHtml(r.styleUri)}" nonce="${nonce}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<div id="app" role="${page.role}" aria-label="${escapeHtml(page.label)}"></div>
<script nonce="${nonce}" src="${escapeHtml(r.scriptUri)}"></script>
</body>
</html>`;
}

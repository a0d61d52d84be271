import { Buffer } from 'buffer';
import { createHash } from 'node:crypto';
import type { ReportData } from './reportData';
import { REPORT_DATA_ID } from './reportData';
import { DARK } from '../viewer/webviewThemes';
import { contentSecurityPolicy } from '../viewer/webviewHtml';
import { escapeHtml } from '../core/escapes';

/** The built files a report is made of (dist/ of this package). */
export interface ReportAssets {
  webviewJs: string;
  webviewCss: string;
  codiconCss: string;
  codiconTtf: Buffer;
  reportHostJs: string;
}

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/**
 * A `<script>`/`<style>` body must not hold its own end tag; built bundles escape it, this makes sure. A dev build's
 * source map comment goes: the page has no file beside it to map to.
 */
function inlineSafe(code: string): string {
  return code.replace(/\n?(\/\/# sourceMappingURL=\S*|\/\*# sourceMappingURL=\S* \*\/)\s*$/, '').replace(/<\/(script|style)/gi, '<\\/$1');
}

const FONT_FACE = /@font-face\s*\{[^}]*\}/g;

function themeCss(): string {
  const vars = (theme: Record<string, string>) => Object.entries(theme).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ');
  // One theme (Dark Modern): the body's theme class and the variables must agree, and a report has no editor theme to follow.
  return `:root { ${vars(DARK)} }\n` +
    'html, body { height: 100%; margin: 0; } body { display: flex; flex-direction: column; background: var(--vscode-editor-background); color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }\n' +
    '#atv-report-note { padding: 4px 10px; border-bottom: 1px solid var(--vscode-panel-border); color: var(--vscode-descriptionForeground); white-space: pre-wrap; }\n' +
    '#app { flex: 1; min-height: 0; position: relative; }';
}

/**
 * The report page: one file, no network. Scripts and styles are inline and allowed by their SHA-256 hashes
 * only (so nothing else can run, whatever the trace holds), fonts and images only as data: URLs, and no
 * connections, frames, forms or base URL. The data travels compressed in a non-executable `<script>` block;
 * the note (export date, tool, what was left out) is text.
 */
export function renderReportHtml(assets: ReportAssets, data: ReportData, compressedData: string, title: string): string {
  // The codicon font face, with the font as a data: URL; its classes come once, from the stylesheet link below.
  const fontFace = (assets.codiconCss.match(FONT_FACE) ?? []).join('\n').replace(/url\("?\.\/codicon\.ttf[^")]*"?\)/g, `url("data:font/ttf;base64,${assets.codiconTtf.toString('base64')}")`);
  const styles = [themeCss(), inlineSafe(fontFace), inlineSafe(assets.webviewCss)];
  const scripts = [inlineSafe(assets.reportHostJs), inlineSafe(assets.webviewJs)];
  const hashes = (parts: string[]) => parts.map((p) => `'sha256-${sha256Base64(p)}'`).join(' ');
  // The toolbar's icons draw inside their elements' shadow roots, which take the codicon classes from the
  // stylesheet *link* with id vscode-codicon-stylesheet (an inline <style> is not seen there: every button was
  // blank). The link is a data: URL of the classes only, which serves the page's own elements too; the font face
  // stays in the page's own style, where a shadow root's text finds it. `data:` styles can hold CSS only, never script. 'wasm-unsafe-eval' lets Find compile
  // its own few dozen bytes of SIMD scan (core/find/pairScan.ts); it allows no JavaScript eval.
  const iconClasses = `data:text/css;base64,${Buffer.from(assets.codiconCss.replace(FONT_FACE, ''), 'utf8').toString('base64')}`;
  const csp = contentSecurityPolicy({ img: 'data:', font: 'data:', style: `${hashes(styles)} data:`, script: `${hashes(scripts)} 'wasm-unsafe-eval'` });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
${styles.map((s) => `<style>${s}</style>`).join('\n')}
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeHtml(iconClasses)}">
</head>
<body class="vscode-dark atv-report">
<div id="atv-report-note" role="note">${escapeHtml(data.note)}</div>
<div id="app" role="application" aria-label="Agent trace"></div>
<script type="application/octet-stream" id="${REPORT_DATA_ID}">${compressedData}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

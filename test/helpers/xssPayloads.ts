import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Shared by the viewer's XSS suite (test/webview/xss.test.ts) and the exports' (Markdown, HTML report).

/** Markup, script, event handlers, URL schemes, CSS, template and prototype tricks, bidi and ANSI. */
export const PAYLOADS = [
  `<script>window.__pwned='script'</script>`,
  `<img src=x onerror="window.__pwned='img'">`,
  `"><img src=x onerror=window.__pwned='attr'>`,
  `' onmouseover='window.__pwned="quote"' x='`,
  `<svg onload="window.__pwned='svg'"><script>window.__pwned='svg-script'</script></svg>`,
  `<svg><a xlink:href="javascript:window.__pwned='svg-link'"><text>x</text></a></svg>`,
  `<math><mi xlink:href="javascript:window.__pwned='math'">x</mi></math>`,
  `javascript:window.__pwned='scheme'`,
  `JaVaScRiPt:window.__pwned='scheme-case'`,
  `<a href="javascript:window.__pwned='href'">click</a>`,
  `[md link](javascript:window.__pwned='md')`,
  `[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
  `![external image](https://evil.example/track.png)`,
  `![broken](x" onerror="window.__pwned='md-image')`,
  `<iframe src="https://evil.example/frame"></iframe>`,
  `<object data="javascript:window.__pwned='object'"></object><embed src="https://evil.example/e">`,
  `<link rel=stylesheet href="https://evil.example/s.css">`,
  `<meta http-equiv="refresh" content="0;url=https://evil.example/">`,
  `<base href="https://evil.example/">`,
  `<style>body{background:url(https://evil.example/css)}*{display:none}</style>`,
  `red;background-image:url("https://evil.example/inline-css")`,
  `expression(window.__pwned='expr')`,
  `<details open ontoggle="window.__pwned='toggle'">x</details>`,
  `<input autofocus onfocus="window.__pwned='focus'">`,
  `<video><source onerror="window.__pwned='video'"></video>`,
  `<form action="https://evil.example/"><button>go</button></form>`,
  `</pre></div></code><script>window.__pwned='breakout'</script>`,
  `<!-- --><script>window.__pwned='comment'</script>`,
  `{{constructor.constructor('window.__pwned="template"')()}}`,
  '${window.__pwned="tpl"}',
  `<template><img src=x onerror="window.__pwned='template-tag'"></template>`,
  `<noscript><p title="</noscript><img src=x onerror=window.__pwned='noscript'>">`,
  '\u202einvoice_fdp.exe',
  'abc\u2066RTL\u2069def \u200fmark\u200e \u061carabic \u202a\u202b\u202c\u202d',
  '\u001b[31mred\u001b[0m \u001b]0;title\u0007 \u001b[2J \u009b31m',
  'nul\u0000byte and \u007f del',
];

export function hostileTrace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xss-'));
  mkdirSync(join(dir, 'blobs'));
  const lines: unknown[] = [{ type: 'session_start', id: 'root', name: 'XSS suite', timestamp: '2026-02-01T10:00:00Z' }];
  PAYLOADS.forEach((p, i) => {
    const blob = i % 2 === 0 ? p : JSON.stringify({ role: 'user', content: p, [p]: p });
    const digest = createHash('sha256').update(blob).digest('hex');
    writeFileSync(join(dir, 'blobs', digest), blob);
    lines.push({ type: 'note', id: p, parent_id: 'root', text: p });
    lines.push({
      type: i % 3 === 0 ? p : 'tool_call', id: `p${i}`, parent_id: i % 4 === 0 ? `missing ${p}` : p, name: p, timestamp: '2026-02-01T10:00:01Z',
      message: { role: 'user', content: [{ type: 'text', text: p }, { type: 'tool_use', id: `c${i}`, name: p, input: { html: p } }] },
      output: p, error: p, url: p, prompt_sha256: digest, [p]: 'value under a hostile key',
    });
  });
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

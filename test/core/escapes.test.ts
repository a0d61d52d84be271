import { strict as assert } from 'node:assert';
import { asciiEscaped, escapeHtml, jsonEscaped } from '../../src/core/escapes';
import { renderReportHtml } from '../../src/report/reportHtml';
import { detailsBlock } from '../../src/report/markdown/markdownText';
import { renderViewerHtml } from '../../src/viewer/webviewHtml';

describe('escapes: one implementation each', () => {
  it('escapes the five HTML-significant characters, and nothing else', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a> é\u2028`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt; é\u2028');
    assert.equal(escapeHtml(''), '');
  });

  it('writes a text as it stands inside a JSON string literal, and as an ASCII-only writer writes it', () => {
    assert.equal(jsonEscaped('a "q"\\\n\u0001é'), 'a \\"q\\"\\\\\\n\\u0001é');
    assert.equal(asciiEscaped('café "q"'), 'caf\\u00e9 \\"q\\"');
    assert.equal(asciiEscaped('é'), '\\u00e9');
    assert.equal(asciiEscaped('😀'), '\\ud83d\\ude00', 'a surrogate pair as two escapes, as json.dumps writes it');
  });

  it('is what the report page, the webview page and a Markdown summary escape with', () => {
    const hostile = `</summary><script>alert('x')</script>&`;
    assert.ok(detailsBlock(hostile, 'body').includes(`<summary>${escapeHtml(hostile)}</summary>`));
    const uri = `https://res.example/a"b'<c>&.js`;
    const page = renderViewerHtml({ cspSource: 'https://res.example', scriptUri: uri, styleUri: uri, codiconUri: uri, nonce: 'n' });
    assert.ok(page.includes(`<script nonce="n" src="${escapeHtml(uri)}"></script>`));
    assert.ok(!page.includes(uri));
    const assets = { webviewJs: '', webviewCss: '', codiconCss: '', codiconTtf: Buffer.alloc(0), reportHostJs: '' };
    const report = renderReportHtml(assets, { note: hostile } as Parameters<typeof renderReportHtml>[1], '', hostile);
    assert.ok(report.includes(`<title>${escapeHtml(hostile)}</title>`));
    assert.ok(report.includes(`role="note">${escapeHtml(hostile)}</div>`));
  });
});

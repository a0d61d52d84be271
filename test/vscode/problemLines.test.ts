import { strict as assert } from 'node:assert';
import { Diagnostic, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { loadTrace } from '../../src/core/loadTrace';
import { runChecks } from '../../src/core/formatRules';
import { tempFile } from '../helpers/tmp';

// The shared fake provides the diagnostics API (Diagnostic, createDiagnosticCollection) and Uri.with.
installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { TraceProblems } = require('../../src/vscode/commands/problems') as typeof import('../../src/vscode/commands/problems');
const { lineLengths } = require('../../src/vscode/traceModels') as typeof import('../../src/vscode/traceModels');

describe('Problems markers land on the line VS Code shows (issue 19 item 9)', () => {
  it('after lone CRs, each diagnostic is on the editor line that holds its event, with that line\'s length', async () => {
    const text = '{"id":"a"}\r{"id":"b","parent_id":"zz"}\r\n{"id":"c","parent_id":"b"}\r{not json\n{"id":"d","parent_id":"yy"}\n';
    const path = tempFile('lone-cr.jsonl', text);
    const model = await loadTrace(path, { format: 'generic' });
    const result = await runChecks(model, 'verify');
    const problems = new TraceProblems(Uri.file('/ext') as unknown as import('vscode').Uri);
    const uri = Uri.file(path) as unknown as import('vscode').Uri;
    problems.set(uri, 'verify', result, lineLengths(model));
    // VS Code's own line split: LF, CRLF and a lone CR each end a line.
    const editorLines = text.split(/\r\n|\r|\n/);
    const shown = problems.get(uri).map((d) => {
      const r = (d as unknown as Diagnostic).range;
      return { line: r.startLine, width: r.endChar, text: editorLines[r.startLine], message: d.message };
    });
    const at = (needle: string) => shown.find((s) => s.message.includes(needle))!;
    assert.equal(at('Parent zz').text, '{"id":"b","parent_id":"zz"}');
    assert.equal(at('Parent yy').text, '{"id":"d","parent_id":"yy"}');
    assert.equal(at('not valid JSON').text, '{not json');
    for (const s of shown) assert.equal(s.width, Math.max(1, s.text.length), `${s.message}: range covers the line`);
    assert.deepEqual(shown.filter((s) => s.message.includes('carriage return')).map((s) => s.line), [0, 2]);
  });
});

// The Outline of a trace opened as text (issue 40): symbols from the loaded model, named as the viewer's tree,
// at their lines, from one read.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { installFakeVscode, Uri } from '../helpers/fakeVscode';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { outlineProvider } = require('../../src/vscode/language/outline') as typeof import('../../src/vscode/language/outline');
const { TraceModels } = require('../../src/vscode/traceModels') as typeof import('../../src/vscode/traceModels');
const { loadTrace } = require('../../src/core/loadTrace') as typeof import('../../src/core/loadTrace');

const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');

interface Sym {
  name: string;
  detail: string;
  range: { startLine: number; endLine: number };
  selectionRange: { startLine: number };
  children: Sym[];
}

function textDocument(file: string) {
  const lines = readFileSync(file, 'utf8').split('\n');
  return { uri: Uri.file(file), lineCount: lines.length, lineAt: (i: number) => ({ text: lines[i] }) };
}

describe('Outline of a trace opened as text', () => {
  it('a Claude Code transcript: every event of the tree as a symbol at its line, nested and named as the tree, from one read', async () => {
    let reads = 0;
    const models = new TraceModels({ loadedModel: async () => undefined } as never, (p, o) => (reads++, loadTrace(p, o)));
    const provider = outlineProvider(models);
    const doc = textDocument(CLAUDE);
    const symbols = (await provider.provideDocumentSymbols(doc as never, {} as never)) as unknown as Sym[];
    const model = await loadTrace(CLAUDE);
    const flat: Sym[] = [];
    const walk = (s: Sym, parentEnd: number) => {
      flat.push(s);
      assert.ok(s.range.endLine <= parentEnd, `${s.name} sits inside its parent`);
      for (const c of s.children) walk(c, s.range.endLine);
    };
    for (const s of symbols) walk(s, Infinity);
    assert.equal(flat.length, model.events.size, 'every event is a symbol');
    for (let i = 0; i < model.events.size; i++) {
      const sym = flat.find((s) => s.selectionRange.startLine === model.events.lineOf(i) - 1 && s.detail === model.events.kindOf(i));
      assert.ok(sym, `event ${i} on line ${model.events.lineOf(i)}`);
      assert.equal(sym.name, model.events.labelOf(i).replace(/\s+/g, ' ').slice(0, 200) || model.events.kindOf(i));
    }
    assert.ok(symbols.some((s) => s.children.length > 0), 'turns hold their steps');
    await provider.provideDocumentSymbols(doc as never, {} as never);
    assert.equal(reads, 1, 'the second outline reuses the model');
  });

  it('a file that is not a trace gets no symbols and no error', async () => {
    const models = new TraceModels({ loadedModel: async () => undefined } as never);
    const symbols = await outlineProvider(models).provideDocumentSymbols(textDocument(resolve('package.json')) as never, {} as never);
    assert.deepEqual(symbols, []);
  });
});

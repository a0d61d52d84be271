/**
 * The Outline (and breadcrumbs) of a trace opened as text: `src/viewer/outline.ts` over the model the open viewer
 * holds or the model cache read once (TraceModels), so the text's Outline costs no second read. VS Code's Outline
 * view and breadcrumbs follow text editors only: a custom editor cannot give them symbols, so the viewer has none
 * (its own tree, breadcrumbs in the detail pane and Go to Event do that job).
 */
import * as vscode from 'vscode';
import type { EventCategory } from '../../core/model';
import { OutlineSymbol, outlineOf } from '../../viewer/outline';
import { TraceModels } from '../traceModels';
import { TRACE_SELECTOR } from './idProviders';

const KIND: Record<EventCategory, vscode.SymbolKind> = {
  session: vscode.SymbolKind.Module,
  run: vscode.SymbolKind.Module,
  task: vscode.SymbolKind.Namespace,
  turn: vscode.SymbolKind.Namespace,
  inference: vscode.SymbolKind.Method,
  tool: vscode.SymbolKind.Function,
  approval: vscode.SymbolKind.Event,
  policy: vscode.SymbolKind.Event,
  message: vscode.SymbolKind.String,
  span: vscode.SymbolKind.Object,
  error: vscode.SymbolKind.Event,
  other: vscode.SymbolKind.Field,
};

/** The symbol provider; see the file comment. */
export function outlineProvider(models: TraceModels): vscode.DocumentSymbolProvider {
  return {
    async provideDocumentSymbols(doc) {
      const model = await models.get(doc.uri).catch(() => undefined);
      if (!model || model.document) return [];
      const toSymbol = (s: OutlineSymbol): vscode.DocumentSymbol | null => {
        if (s.line > doc.lineCount) return null;
        const last = Math.min(doc.lineCount, s.endLine) - 1;
        const range = new vscode.Range(s.firstLine - 1, 0, last, doc.lineAt(last).text.length);
        const sel = new vscode.Range(s.line - 1, 0, s.line - 1, doc.lineAt(s.line - 1).text.length);
        const sym = new vscode.DocumentSymbol(s.name.replace(/\s+/g, ' ').slice(0, 200), s.detail, KIND[s.category], range, sel);
        sym.children = s.children.map(toSymbol).filter((c): c is vscode.DocumentSymbol => c !== null);
        return sym;
      };
      return outlineOf(model).map(toSymbol).filter((c): c is vscode.DocumentSymbol => c !== null);
    },
  };
}

/** Registers the Outline of trace files opened as text. */
export function registerOutline(context: vscode.ExtensionContext, models: TraceModels): void {
  context.subscriptions.push(vscode.languages.registerDocumentSymbolProvider(TRACE_SELECTOR, outlineProvider(models), { label: 'Agent Trace' }));
}

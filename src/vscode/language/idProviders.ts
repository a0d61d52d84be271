import * as vscode from 'vscode';
import { isIdKey, stringTokenAt } from '../../core/navigation';
import { COMMANDS } from '../commandIds';
import { TraceModels } from '../traceModels';
import { eventCardMarkdown } from '../../viewer/hoverCard';
import { idMentionColumns } from './mentionColumns';

/** Trace files the text-editor features apply to; other JSON files cost nothing. */
export const TRACE_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.jsonl' },
  { scheme: 'file', pattern: '**/*.ndjson' },
];

/** VS Code hands extensions no document over 50 MB; we also skip files above this in hovers. */
const MAX_BYTES = 50 * 1024 * 1024;

async function resolveToken(models: TraceModels, doc: vscode.TextDocument, pos: vscode.Position) {
  const token = stringTokenAt(doc.lineAt(pos.line).text, pos.character);
  if (!token || token.value.length === 0 || token.value.length > 512) return undefined;
  const stat = await vscode.workspace.fs.stat(doc.uri);
  if (stat.size > MAX_BYTES) return undefined;
  const { model, lookup } = await models.lookup(doc.uri);
  const found = lookup.find(token.value);
  const range = new vscode.Range(pos.line, token.start, pos.line, token.end);
  return { token, model, found, range };
}

function location(doc: vscode.TextDocument, line: number): vscode.Location {
  return new vscode.Location(doc.uri, new vscode.Position(Math.max(0, line - 1), 0));
}

/** Where a line mentions `id` (see idMentionColumns), else the line's start. */
function mentionLocation(doc: vscode.TextDocument, line: number, id: string): vscode.Location {
  if (line < 1 || line > doc.lineCount) return location(doc, line);
  const cols = idMentionColumns(doc.lineAt(line - 1).text, id);
  return cols ? new vscode.Location(doc.uri, new vscode.Range(line - 1, cols.start, line - 1, cols.end)) : location(doc, line);
}

/** Hover on an id: the event it names (or "not in this trace" for id fields). */
export function hoverProvider(models: TraceModels): vscode.HoverProvider {
  return {
    async provideHover(doc, pos) {
      const r = await resolveToken(models, doc, pos);
      if (!r) return undefined;
      const md = new vscode.MarkdownString(undefined, false);
      md.isTrusted = false;
      md.supportHtml = false;
      if (r.found) {
        const def = r.found.definition;
        const line = r.model.events.lineOf(def);
        if (line === pos.line + 1 && r.found.references.length === 1) return undefined; // the event's own id, mentioned nowhere else
        md.appendMarkdown(eventCardMarkdown(r.model, def, r.token.value));
        // The other events, as the viewer's hover card counts them (the event itself is among the references).
        const others = r.found.references.filter((i) => i !== def).length;
        if (others > 0) md.appendMarkdown(`\n\nMentioned by ${others} other event${others === 1 ? '' : 's'}`);
      } else if (isIdKey(r.token.key)) md.appendMarkdown(`\`${r.token.value.replace(/`/g, "'")}\`: not in this trace`);
      else return undefined;
      return new vscode.Hover(md, r.range);
    },
  };
}

/**
 * The last definition answered, so that when VS Code shows it in the trace viewer (the default editor of
 * trace files: Ctrl+click in their text view opens the viewer) the viewer can reveal that event.
 */
let lastDefinition: { uri: string; line: number; at: number } | undefined;

/** The line of a definition answered for `uri` in the last two seconds, taken once. */
export function takeRecentDefinition(uri: vscode.Uri): number | undefined {
  const d = lastDefinition;
  lastDefinition = undefined;
  return d && d.uri === uri.toString() && Date.now() - d.at < 2000 ? d.line : undefined;
}

/** F12 / Ctrl+click: the line of the event that defines the id. */
export function definitionProvider(models: TraceModels): vscode.DefinitionProvider {
  return {
    async provideDefinition(doc, pos) {
      const r = await resolveToken(models, doc, pos);
      // An event of a subagent's file read with the session (TraceModel.parts) is on no line of this document.
      if (!r?.found || r.model.events.partOf(r.found.definition) !== 0) return undefined;
      const line = r.model.events.lineOf(r.found.definition);
      lastDefinition = { uri: doc.uri.toString(), line, at: Date.now() };
      return location(doc, line);
    },
  };
}

/** Find All References: every event that mentions the id. */
export function referenceProvider(models: TraceModels): vscode.ReferenceProvider {
  return {
    async provideReferences(doc, pos) {
      const r = await resolveToken(models, doc, pos);
      if (!r?.found) return undefined;
      return r.found.references.filter((i) => r.model.events.partOf(i) === 0).map((i) => mentionLocation(doc, r.model.events.lineOf(i), r.token.value));
    },
  };
}

/** Registers hover, definition and references for trace files. */
export function registerIdProviders(context: vscode.ExtensionContext, models: TraceModels): void {
  context.subscriptions.push(
    vscode.languages.registerHoverProvider(TRACE_SELECTOR, hoverProvider(models)),
    vscode.languages.registerDefinitionProvider(TRACE_SELECTOR, definitionProvider(models)),
    vscode.languages.registerReferenceProvider(TRACE_SELECTOR, referenceProvider(models)),
  );
}

/**
 * F12 in a trace opened as text. VS Code opens a definition with the file's default editor, which for
 * trace.jsonl and friends is the trace viewer, so the built-in command would leave the text view; this one
 * moves the cursor in the text editor itself and falls back to the built-in command for anything else.
 */
export function registerTextGoToDefinition(context: vscode.ExtensionContext, models: TraceModels): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.goToDefinitionInText, async () => {
      const ed = vscode.window.activeTextEditor;
      if (!ed) return;
      const r = await resolveToken(models, ed.document, ed.selection.active).catch(() => undefined);
      if (!r?.found || r.model.events.partOf(r.found.definition) !== 0) {
        await vscode.commands.executeCommand('editor.action.revealDefinition');
        return;
      }
      const line = Math.max(0, r.model.events.lineOf(r.found.definition) - 1);
      const pos = new vscode.Position(line, 0);
      ed.selection = new vscode.Selection(pos, pos);
      ed.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }),
  );
}

/**
 * Tool calls and results in the transcript, read as what they are: an edit as a unified diff, a patch as its
 * text, a shell call as its command with exit code, stdout and stderr panes, anything else as a form whose code
 * strings keep their newlines and are highlighted. Long outputs are folded with their size and "Show all".
 * Trace text only ever becomes text nodes (dom.ts, highlight.ts).
 */
import type { ChatPart, ShellOutcome, ToolCallView, ToolField } from '../../src/protocol';
import { el, icon, stripAnsi } from '../dom';
import { formatBytes, formatInt } from '../format';
import { JsonTreeHost, renderJsonTree } from '../jsonTree';
import { codeBlock } from './highlight';

/** Lines of an output shown before "Show all". */
export const FOLD_LINES = 20;
/** Characters of an output shown before "Show all" (a single long line folds too). */
const FOLD_CHARS = 4000;

type ToolCall = Extract<ChatPart, { type: 'toolCall' }>;
type ToolResult = Extract<ChatPart, { type: 'toolResult' }>;

/** A tool call: its name and id, then its view. */
export function toolCallElement(p: ToolCall, host: JsonTreeHost): HTMLElement {
  const view: ToolCallView = p.view ?? { kind: 'form', fields: [{ name: 'arguments', text: typeof p.args === 'string' ? p.args : null, value: p.args, language: null }] };
  const box = el('div', { class: `part-tool-call tool-view-${view.kind}`, attrs: { 'data-tool': p.name } }, el('div', { class: 'part-title' }, icon(view.kind === 'shell' ? 'terminal' : view.kind === 'form' ? 'tools' : 'diff'), el('span', { class: 'tool-name', text: p.name }), p.id ? el('span', { class: 'tool-id', text: p.id }) : null));
  switch (view.kind) {
    case 'edit':
      box.append(el('div', { class: 'tool-file', text: view.file }), diffBlock(view.patch));
      break;
    case 'patch':
      box.appendChild(diffBlock(view.patch));
      break;
    case 'shell':
      box.appendChild(el('div', { class: 'shell-command' }, el('span', { class: 'shell-prompt', text: '$', attrs: { 'aria-hidden': 'true' } }), codeBlock(view.command, 'bash')));
      if (view.cwd) box.appendChild(el('div', { class: 'shell-cwd', text: `in ${view.cwd}` }));
      break;
    case 'form':
      box.appendChild(form(view.fields, host));
      break;
  }
  return box;
}

/** A unified diff, each line a text node in a span coloured by its first character. */
function diffBlock(patch: string): HTMLElement {
  const code = el('code', { class: 'code' });
  for (const line of stripAnsi(patch).split('\n')) {
    const cls = line.startsWith('+++') || line.startsWith('---') || line.startsWith('***') ? 'tx-diff-file' : line.startsWith('@@') ? 'tx-diff-hunk' : line.startsWith('+') ? 'tx-diff-add' : line.startsWith('-') ? 'tx-diff-del' : line.startsWith('=') ? 'tx-diff-file' : 'tx-diff-ctx';
    code.appendChild(el('span', { class: `tx-diff-line ${cls}`, text: `${line}\n` }));
  }
  return el('pre', { class: 'code-block tx-diff-block', attrs: { 'aria-label': 'Unified diff' } }, code);
}

function form(fields: ToolField[], host: JsonTreeHost): HTMLElement {
  const dl = el('dl', { class: 'tool-form' });
  for (const f of fields) {
    dl.appendChild(el('dt', { text: f.name }));
    const dd = el('dd');
    if (f.text !== null) dd.appendChild(f.language ? fold(f.text, (t) => codeBlock(stripAnsi(t), f.language)) : el('span', { class: 'tool-string', text: stripAnsi(f.text) }));
    else dd.appendChild(typeof f.value === 'object' && f.value !== null ? renderJsonTree(f.value, host) : el('code', { text: JSON.stringify(f.value) ?? 'null' }));
    dl.appendChild(dd);
  }
  return dl;
}

/** A tool result: its call's name, a shell outcome's panes, or its text (folded) or value. */
export function toolResultElement(p: ToolResult, host: JsonTreeHost): HTMLElement {
  const title = p.toolName ? `${p.isError ? 'Error from' : 'Result of'} ${p.toolName}` : p.isError ? 'Tool error' : 'Tool result';
  const box = el('div', { class: `part-tool-result${p.isError ? ' is-error' : ''}` }, el('div', { class: 'part-title' }, icon(p.isError ? 'error' : 'output'), el('span', { text: title }), p.id ? el('span', { class: 'tool-id', text: p.id }) : null));
  if (p.shell) box.appendChild(shellPanes(p.shell));
  else if (p.text !== null) box.appendChild(fold(p.text, (t) => el('pre', { class: 'plain-text', text: stripAnsi(t) })));
  else if (p.value !== undefined) box.appendChild(renderJsonTree(p.value, host));
  else box.appendChild(el('p', { class: 'empty-note', text: 'No output.' }));
  return box;
}

function shellPanes(s: ShellOutcome): HTMLElement {
  const failed = s.exitCode !== null && s.exitCode !== 0;
  const exit = el('div', { class: `shell-exit${failed ? ' failed' : ''}` }, icon(failed ? 'error' : s.exitCode === 0 ? 'pass' : 'question'), ` exit code ${s.exitCode ?? 'unknown'}`);
  const pane = (name: string, text: string, cls: string) => el('section', { class: `shell-pane ${cls}`, attrs: { 'aria-label': name } }, el('h4', { class: 'shell-pane-title', text: name }), text.length > 0 ? fold(text, (t) => el('pre', { class: 'plain-text', text: stripAnsi(t) })) : el('p', { class: 'empty-note', text: 'empty' }));
  const out = el('div', { class: 'shell-outcome' }, exit);
  if (s.combined) out.appendChild(pane('stdout + stderr', s.stderr, 'shell-stderr'));
  else out.append(pane('stdout', s.stdout, 'shell-stdout'), pane('stderr', s.stderr, 'shell-stderr'));
  return out;
}

/** Long text folded: the first lines, then its size and a "Show all" button that renders the rest. */
export function fold(text: string, render: (text: string) => HTMLElement): HTMLElement {
  const lines = countLines(text, FOLD_LINES + 1);
  if (lines <= FOLD_LINES && text.length <= FOLD_CHARS) return render(text);
  const head = firstLines(text, FOLD_LINES).slice(0, FOLD_CHARS);
  const box = el('div', { class: 'folded' }, render(head));
  const total = countLines(text, Number.MAX_SAFE_INTEGER);
  const more = el('button', { class: 'link-button show-all', attrs: { type: 'button' } }, icon('unfold'), ` Show all (${formatBytes(new TextEncoder().encode(text).length)}, ${formatInt(total)} lines)`);
  more.addEventListener('click', () => box.replaceChildren(render(text)));
  box.appendChild(more);
  return box;
}

function countLines(text: string, stopAt: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && n < stopAt; i = text.indexOf('\n', i + 1)) if (i < text.length - 1) n++;
  return n;
}

function firstLines(text: string, n: number): string {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at);
}

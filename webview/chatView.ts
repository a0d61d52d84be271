/**
 * The Content tab: an event's messages as a conversation (roles, text, tool calls and results), text as
 * sanitized markdown or, with Raw, as plain text; and the content blobs the event references.
 */
import type { HashRef } from '../src/core/model';
import type { ChatMessage, ChatPart } from '../src/protocol';
import { blobBadge, BlobHost, renderBlobSections } from './blobView';
import { chunkedText, el, icon, stripAnsi, TEXT_CHUNK } from './dom';
import { formatInt } from './format';
import { renderJsonTree, JsonTreeHost } from './jsonTree';
import { renderMarkdown } from './markdown';
import { codeBlock } from './transcript/highlight';
import { toolCallElement, toolResultElement } from './transcript/toolViews';

/** What the Content tab needs from the app. */
export interface ChatHost extends JsonTreeHost, BlobHost {
  openLink(url: string): void;
}

const ROLE_ICONS: Record<string, string> = { user: 'account', human: 'account', assistant: 'sparkle', model: 'sparkle', ai: 'sparkle', system: 'settings-gear', developer: 'settings-gear', tool: 'tools', function: 'tools' };

/** Renders the messages (or an explanation when there are none) and the referenced blobs. */
export function renderChat(messages: ChatMessage[], refs: HashRef[], raw: boolean, host: ChatHost): HTMLElement {
  const root = el('div', { class: 'chat' });
  if (messages.length === 0 && refs.length === 0) {
    root.appendChild(el('p', { class: 'empty-note', text: 'This event holds no messages or text fields. The JSON and Raw tabs show all of it.' }));
    return root;
  }
  for (const m of messages) root.appendChild(message(m, raw, host));
  if (refs.length > 0) root.append(...renderBlobSections(refs, host, (p) => part(p, raw, host)));
  return root;
}

function message(m: ChatMessage, raw: boolean, host: ChatHost): HTMLElement {
  const role = m.role.toLowerCase();
  const known = ROLE_ICONS[role];
  const box = el('section', { class: `message role-${known ? role : 'field'}`, attrs: { 'aria-label': `${m.role} message` } });
  box.appendChild(el('header', { class: 'message-header' }, icon(known ?? 'note'), el('span', { class: 'message-role', text: m.role }), el('span', { class: 'message-path', text: m.path, title: `JSON path: ${m.path}` })));
  for (const p of m.parts) box.appendChild(part(p, raw, host));
  return box;
}

/** One chat part as the Content tab draws it (the transcript reuses it for text, thinking and JSON). */
export function renderChatPart(p: ChatPart, raw: boolean, host: ChatHost): HTMLElement {
  return part(p, raw, host);
}

function part(p: ChatPart, raw: boolean, host: ChatHost): HTMLElement {
  switch (p.type) {
    case 'text': {
      const body = el('div', { class: raw ? 'part-text plain' : p.output ? 'part-text output' : 'part-text markdown' });
      const text = stripAnsi(p.text);
      // A long text is laid out a chunk at a time (see chunkedText): markdown of the part shown. Output (what a
      // program printed) is never Markdown: a `>` line is not a quote, a `# comment` not a heading.
      if (raw) body.appendChild(plainText(text, host));
      else if (p.output) body.appendChild(codeText(text, p.output.language, host));
      else if (text.length <= TEXT_CHUNK) body.appendChild(renderMarkdown(text, host.openLink));
      else body.appendChild(chunkedText(text, (t) => el('div', { class: 'markdown-part' }, renderMarkdown(t, host.openLink)), (t) => host.copy(t)));
      if (p.omitted) body.appendChild(el('p', { class: 'omitted-note', text: `… ${formatInt(p.omitted)} more characters: see the JSON or Raw tab.` }));
      return body;
    }
    case 'thinking': {
      const d = el('details', { class: 'part-thinking' }, el('summary', {}, icon('lightbulb'), ' Thinking'));
      d.appendChild(plainText(stripAnsi(p.text), host));
      return d;
    }
    case 'toolCall': {
      if (p.view) return toolCallElement(p, host);
      const box = el('div', { class: 'part-tool-call' }, el('div', { class: 'part-title' }, icon('tools'), el('span', { class: 'tool-name', text: p.name }), p.id ? el('span', { class: 'tool-id', text: p.id }) : null));
      box.appendChild(typeof p.args === 'string' ? plainText(stripAnsi(p.args), host) : renderJsonTree(p.args, host));
      return box;
    }
    case 'toolResult': {
      if (p.shell) return toolResultElement(p, host);
      const box = el('div', { class: `part-tool-result${p.isError ? ' is-error' : ''}` }, el('div', { class: 'part-title' }, icon(p.isError ? 'error' : 'output'), el('span', { text: p.isError ? 'Tool error' : 'Tool result' }), p.id ? el('span', { class: 'tool-id', text: p.id }) : null));
      if (p.text !== null) box.appendChild(raw ? plainText(stripAnsi(p.text), host) : codeText(stripAnsi(p.text), p.language ?? null, host));
      else if (p.value !== undefined) box.appendChild(renderJsonTree(p.value, host));
      else box.appendChild(el('p', { class: 'empty-note', text: 'No output.' }));
      return box;
    }
    case 'json':
      return el('div', { class: 'part-json' }, renderJsonTree(p.value, host));
    case 'blob':
      return el('div', { class: 'part-blob' }, blobBadge(p.state), el('span', { class: 'blob-field', text: p.ref.field }), p.preview ? el('pre', { class: 'plain-text', text: p.preview }) : null);
  }
}

/** Output or code, preformatted and highlighted as `language` when known (highlight.js; text nodes only), a chunk at a time. */
function codeText(text: string, language: string | null, host: ChatHost): Node {
  return chunkedText(text, (t) => codeBlock(t, language), (t) => host.copy(t));
}

/** Plain text in a `pre`, a chunk at a time when long (see chunkedText). */
function plainText(text: string, host: ChatHost): Node {
  return chunkedText(text, (t) => el('pre', { class: 'plain-text', text: t }), (t) => host.copy(t));
}

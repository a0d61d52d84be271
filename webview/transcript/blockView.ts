/**
 * One transcript block: a header (what the event is, its line as a link to the tree, status, token and latency
 * badges) and its conversation: messages with tool calls and results (toolViews.ts), and its content blobs,
 * each shown once: a blob an earlier block showed is one line ("same as line N", shown on demand), and a system
 * prompt or tool list that changed since the last turn says so.
 */
import type { ChatMessage, ChatPart, TranscriptBlock, TranscriptRef, TranscriptTurn } from '../../src/protocol';
import { renderBlobSections } from '../blobView';
import { ChatHost, renderChatPart } from '../chatView';
import { el, icon } from '../dom';
import { formatDuration, formatTokens } from '../format';
import { toolCallElement, toolResultElement } from './toolViews';

/** What a block needs from the app. */
export interface BlockHost extends ChatHost {
  /** Shows the block's event in the Tree view. */
  reveal(node: number): void;
  /** Selects the block's event (the detail pane shows it; the tree follows). */
  select(node: number): void;
  /** The re-sent histories the reader opened in place (absent: they cannot be opened). */
  earlier?: EarlierHost;
}

/** Opened re-sent histories, kept by the view so a block made again (scrolled away and back) opens as it was. */
export interface EarlierHost {
  isOpen(node: number): boolean;
  setOpen(node: number, open: boolean): void;
  /** The block's left-out messages (asked of the host once); `done` gets them and the element they went in. */
  load(node: number, done: (messages: ChatMessage[]) => HTMLElement): void;
}

const CATEGORY_ICONS: Record<string, string> = { inference: 'sparkle', tool: 'tools', message: 'comment', turn: 'debug-step-over', approval: 'shield', error: 'error', policy: 'law', session: 'folder', run: 'play' };
const ROLE_ICONS: Record<string, string> = { user: 'account', human: 'account', assistant: 'sparkle', model: 'sparkle', system: 'settings-gear', developer: 'settings-gear', tool: 'tools' };

const SETUP_ROLES = new Set(['system', 'developer', 'instructions']);

/** The element of one block. */
export function blockElement(b: TranscriptBlock, host: BlockHost): HTMLElement {
  const marks = b.status !== 'ok' ? ` status-${b.status}` : '';
  const approval = b.category === 'approval' ? ' is-approval' : '';
  // A subagent's block (read with the session) is indented under the call that started it.
  const sub = b.file ? ' subagent-block' : '';
  const where = b.file ? `${b.file.role} ${b.file.name}, line ${b.line}` : `Line ${b.line}`;
  const box = el('article', { class: `transcript-block category-${b.category}${marks}${approval}${sub}`, attrs: { 'data-node': String(b.node), 'data-line': String(b.line), 'aria-label': `${where}: ${b.kind}` } });
  box.appendChild(header(b, host));
  // A click on the block (not on a control or a text selection inside it) selects its event.
  box.addEventListener('click', (e) => {
    const t = e.target as HTMLElement;
    if (!t.closest('button, a, summary, details > *:not(summary)') && !window.getSelection()?.toString()) host.select(b.node);
  });
  const part = (p: ChatPart) => partElement(p, host);
  if (b.error) box.appendChild(el('p', { class: 'blob-message blob-message-unreadable', text: b.error }));
  // A history re-sent with this call: its messages were shown by an earlier block, only the new ones follow.
  if (b.earlier) box.appendChild(earlierElement(b.node, b.earlier, host, part));
  for (const m of b.messages) box.appendChild(messageElement(m, part));
  const fresh = b.refs.filter((r) => r.sameAsLine === null);
  const repeated = b.refs.filter((r) => r.sameAsLine !== null);
  for (const r of fresh.filter((x) => x.changedSinceLine !== null)) box.appendChild(el('p', { class: 'changed-note' }, icon('diff-modified'), ` ${r.ref.field} changed since line ${r.changedSinceLine}`));
  if (fresh.length > 0) {
    // Blob cards ask the host for their content: only once the block nears the screen (see DEFERRED).
    const slot = el('div', { class: 'block-blobs', text: `${fresh.length} blob${fresh.length === 1 ? '' : 's'}…` });
    box.appendChild(slot);
    DEFERRED.set(box, () => slot.replaceChildren(...renderBlobSections(fresh.map((r) => r.ref), host, part)));
  }
  if (repeated.length > 0) box.appendChild(repeatedRefs(repeated, host, part));
  return box;
}

function messageElement(m: ChatMessage, part: (p: ChatPart) => HTMLElement): HTMLElement {
  const role = m.role.toLowerCase();
  const msg = el('section', { class: `message role-${ROLE_ICONS[role] ? role : 'field'}`, attrs: { 'aria-label': `${m.role} message` } });
  if (!(m.parts.length === 1 && m.parts[0].type !== 'text')) msg.appendChild(el('header', { class: 'message-header' }, icon(ROLE_ICONS[role] ?? 'note'), el('span', { class: 'message-role', text: m.role })));
  // A system prompt or developer instructions are setup, long and read once: collapsed to their first line.
  if (SETUP_ROLES.has(role)) {
    const first = m.parts.find((p) => p.type === 'text');
    const lead = first && first.type === 'text' ? first.text.trim().split('\n', 1)[0].slice(0, 120) : '';
    const d = el('details', { class: 'setup-message' }, el('summary', {}, el('span', { class: 'message-role', text: m.role }), ` ${lead}`));
    d.addEventListener('toggle', () => {
      if (d.open && d.children.length === 1) for (const p of m.parts) d.appendChild(part(p));
    });
    msg.replaceChildren(d);
  } else for (const p of m.parts) msg.appendChild(part(p));
  return msg;
}

/**
 * "N earlier messages (shown at line L)", a button that opens them in place (asked of the host the first time);
 * Enter and Space work as on any button. Whether it is open is kept by the view, not by this element.
 */
function earlierElement(node: number, earlier: NonNullable<TranscriptBlock['earlier']>, host: BlockHost, part: (p: ChatPart) => HTMLElement): HTMLElement {
  const text = ` ${earlier.count} earlier message${earlier.count === 1 ? '' : 's'} (shown at line ${earlier.line})`;
  const wrap = el('div', { class: 'earlier-messages' });
  const store = host.earlier;
  if (!store) {
    wrap.append(icon('history'), text);
    return wrap;
  }
  const chevron = icon('chevron-right');
  const button = el('button', { class: 'link-button earlier-toggle', title: 'Show the messages this call sent again', attrs: { type: 'button', 'aria-expanded': 'false' } }, chevron, icon('history'), text);
  const body = el('div', { class: 'earlier-body', attrs: { role: 'group', 'aria-label': 'Earlier messages' } });
  body.hidden = true;
  let loaded = false;
  const show = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    chevron.className = `codicon codicon-chevron-${open ? 'down' : 'right'}`;
    body.hidden = !open;
    if (!open || loaded) return;
    loaded = true;
    body.replaceChildren(el('p', { class: 'empty-note', text: 'Loading…' }));
    store.load(node, (messages) => {
      body.replaceChildren(...messages.map((m) => messageElement(m, part)));
      return body;
    });
  };
  button.addEventListener('click', (e) => {
    e.stopPropagation();
    const open = button.getAttribute('aria-expanded') !== 'true';
    store.setOpen(node, open);
    show(open);
  });
  wrap.append(button, body);
  if (store.isOpen(node)) show(true);
  return wrap;
}

/** The line that opens a turn: its number, tokens and model latency. */
export function turnElement(turn: TranscriptTurn): HTMLElement {
  const badges = el('span', { class: 'block-badges' });
  if (turn.tokensIn !== null || turn.tokensOut !== null) badges.appendChild(el('span', { class: 'tx-badge tx-badge-tokens', title: 'Tokens in → out, this turn' }, formatTokens(turn.tokensIn, turn.tokensOut, 'tokens')));
  if (turn.modelMs !== null) badges.appendChild(el('span', { class: 'tx-badge tx-badge-latency', title: "The turn's model latency" }, formatDuration(turn.modelMs)));
  return el('div', { class: 'transcript-turn', attrs: { role: 'separator', 'aria-label': `Turn ${turn.number}` } }, el('span', { class: 'turn-number', text: `Turn ${turn.number}` }), badges);
}

/** Work a block defers until it is near the viewport (the view calls and forgets it). */
export const DEFERRED = new WeakMap<HTMLElement, () => void>();

function header(b: TranscriptBlock, host: BlockHost): HTMLElement {
  const line = el('button', { class: 'link-button block-line', text: `line ${b.line}`, title: b.file ? `Show this event in the tree (line ${b.line} of ${b.file.name})` : 'Show this event in the tree', attrs: { type: 'button' } });
  line.addEventListener('click', (e) => {
    e.stopPropagation();
    host.reveal(b.node);
  });
  const badges = el('span', { class: 'block-badges' });
  if (b.status === 'error') badges.appendChild(el('span', { class: 'tx-badge tx-badge-error' }, icon('error'), ' error'));
  else if (b.status === 'warning') badges.appendChild(el('span', { class: 'tx-badge tx-badge-warning' }, icon('warning'), ' warning'));
  if (b.category === 'approval') badges.appendChild(el('span', { class: 'tx-badge tx-badge-approval' }, icon('shield'), ' approval'));
  if (b.tokensIn !== null || b.tokensOut !== null) badges.appendChild(el('span', { class: 'tx-badge tx-badge-tokens', title: 'Tokens in → out' }, formatTokens(b.tokensIn, b.tokensOut, 'tokens')));
  if (b.durationMs !== null) badges.appendChild(el('span', { class: 'tx-badge tx-badge-latency', title: 'Duration' }, formatDuration(b.durationMs)));
  const from = b.file ? el('span', { class: 'tx-badge tx-badge-subagent', title: `From the ${b.file.role}'s transcript ${b.file.name}${b.file.title ? `: ${b.file.title}` : ''}` }, icon('hubot'), ` ${b.file.role}`) : null;
  return el('header', { class: 'block-header' }, from, icon(CATEGORY_ICONS[b.category] ?? 'circle-small'), el('span', { class: 'block-kind', text: b.kind }), b.model ? el('span', { class: 'block-model', text: b.model }) : null, el('span', { class: 'block-label', text: b.label }), badges, line);
}

function partElement(p: ChatPart, host: BlockHost): HTMLElement {
  if (p.type === 'toolCall') return toolCallElement(p, host);
  if (p.type === 'toolResult') return toolResultElement(p, host);
  return renderChatPart(p, false, host);
}

/** Blobs an earlier block showed: one line, and their cards on "Show". */
function repeatedRefs(refs: TranscriptRef[], host: BlockHost, part: (p: ChatPart) => HTMLElement): HTMLElement {
  const lines = [...new Set(refs.map((r) => r.sameAsLine))].join(', ');
  const d = el('details', { class: 'repeated-refs' }, el('summary', {}, icon('history'), ` ${refs.length} blob${refs.length === 1 ? '' : 's'} shown earlier (${refs.map((r) => r.ref.field).join(', ')}): same as line ${lines}`));
  d.addEventListener('toggle', () => {
    if (d.open && d.children.length === 1) d.append(...renderBlobSections(refs.map((r) => r.ref), host, part));
  }, { once: false });
  return d;
}

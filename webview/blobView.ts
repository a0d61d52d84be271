/**
 * Content blobs in the Content tab. An inference's blobs (murmur `system_sha`, `tools_sha`,
 * `message_shas[i]`, `response_sha`) are shown as its conversation, in wire order; other referenced blobs
 * (agentledger `payload_ref`, …) as a list. Each blob is loaded from the host, shown as chat parts, a JSON
 * tree or text, with an integrity badge. Blob content is hostile: it only ever becomes text nodes.
 */
import type { HashRef } from '../src/core/model';
import type { BlobContentMessage, BlobState, ChatMessage, ChatPart } from '../src/protocol';
import { chunkedText, el, icon, setText } from './dom';
import { formatBytes } from './format';
import { JsonTreeHost, renderJsonTree } from './jsonTree';

/** What the blob views need from the app. */
export interface BlobHost extends JsonTreeHost {
  requestBlob(ref: HashRef, onAnswer: (m: BlobContentMessage) => void): void;
  openBlob(ref: HashRef): void;
}

/** Draws one chat part (chatView's renderer, handed in so the modules do not import each other). */
export type PartRenderer = (p: ChatPart) => HTMLElement;

/** Blobs loaded without a click; more are loaded on "Show". */
const AUTO_LOAD = 16;

const BADGES: Record<BlobState, [string, string, string]> = {
  unresolved: ['circle-large-outline', 'not resolved', 'The blob has not been resolved.'],
  verified: ['pass-filled', 'verified', 'The blob’s content hashes to the digest that names it.'],
  mismatch: ['error', 'mismatch', 'The blob’s content does not hash to the digest that names it: tampered or truncated.'],
  missing: ['question', 'missing', 'No blob with this digest was found in the blob roots.'],
  unreadable: ['error', 'unreadable', 'The blob file could not be read.'],
  tooLarge: ['warning', 'too large', 'The blob is too large to verify.'],
  rejected: ['shield', 'rejected', 'The reference is unsafe or malformed and was not followed.'],
  unverifiable: ['unverified', 'unverifiable', 'The reference names no digest, so its content cannot be verified.'],
};

/** An integrity badge: icon and word, coloured by the theme. */
export function blobBadge(state: BlobState): HTMLElement {
  const [name, text, title] = BADGES[state];
  return el('span', { class: `blob-state blob-${state}`, title }, icon(name), ` ${text}`);
}

type SlotKind = 'system' | 'tools' | 'message' | 'response' | 'other';
interface Slot {
  kind: SlotKind;
  order: number;
  title: string;
}

/** Where a blob goes in an inference's conversation, by the field that references it. */
function slotOf(field: string): Slot {
  if (field === 'system_prompt_sha256') return { kind: 'system', order: 0, title: 'Configured system prompt' };
  if (field === 'system_sha') return { kind: 'system', order: 1, title: 'System prompt' };
  if (field === 'tools_sha') return { kind: 'tools', order: 2, title: 'Tools' };
  const m = /^message_shas(?:\[(\d+)\]|\.(\d+))$/.exec(field);
  if (m) {
    const i = Number(m[1] ?? m[2]);
    return { kind: 'message', order: 10 + i, title: `Message ${i + 1}` };
  }
  if (field === 'response_sha') return { kind: 'response', order: 1e9, title: 'Response' };
  return { kind: 'other', order: 0, title: field };
}

const SLOT_ICONS: Record<SlotKind, string> = { system: 'settings-gear', tools: 'tools', message: 'comment', response: 'sparkle', other: 'file-binary' };
/** The message colour a slot has before its blob says who speaks. */
const SLOT_ROLES: Record<SlotKind, string> = { system: 'system', tools: 'tool', message: 'field', response: 'assistant', other: 'field' };
const ROLE_ICONS: Record<string, string> = { user: 'account', assistant: 'sparkle', system: 'settings-gear', developer: 'settings-gear', tool: 'tools' };

/** The conversation an event's blobs make, and the other blobs it references. */
export function renderBlobSections(refs: HashRef[], host: BlobHost, renderPart: PartRenderer): HTMLElement[] {
  const slotted = refs.map((ref) => ({ ref, slot: slotOf(ref.field) }));
  const conversation = slotted.filter((s) => s.slot.kind !== 'other').sort((a, b) => a.slot.order - b.slot.order);
  const others = slotted.filter((s) => s.slot.kind === 'other');
  const out: HTMLElement[] = [];
  let loaded = 0;
  const section = (cls: string, title: string, items: typeof slotted) => {
    const box = el('section', { class: `blob-section ${cls}`, attrs: { 'aria-label': title } }, el('h3', { class: 'section-title', text: `${title} (${items.length})` }));
    for (const s of items) box.appendChild(blobCard(s.ref, s.slot, host, renderPart, loaded++ < AUTO_LOAD));
    out.push(box);
  };
  if (conversation.length > 0) section('blob-conversation', 'Conversation from blobs', conversation);
  if (others.length > 0) section('blob-list', 'Referenced content', others);
  return out;
}

/** One blob: a header (what it is, digest, badge, Open Blob) and its content once the host answers. */
function blobCard(ref: HashRef, slot: Slot, host: BlobHost, renderPart: PartRenderer, auto: boolean): HTMLElement {
  const card = el('section', { class: `message blob-card blob-kind-${slot.kind} role-${SLOT_ROLES[slot.kind]}`, attrs: { 'aria-label': slot.title, 'data-field': ref.field } });
  const roleIcon = icon(SLOT_ICONS[slot.kind]);
  const role = el('span', { class: 'message-role', text: slot.title, title: slot.title });
  const status = el('span', { class: 'blob-status' });
  const body = el('div', { class: 'blob-body' });
  const open = el('button', { class: 'link-button blob-open', attrs: { type: 'button' } }, icon('go-to-file'), ' Open Blob');
  open.addEventListener('click', () => host.openBlob(ref));
  const digest = el('code', { class: 'blob-digest', text: `${ref.digest.slice(0, 8)}…${ref.digest.slice(-4)}`, title: `${ref.algorithm}:${ref.digest}` });
  // What the blob is (role, field, digest) on one line that never wraps, where only the digest gives way (ending in
  // an ellipsis, the whole in its tooltip); its state, size and Open Blob beside it, or on a line below when narrow.
  const field = slot.kind === 'other' ? null : el('span', { class: 'blob-field', text: ref.field, title: ref.field });
  const what = el('span', { class: 'blob-what' }, roleIcon, role, field, digest);
  const head = el('header', { class: 'message-header blob-head' }, what, el('span', { class: 'blob-actions' }, status, el('span', { class: 'blob-spacer' }), open));
  card.append(head, body);
  const load = () => {
    status.replaceChildren(el('span', { class: 'blob-state blob-loading' }, icon('loading', 'codicon-modifier-spin'), ' resolving…'));
    host.requestBlob(ref, (m) => {
      status.replaceChildren(blobBadge(m.state), m.bytes !== null ? el('span', { class: 'blob-size', text: formatBytes(m.bytes) }) : '');
      const speaker = slot.kind === 'message' || slot.kind === 'response' ? m.chat?.[0]?.role : undefined;
      if (speaker && m.chat?.length === 1) {
        setText(role, `${slot.title} · ${speaker}`);
        role.title = `${slot.title} · ${speaker}`;
        roleIcon.replaceWith(icon(ROLE_ICONS[speaker.toLowerCase()] ?? SLOT_ICONS[slot.kind]));
        card.classList.replace(`role-${SLOT_ROLES[slot.kind]}`, `role-${ROLE_ICONS[speaker.toLowerCase()] ? speaker.toLowerCase() : 'field'}`);
      }
      body.replaceChildren(...blobContent(m, slot, ref, host, renderPart));
    });
  };
  if (auto) load();
  else {
    const show = el('button', { class: 'link-button', text: 'Show', attrs: { type: 'button' } });
    show.addEventListener('click', () => {
      show.remove();
      load();
    });
    status.appendChild(show);
  }
  return card;
}

/** The integrity details and the content of an answered blob. */
function blobContent(m: BlobContentMessage, slot: Slot, ref: HashRef, host: BlobHost, renderPart: PartRenderer): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (m.state === 'mismatch') out.push(digests(ref.algorithm, m.expected ?? ref.digest, m.actual));
  // The digests above say what the long message says; keep only where the file is.
  const note = m.state === 'mismatch' && m.actual ? `${m.path ?? 'The blob'} does not hash to its name: tampered or truncated. Its content is shown as found.` : m.message;
  if (note) out.push(el('p', { class: `blob-message blob-message-${m.state}`, text: note }));
  if (m.preview === null) return out;
  // A long preview is laid out a chunk at a time (dom.ts chunkedText).
  const plain = (text: string) => chunkedText(text, (t) => el('pre', { class: 'plain-text', text: t }), (t) => host.copy(t));
  if (m.binary) out.push(el('p', { class: 'empty-note', text: 'Binary content: a hex dump of the first bytes.' }), plain(m.preview));
  else if (m.bytes === 0) out.push(el('p', { class: 'empty-note', text: slot.kind === 'system' ? 'Empty: no system prompt was sent (an empty blob is valid).' : 'Empty blob.' }));
  else if ((slot.kind === 'message' || slot.kind === 'response') && m.chat && m.chat.length > 0) out.push(...chat(m.chat, renderPart));
  else if (m.json !== undefined) out.push(el('div', { class: 'blob-json' }, renderJsonTree(m.json, host)));
  else if (slot.kind === 'system' || slot.kind === 'message' || slot.kind === 'response') out.push(renderPart({ type: 'text', text: m.preview }));
  else out.push(plain(m.preview));
  if (m.truncated) {
    const full = el('button', { class: 'link-button', attrs: { type: 'button' } }, icon('go-to-file'), ' Open full blob');
    full.addEventListener('click', () => host.openBlob(ref));
    out.push(el('p', { class: 'omitted-note' }, `Showing the first ${formatBytes(m.preview.length)}${m.bytes !== null ? ` of ${formatBytes(m.bytes)}` : ''}. `, full));
  }
  return out;
}

/** Expected and actual digests of a mismatching blob. */
function digests(algorithm: string, expected: string, actual: string | undefined): HTMLElement {
  return el(
    'dl',
    { class: 'blob-digests' },
    el('dt', { text: 'Expected' }),
    el('dd', {}, el('code', { text: `${algorithm}:${expected}` })),
    el('dt', { text: 'Actual' }),
    el('dd', {}, actual ? el('code', { text: `${algorithm}:${actual}` }) : el('span', { class: 'empty-note', text: 'could not be computed' })),
  );
}

/** Messages found in a message or response blob; a single one is shown as the card itself. */
function chat(messages: ChatMessage[], renderPart: PartRenderer): HTMLElement[] {
  if (messages.length === 1) return messages[0].parts.map(renderPart);
  return messages.map((msg) =>
    el('div', { class: 'blob-chat-message' }, el('div', { class: 'part-title' }, icon(ROLE_ICONS[msg.role.toLowerCase()] ?? 'note'), el('span', { class: 'message-role', text: msg.role })), ...msg.parts.map(renderPart)),
  );
}

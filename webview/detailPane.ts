/**
 * The detail pane: breadcrumbs, the event's key fields, its findings, and the Content / JSON / Raw tabs.
 * Everything from the trace is written as text.
 */
import type { DetailTab, EventDetail, EventSummary, FindingView } from '../src/protocol';
import { ChatHost, renderChat } from './chatView';
import { renderContext } from './contextBar';
import { chunkedText, clear, el, icon, iconButton, setText } from './dom';
import { formatBytes, formatDuration, formatInt, formatTime, formatTokens } from './format';
import { renderJsonTree, setAllOpen } from './jsonTree';
import { renderRelations } from './relations';
import { CATEGORY_ICONS } from './rowView';

/** What the pane needs from the app. */
export interface DetailHost extends ChatHost {
  revealNode(node: number): void;
  revealLine(line: number): void;
  /** `file`: the session file the line is in (EventDetail.file's index), when not the trace's own. */
  revealInTextEditor(line: number, file?: number): void;
  /** Makes an id a link to the event it names (hover card, click to jump). */
  idLink(id: string): HTMLElement;
  tabChanged(tab: DetailTab): void;
  rawChanged(raw: boolean): void;
  /** Opens a file of the session (a subagent's transcript) by its index in the header's `usage.files`. */
  openSessionFile?(index: number): void;
}

const TABS: DetailTab[] = ['content', 'json', 'raw'];

/** See the file comment. */
export class DetailPane {
  readonly element = el('div', { class: 'detail-pane', attrs: { role: 'region', 'aria-label': 'Event details' } });
  private detail: EventDetail | null = null;
  private tab: DetailTab = 'content';
  private raw = false;

  constructor(private readonly host: DetailHost) {
    this.showEmpty('Select an event to see its details.');
  }

  setTab(tab: DetailTab): void {
    this.tab = tab;
  }
  setRaw(raw: boolean): void {
    this.raw = raw;
  }
  get current(): EventDetail | null {
    return this.detail;
  }

  showEmpty(text: string): void {
    this.detail = null;
    clear(this.element);
    this.element.appendChild(el('div', { class: 'empty-state' }, icon('list-selection'), el('p', { text })));
  }

  showError(text: string): void {
    this.detail = null;
    clear(this.element);
    this.element.appendChild(el('div', { class: 'empty-state error-state' }, icon('error'), el('p', { text })));
  }

  show(d: EventDetail): void {
    this.detail = d;
    clear(this.element);
    this.element.append(breadcrumbs(d, this.host), title(d), overview(d, this.host));
    if (d.context) this.element.appendChild(renderContext(d.context));
    const related = renderRelations(d, (node) => this.host.revealNode(node));
    if (related) this.element.appendChild(related);
    if (d.findings.length > 0) this.element.appendChild(findings(d.findings));
    this.element.appendChild(this.tabs(d));
  }

  private tabs(d: EventDetail): HTMLElement {
    const tabs = document.createElement('vscode-tabs');
    tabs.classList.add('detail-tabs');
    const panels: [string, HTMLElement][] = [
      ['Content', this.contentPanel(d)],
      ['JSON', jsonPanel(d, this.host)],
      ['Raw', rawPanel(d, this.host)],
    ];
    for (const [name, body] of panels) {
      const header = document.createElement('vscode-tab-header');
      header.setAttribute('slot', 'header');
      setText(header, name);
      header.dataset.tab = name.toLowerCase();
      const panel = document.createElement('vscode-tab-panel');
      panel.appendChild(body);
      tabs.append(header, panel);
    }
    tabs.setAttribute('selected-index', String(TABS.indexOf(this.tab)));
    tabs.addEventListener('vsc-tabs-select', (e) => {
      const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      this.tab = TABS[i] ?? 'content';
      this.host.tabChanged(this.tab);
    });
    return tabs;
  }

  private contentPanel(d: EventDetail): HTMLElement {
    const wrap = el('div', { class: 'tab-body content-tab' });
    const bar = el('div', { class: 'tab-toolbar' });
    const toggle = el('label', { class: 'raw-toggle' });
    const box = el('input', { attrs: { type: 'checkbox' } });
    box.checked = this.raw;
    toggle.append(box, ' Raw text (no markdown)');
    // A checkbox takes Space; Enter toggles it too, as a toggle button would.
    box.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      box.click();
    });
    box.addEventListener('change', () => {
      this.raw = box.checked;
      this.host.rawChanged(this.raw);
      body.replaceChildren(renderChat(d.messages, d.hashRefs, this.raw, this.host));
    });
    bar.appendChild(toggle);
    const body = el('div', {}, renderChat(d.messages, d.hashRefs, this.raw, this.host));
    wrap.append(bar, body);
    return wrap;
  }
}

function breadcrumbs(d: EventDetail, host: DetailHost): HTMLElement {
  const nav = el('nav', { class: 'breadcrumbs', attrs: { 'aria-label': 'Ancestors' } });
  const crumb = (s: EventSummary) => {
    const b = el('button', { class: 'crumb link-button', text: s.label || s.kind, title: `${s.kind} · line ${s.line}`, attrs: { type: 'button' } });
    b.addEventListener('click', () => host.revealNode(s.node));
    return b;
  };
  for (const a of d.ancestors) nav.append(crumb(a), icon('chevron-right', 'crumb-sep'));
  nav.appendChild(el('span', { class: 'crumb current', text: d.label || d.kind }));
  return nav;
}

function title(d: EventDetail): HTMLElement {
  return el(
    'div',
    { class: `detail-title status-${d.status}` },
    icon(d.malformed ? 'bracket-error' : CATEGORY_ICONS[d.category] ?? 'circle-small'),
    d.label.startsWith(d.kind) ? null : el('span', { class: 'detail-kind', text: d.kind }),
    el('span', { class: 'detail-label', text: d.label || d.kind }),
  );
}

function overview(d: EventDetail, host: DetailHost): HTMLElement {
  const dl = el('dl', { class: 'overview' });
  const row = (name: string, value: Node | string | null) => {
    if (value === null || value === '') return;
    dl.append(el('dt', { text: name }), el('dd', {}, value));
  };
  const lineLink = el('button', { class: 'link-button', text: `${formatInt(d.line)}`, title: d.file ? `Reveal in Text Editor (${d.file.name})` : 'Reveal in Text Editor', attrs: { type: 'button' } });
  lineLink.addEventListener('click', () => host.revealInTextEditor(d.line, d.file?.index));
  row('Line', lineLink);
  // A subagent's event read with the session: the file it comes from, openable alone.
  if (d.file) {
    const f = d.file;
    const open = host.openSessionFile;
    const b = el('button', { class: 'link-button', text: f.name, title: `Open the ${f.role}'s transcript ${f.name} alone`, attrs: open ? { type: 'button' } : { type: 'button', disabled: '' } });
    if (open) b.addEventListener('click', () => open(f.index));
    row('File', el('span', {}, b, ` · ${f.role}${f.title ? ` "${f.title}"` : ''}`));
  }
  row('Kind', d.kind);
  row('Status', el('span', { class: `status-word status-${d.status}`, text: d.status }));
  // The subagent a tool call started: its own transcript, one click away, with what it used.
  for (const s of d.subagents ?? []) {
    const used = [s.inputTokens !== null ? `${formatInt(s.inputTokens)} in` : '', s.outputTokens !== null ? `${formatInt(s.outputTokens)} out` : '', s.costUsd !== null ? `$${s.costUsd.toFixed(4)}` : ''].filter(Boolean).join(', ');
    const open = host.openSessionFile;
    const b = el('button', { class: 'link-button', text: s.title ?? s.name, title: `Open the subagent's transcript ${s.name}`, attrs: open ? { type: 'button' } : { type: 'button', disabled: '' } });
    if (open) b.addEventListener('click', () => open(s.index));
    row('Subagent', el('span', {}, b, used ? ` · ${s.name} · ${used}` : ` · ${s.name}`));
  }
  if (d.id !== null) row('Id', host.idLink(d.id));
  if (d.parent) {
    const p = d.parent;
    const b = el('button', { class: 'link-button', text: p.label || p.kind, title: `line ${p.line}${p.id ? ` · ${p.id}` : ''}`, attrs: { type: 'button' } });
    b.addEventListener('click', () => host.revealNode(p.node));
    row('Parent', el('span', {}, b, d.parentId !== null ? el('span', { class: 'mention-field', text: ' · ' }) : null, d.parentId !== null ? host.idLink(d.parentId) : null));
  } else if (d.parentId !== null) row('Parent', el('span', { class: 'missing' }, host.idLink(d.parentId), ' (not in this trace)'));
  if (d.childCount > 0) row('Children', formatInt(d.childCount));
  if (d.seq !== null) row('Seq', String(d.seq));
  row('Time', formatTime(d.time));
  row('Duration', formatDuration(d.durationMs));
  row('Tokens', formatTokens(d.tokensIn, d.tokensOut) ? `${formatTokens(d.tokensIn, d.tokensOut)} (in→out)` : null);
  row('Model', d.model);
  row('Tool', d.tool);
  row('Run / session', d.group !== null && d.nav?.ids.includes(d.group) ? host.idLink(d.group) : d.group);
  if (d.mentions.length > 0) {
    const list = el('span', { class: 'mentions' });
    for (const m of d.mentions.slice(0, 20)) list.append(el('span', { class: 'mention-field', text: `${m.field}: ` }), host.idLink(m.id), ' ');
    row('Refers to', list);
  }
  return dl;
}

function findings(list: FindingView[]): HTMLElement {
  const box = el('div', { class: 'detail-findings', attrs: { role: 'list', 'aria-label': 'Findings on this line' } });
  for (const f of list) {
    box.appendChild(
      el('div', { class: `finding severity-${f.severity}`, attrs: { role: 'listitem' } }, icon(f.severity === 'info' ? 'info' : f.severity), el('code', { class: 'finding-rule', text: f.rule }), el('span', { class: 'finding-message', text: f.message })),
    );
  }
  return box;
}

function jsonPanel(d: EventDetail, host: DetailHost): HTMLElement {
  const wrap = el('div', { class: 'tab-body json-tab' });
  if (d.json === null) {
    wrap.appendChild(el('p', { class: 'empty-note', text: d.jsonError ?? 'No JSON for this line.' }));
    return wrap;
  }
  const tree = renderJsonTree(d.json, host);
  wrap.append(
    el(
      'div',
      { class: 'tab-toolbar' },
      iconButton('expand-all', 'Expand All', () => setAllOpen(tree, true)),
      iconButton('collapse-all', 'Collapse All', () => setAllOpen(tree, false)),
      iconButton('copy', 'Copy JSON', () => host.copy(JSON.stringify(d.json, null, 2))),
    ),
    tree,
  );
  return wrap;
}

function rawPanel(d: EventDetail, host: DetailHost): HTMLElement {
  const wrap = el('div', { class: 'tab-body raw-tab' });
  const reveal = el('button', { class: 'link-button', attrs: { type: 'button' } }, icon('go-to-file'), ' Reveal in Text Editor');
  reveal.addEventListener('click', () => host.revealInTextEditor(d.line, d.file?.index));
  const copy = el('button', { class: 'link-button', attrs: { type: 'button' } }, icon('copy'), ' Copy Line');
  copy.addEventListener('click', () => host.copy(d.raw));
  wrap.appendChild(el('div', { class: 'tab-toolbar' }, el('span', { class: 'raw-meta', text: `${d.file ? `${d.file.name} · ` : ''}Line ${formatInt(d.line)} · ${formatBytes(d.rawBytes)}` }), reveal, copy));
  if (d.rawTruncated) wrap.appendChild(el('p', { class: 'omitted-note', text: `Showing the first ${formatBytes(d.raw.length)} of ${formatBytes(d.rawBytes)}; reveal it in the text editor for the rest.` }));
  wrap.appendChild(el('div', { class: 'raw-line' }, el('span', { class: 'raw-gutter', text: String(d.line), attrs: { 'aria-label': `line ${d.line}` } }), chunkedText(d.raw, (t) => el('pre', { class: 'raw-text', text: t }), (t) => host.copy(t))));
  return wrap;
}

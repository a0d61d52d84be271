/**
 * The Transcript main view: the run as one scrollable conversation in file order. Blocks come from the host a
 * page at a time (`requestTranscript`); only a window of pages is in the DOM (pages are added as the reader
 * nears an end and dropped from the far end past MAX_PAGES, the browser's scroll anchoring keeps the place), so
 * a 100,000-event trace costs what a few hundred blocks cost. Jumping to an event loads the page around it. A page
 * met while scrolling is built a few blocks a frame (FrameQueue), so its layout is spread over frames.
 *
 * Find reaches the view through `highlight(match)` (marks in the blocks shown and those loaded later) and
 * `revealMatch(node)`. A row filter narrows the pages on the host (sessionTranscript.ts), which then resets the
 * view: no block is ever hidden here, so the pages' heights stay real.
 */
import type { ChatMessage, EarlierMessagesMessage, TranscriptBlock, TranscriptPageMessage } from '../../src/protocol';
import { el } from '../dom';
import { FrameQueue } from '../frameQueue';
import { NO_REQUEST, type PendingRequest } from '../requests';
import { blockElement, BlockHost, DEFERRED, EarlierHost, turnElement } from './blockView';
import { markMatches } from './transcriptMarks';

/** Blocks per page. */
export const PAGE = 25;
/** Blocks of the first page shown. */
const FIRST_PAGE = 20;
/** Pages kept in the DOM (counted, not measured: reading heights as a page arrives forced a layout mid-scroll). */
const MAX_PAGES = 12;
/**
 * Blocks built per frame while scrolling: laying a block out costs more than building it (measured: a page of 25
 * built in one frame cost 5–8 ms of layout alone), so the count is bounded as well as the time.
 */
const BUILD_BUDGET = { ms: 3, tasks: 6 };
/** Pixels from an end at which the next page is asked for. */
const NEAR = 1200;

/** What the view needs from the app. */
export interface TranscriptHost extends BlockHost {
  /** Asks the host for a page (or the page holding `aroundNode`); the page comes to `onReply`. */
  request(start: number, count: number, aroundNode: number | undefined, onReply: (m: TranscriptPageMessage) => void): PendingRequest;
  /** Asks for a block's left-out history; the messages come to `onReply`. */
  requestEarlier(node: number, onReply: (m: EarlierMessagesMessage) => void): PendingRequest;
}

/** A page request in flight, and what its page is for. */
interface PageRequest {
  request: PendingRequest;
  mode: 'reset' | 'append' | 'prepend';
  around?: number;
}

interface Page {
  start: number;
  count: number;
  element: HTMLElement;
}

/** See the file comment. */
export class TranscriptView {
  readonly element = el('div', { class: 'transcript', attrs: { tabindex: '0', role: 'feed', 'aria-label': 'Transcript', 'aria-busy': 'false' } });
  private readonly status = el('p', { class: 'transcript-status empty-note' });
  private pages: Page[] = [];
  private total = -1;
  /** The one page request in flight. */
  private pending: PageRequest | null = null;
  private selected: number | null = null;
  private visible = false;
  private modelVersion = 0;
  private match: RegExp | null = null;
  /** Blocks of pages met while scrolling, built a few per frame. */
  private readonly building = new FrameQueue(() => {
    // A feed is busy while it adds blocks (ARIA feed pattern): the last queued block is in the DOM now.
    if (!this.pending) this.element.setAttribute('aria-busy', 'false');
    this.onScroll();
  }, BUILD_BUDGET);
  /**
   * The node the last page was loaded around, and the index of the block shown for it. A selected event that is
   * not a conversation event has no block: the view shows the nearest one before it instead of asking again
   * (asking again set off an endless run of requests, each answer asking for the next).
   */
  private placed: { node: number; index: number } | null = null;
  /** The event find last stepped to: its match is brought into view again when its page arrives. */
  private matchAt: number | null = null;
  /** Re-sent histories the reader opened, their messages once sent, and the answers awaited (until a reset). */
  private readonly opened = new Set<number>();
  private readonly earlierSent = new Map<number, ChatMessage[]>();
  private readonly earlierAwaited = new Set<PendingRequest>();
  private readonly blockHost: BlockHost;

  /** Renders a block's deferred parts (its blob cards) when it comes within a screen of the viewport. */
  private readonly near = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const b = e.target as HTMLElement;
      this.near.unobserve(b);
      DEFERRED.get(b)?.();
      DEFERRED.delete(b);
    }
  }, { root: this.element, rootMargin: '100% 0px' });

  constructor(private readonly host: TranscriptHost) {
    this.blockHost = { ...host, earlier: this.earlierHost() };
    this.element.appendChild(this.status);
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** ARIA feed keys: ↓/PageDown and ↑/PageUp move between blocks, Enter selects the focused block's event. */
  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    this.building.flush();
    const blocks = [...this.element.querySelectorAll<HTMLElement>('.transcript-block')];
    const at = blocks.findIndex((b) => b === document.activeElement);
    const step = e.key === 'ArrowDown' || e.key === 'PageDown' ? 1 : e.key === 'ArrowUp' || e.key === 'PageUp' ? -1 : 0;
    if (step !== 0) {
      const to = blocks[at < 0 ? (step > 0 ? 0 : blocks.length - 1) : Math.max(0, Math.min(blocks.length - 1, at + step))];
      if (!to) return;
      e.preventDefault();
      to.focus();
      this.onScroll();
    } else if (e.key === 'Enter' && at >= 0) {
      e.preventDefault();
      this.host.select(Number(blocks[at].dataset.node));
    }
  }

  /** A new model, or a filter that keeps other blocks: forget the blocks (they are loaded again when shown). */
  reset(modelVersion: number): void {
    if (modelVersion !== this.modelVersion) this.opened.clear();
    this.earlierSent.clear();
    for (const r of this.earlierAwaited) r.cancel();
    this.earlierAwaited.clear();
    this.modelVersion = modelVersion;
    this.clearPages();
    this.total = -1;
    this.pending?.request.cancel();
    this.pending = null;
    if (this.visible) this.load();
  }

  /** The view was shown: load its first page, or the one around the selected event. */
  show(): void {
    this.visible = true;
    if (this.total < 0 && this.pending === null) this.load();
    else if (this.selected !== null) this.scrollToNode(this.selected, false);
    // Pages are not asked for while hidden (a hidden view has no height, so it is "near" both ends).
    this.onScroll();
  }

  hide(): void {
    this.visible = false;
  }

  /** The selected event changed: mark its block and, when shown, bring it into view (loading its page). */
  select(node: number): void {
    this.selected = node;
    this.building.flush();
    for (const b of this.element.querySelectorAll('.transcript-block.selected')) b.classList.remove('selected');
    this.blockOf(node)?.classList.add('selected');
    if (this.visible) this.scrollToNode(node, false);
  }

  /**
   * Find: marks the matches of `match` in the blocks' text (null clears). The same pattern again only marks text
   * that came since (blob cards filled in later), so a reply per blob does not redo every page.
   */
  highlight(match: RegExp | null): void {
    // No find before and none now (a blob reply while Find is closed): nothing to clear, no page to walk.
    if (match === null && this.match === null) return;
    const same = match !== null && this.match !== null && match.source === this.match.source && match.flags === this.match.flags;
    this.match = match;
    if (!match) this.matchAt = null;
    for (const p of this.pages) markMatches(p.element, match, same);
  }

  /** Find stepped to `node`: its block's first match is the current one, brought into view. */
  revealMatch(node: number): void {
    this.matchAt = node;
    this.building.flush();
    for (const m of this.element.querySelectorAll('mark.transcript-match.current')) m.classList.remove('current');
    // The block's body before its header: the header's label repeats (and truncates) what the body says.
    const block = this.blockOf(node);
    const marks = [...(block?.querySelectorAll('mark.transcript-match') ?? [])];
    const mark = marks.find((m) => !m.closest('.block-header')) ?? marks[0];
    if (!mark) return;
    mark.classList.add('current');
    if (this.visible) mark.scrollIntoView({ block: 'center' });
  }

  /** A page from the host, for the request `pending` (it was not cancelled: it is still the one in flight). */
  private answer(m: TranscriptPageMessage): void {
    if (m.modelVersion !== this.modelVersion || !this.pending) return;
    const { mode, around } = this.pending;
    this.pending = null;
    this.total = m.total;
    if (mode === 'reset') this.clearPages();
    // Still busy while blocks of an earlier page are being built (see `building`).
    this.element.setAttribute('aria-busy', this.building.busy ? 'true' : 'false');
    if (m.total === 0) return this.setStatus(m.filtered ? 'No conversation event matches the filter.' : 'This trace has no conversation events (messages, inferences, tool calls).');
    this.setStatus(null);
    const page = { start: m.start, count: m.blocks.length, element: el('div', { class: 'transcript-page' }) };
    if (mode === 'prepend') {
      this.pages.unshift(page);
      this.element.insertBefore(page.element, this.pages[1]?.element ?? null);
      if (this.pages.length > MAX_PAGES) this.drop(this.pages.pop()!);
    } else {
      this.pages.push(page);
      this.element.appendChild(page.element);
      if (this.pages.length > MAX_PAGES) this.drop(this.pages.shift()!);
    }
    // A page met while scrolling is built over the next frames (see FrameQueue); the page opened or jumped to
    // is what the reader waits for, so it is built now.
    const tasks = m.blocks.map((b) => () => this.addBlock(page.element, b));
    if (mode !== 'reset') {
      this.element.setAttribute('aria-busy', 'true');
      return this.building.push(...tasks);
    }
    for (const t of tasks) t();
    if (m.focus !== null && around !== undefined) {
      this.placed = { node: around, index: m.focus };
      if (this.selected !== null) this.scrollToNode(this.selected, true);
      if (this.matchAt !== null) this.revealMatch(this.matchAt);
    }
    this.onScroll();
  }

  private earlierHost(): EarlierHost {
    return {
      isOpen: (node) => this.opened.has(node),
      setOpen: (node, open) => (open ? this.opened.add(node) : this.opened.delete(node)),
      load: (node, done) => {
        const sent = this.earlierSent.get(node);
        if (sent) return this.fillEarlier(done, sent);
        // A block's left-out history from the host: shown where it was opened, and marked if Find is open.
        const request: PendingRequest = this.host.requestEarlier(node, (m) => {
          this.earlierAwaited.delete(request);
          if (m.modelVersion !== this.modelVersion) return;
          this.earlierSent.set(m.node, m.messages);
          this.fillEarlier(done, m.messages);
        });
        this.earlierAwaited.add(request);
      },
    };
  }

  private fillEarlier(done: (messages: ChatMessage[]) => HTMLElement, messages: ChatMessage[]): void {
    const body = done(messages);
    if (this.match) markMatches(body, this.match);
  }

  private addBlock(page: HTMLElement, b: TranscriptBlock): void {
    // A page dropped before its last blocks were built keeps no more of them.
    if (!page.isConnected) return;
    if (b.turn) {
      const turn = turnElement(b.turn);
      // Only the transcript's first turn opens without a rule above it: a page's first turn still needs one.
      if (b.index === 0) turn.classList.add('first-turn');
      page.appendChild(this.marked(turn));
    }
    const e = blockElement(b, this.blockHost);
    e.tabIndex = -1;
    e.setAttribute('aria-posinset', String(b.index + 1));
    e.setAttribute('aria-setsize', String(this.total));
    if (b.node === this.selected) e.classList.add('selected');
    if (DEFERRED.has(e)) this.near.observe(e);
    page.appendChild(this.marked(e));
  }

  /** Find's marks in an element built while Find is open. */
  private marked(e: HTMLElement): HTMLElement {
    if (this.match) markMatches(e, this.match);
    return e;
  }

  private load(around?: number): void {
    this.setStatus('Loading the transcript…');
    // The first page is small: it is what the reader waits for; the next ones load while reading.
    this.ask('reset', 0, FIRST_PAGE, around ?? this.selected ?? undefined);
  }

  private ask(mode: 'reset' | 'append' | 'prepend', start: number, count: number, aroundNode?: number): void {
    this.element.setAttribute('aria-busy', 'true');
    const pending: PageRequest = { request: NO_REQUEST, mode, ...(aroundNode !== undefined ? { around: aroundNode } : {}) };
    this.pending = pending;
    pending.request = this.host.request(start, count, aroundNode, (m) => {
      if (this.pending === pending) this.answer(m);
    });
  }

  private onScroll(): void {
    // A page still being built is not at its full height, so a reader racing to the end asks for the next one
    // early (never more than one request at a time); once built, the check runs again (FrameQueue's settled).
    if (this.pending || this.pages.length === 0 || !this.visible || this.element.clientHeight === 0) return;
    const first = this.pages[0];
    const last = this.pages[this.pages.length - 1];
    const e = this.element;
    if (e.scrollTop + e.clientHeight > e.scrollHeight - NEAR && last.start + last.count < this.total) this.ask('append', last.start + last.count, PAGE);
    else if (e.scrollTop < NEAR && first.start > 0) this.ask('prepend', Math.max(0, first.start - PAGE), first.start - Math.max(0, first.start - PAGE));
  }

  private scrollToNode(node: number, exact: boolean): void {
    this.building.flush();
    const b = this.blockOf(node) ?? (this.placed?.node === node ? this.blockAt(this.placed.index) : null);
    if (b) b.scrollIntoView({ block: exact ? 'start' : 'nearest' });
    else if (this.pending === null && this.placed?.node !== node) this.load(node);
  }

  private blockAt(index: number): HTMLElement | null {
    return this.element.querySelector<HTMLElement>(`.transcript-block[aria-posinset="${index + 1}"]`);
  }

  private blockOf(node: number): HTMLElement | null {
    return this.element.querySelector<HTMLElement>(`.transcript-block[data-node="${node}"]`);
  }

  private drop(page: Page): void {
    for (const b of page.element.children) this.near.unobserve(b);
    page.element.remove();
  }

  private clearPages(): void {
    this.building.clear();
    for (const p of this.pages) p.element.remove();
    this.pages = [];
    this.placed = null;
    this.near.disconnect();
  }

  private setStatus(text: string | null): void {
    this.status.hidden = text === null;
    this.status.textContent = text ?? '';
  }
}

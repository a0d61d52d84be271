/**
 * The host side of the Transcript view: answers `requestTranscript` with a page of blocks, building the
 * index once per model (newest request wins per model; a page of an old model is never sent). A row filter
 * narrows the transcript as it narrows the tree: the pages hold only the blocks of events the filter keeps
 * (not their ancestors, which the tree keeps as context), so the view needs no hidden blocks. vscode-free.
 */
import type { TraceModel } from '../../core/loadTrace';
import type { HostMessage, RequestEarlierMessagesMessage, RequestTranscriptMessage } from '../../protocol';
import { blockIndexOf, buildTranscriptIndex, narrowIndex, TranscriptIndex } from './transcriptIndex';
import { CallNames, earlierMessages, transcriptPage } from './transcriptPage';

/** What the transcript answers need of the session. */
export interface TranscriptContext {
  model(): TraceModel | null;
  modelVersion(): number;
  post(msg: HostMessage): void;
}

/** See the file comment. */
export class SessionTranscript {
  private built: { model: TraceModel; index: TranscriptIndex; calls: CallNames } | null = null;
  private keep: ((event: number) => boolean) | null = null;
  /** The index the pages come from: the built one, narrowed by the filter. */
  private shown: { of: TranscriptIndex; index: TranscriptIndex } | null = null;

  constructor(private readonly ctx: TranscriptContext) {}

  /** The index of the current model (built on first use), narrowed by the filter. */
  index(): TranscriptIndex | null {
    const model = this.ctx.model();
    if (!model) return null;
    if (this.built?.model !== model) this.built = { model, index: buildTranscriptIndex(model), calls: new Map() };
    const all = this.built.index;
    if (this.shown?.of !== all) this.shown = { of: all, index: narrowIndex(all, this.keep) };
    return this.shown.index;
  }

  /**
   * The row filter's predicate over events (null: none). When the blocks it keeps differ from those shown, the
   * webview is told to load its pages again (`transcriptReset`).
   */
  setFilter(keep: ((event: number) => boolean) | null): void {
    this.keep = keep;
    const before = this.shown?.index.nodes ?? null;
    this.shown = null;
    if (before === null || !this.built || this.built.model !== this.ctx.model()) return;
    const after = this.index()!.nodes;
    if (!sameNodes(before, after)) this.ctx.post({ type: 'transcriptReset', modelVersion: this.ctx.modelVersion(), filtered: keep !== null });
  }

  /** Answers one page request. */
  async request(msg: RequestTranscriptMessage): Promise<void> {
    const model = this.ctx.model();
    const index = this.index();
    if (!model || !index || !this.built) return;
    const version = this.ctx.modelVersion();
    const focus = msg.aroundNode !== undefined && index.nodes.length > 0 ? blockIndexOf(index, model, msg.aroundNode) : null;
    // A page around a node starts a little before it, so the reader sees what led there.
    const start = focus !== null ? Math.max(0, focus - Math.floor(msg.count / 4)) : Math.min(msg.start, index.nodes.length);
    const blocks = await transcriptPage(model, index, start, msg.count, this.built.calls);
    if (model !== this.ctx.model()) return;
    this.ctx.post({ type: 'transcriptPage', requestId: msg.requestId, modelVersion: version, total: index.nodes.length, start, blocks, focus, filtered: this.keep !== null });
  }

  /** Answers a block's earlier messages opened in place: what its page left out (none for a node without a block). */
  async earlier(msg: RequestEarlierMessagesMessage): Promise<void> {
    const model = this.ctx.model();
    const index = this.index();
    if (!model || !index || !this.built) return;
    const version = this.ctx.modelVersion();
    const k = index.nodes.indexOf(msg.node);
    const messages = k >= 0 ? await earlierMessages(model, index, k, this.built.calls) : [];
    if (model !== this.ctx.model()) return;
    this.ctx.post({ type: 'earlierMessages', requestId: msg.requestId, modelVersion: version, node: msg.node, messages });
  }
}

function sameNodes(a: Int32Array, b: Int32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

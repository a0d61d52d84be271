/**
 * The host side of the Transcript view: answers `requestTranscript` with a page of blocks, building the
 * index once per model (newest request wins per model; a page of an old model is never sent). vscode-free.
 */
import type { TraceModel } from '../../core/loadTrace';
import type { HostMessage, RequestTranscriptMessage } from '../../protocol';
import { blockIndexOf, buildTranscriptIndex, TranscriptIndex } from './transcriptIndex';
import { CallNames, transcriptPage } from './transcriptPage';

/** What the transcript answers need of the session. */
export interface TranscriptContext {
  model(): TraceModel | null;
  modelVersion(): number;
  post(msg: HostMessage): void;
}

/** See the file comment. */
export class SessionTranscript {
  private built: { model: TraceModel; index: TranscriptIndex; calls: CallNames } | null = null;

  constructor(private readonly ctx: TranscriptContext) {}

  /** The index of the current model (built on first use). */
  index(): TranscriptIndex | null {
    const model = this.ctx.model();
    if (!model) return null;
    if (this.built?.model !== model) this.built = { model, index: buildTranscriptIndex(model), calls: new Map() };
    return this.built.index;
  }

  /** Answers one page request. */
  async request(msg: RequestTranscriptMessage): Promise<void> {
    const model = this.ctx.model();
    const index = this.index();
    if (!model || !index || !this.built) return;
    const version = this.ctx.modelVersion();
    const focus = msg.aroundNode !== undefined ? blockIndexOf(index, model, msg.aroundNode) : null;
    // A page around a node starts a little before it, so the reader sees what led there.
    const start = focus !== null ? Math.max(0, focus - Math.floor(msg.count / 4)) : Math.min(msg.start, index.nodes.length);
    const blocks = await transcriptPage(model, index, start, msg.count, this.built.calls);
    if (model !== this.ctx.model()) return;
    this.ctx.post({ type: 'transcriptPage', requestId: msg.requestId, modelVersion: version, total: index.nodes.length, start, blocks, focus });
  }
}

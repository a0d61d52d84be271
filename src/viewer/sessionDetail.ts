/**
 * The answers of a viewer session that read one event or one blob: the selected event's detail (newest
 * request wins), what an id names, and a blob's preview. Split from viewerSession.ts to keep it short.
 * vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import { sessionFilesOf } from '../core/sessionUsage';
import type { DigestAlgorithm } from '../core/model';
import type { FindingView, HostMessage } from '../protocol';
import { buildDetail } from './eventDetail';
import { eventMessages } from './eventMessages';
import type { SessionHost } from './sessionHost';
import { idInfoOf, navigationOf } from './sessionNavigation';
import { lineOfNode, partOfNode } from './traceRows';
import { formatModule } from '../core/formats';
import type { SessionFile } from '../core/format';
import { enrich } from './transcript/transcriptPage';
import { sessionHeaderOf } from './sessionModelInfo';
import type { EventDetail } from '../protocol';

/**
 * The session files (subagents) the tool calls of event `node` started, with their usage from the session header:
 * each part of a model read with its session (TraceModel.parts) whose call is this event; for a model read alone,
 * the files whose call the format finds in this event (FormatModule.sessionCalls).
 */
async function subagentsOf(model: TraceModel, node: number): Promise<NonNullable<EventDetail['subagents']>> {
  const files = await sessionFilesOf(model);
  if (files.length === 0) return [];
  const started = (k: number): boolean => {
    if (model.parts) return model.parts[k + 1]?.call === node;
    const id = files[k].toolUseId;
    return id !== null && callsOf(model, files).get(id) === node;
  };
  if (!files.some((_, k) => started(k))) return [];
  const usage = (await sessionHeaderOf(model))?.usage?.files ?? [];
  return files.flatMap((f, k) => {
    if (!started(k)) return [];
    const u = usage[k + 1];
    const name = f.path.replace(/\\/g, '/').split('/').pop() ?? f.path;
    return [{ index: k + 1, name, title: f.title, inputTokens: u?.inputTokens ?? null, outputTokens: u?.outputTokens ?? null, costUsd: u?.costUsd ?? null }];
  });
}

const calls = new WeakMap<TraceModel, Map<string, number>>();

/** The events holding the calls that started the session's files, found by the format once per model. */
function callsOf(model: TraceModel, files: readonly SessionFile[]): Map<string, number> {
  let hit = calls.get(model);
  if (!hit) {
    const ids = new Set(files.flatMap((f) => (f.toolUseId ? [f.toolUseId] : [])));
    calls.set(model, (hit = formatModule(model.format).sessionCalls?.(model.events, ids) ?? new Map()));
  }
  return hit;
}

/** What the detail answers need of the session. */
export interface DetailContext {
  model(): TraceModel | null;
  modelVersion(): number;
  /** The findings on a line of the trace's file, or of a session part's file (`part`, TraceModel.parts). */
  findingsAt(line: number, part: number): FindingView[];
  post(msg: HostMessage): void;
  host: SessionHost;
}

/** See the file comment. */
export class SessionDetail {
  private token = 0;

  constructor(private readonly ctx: DetailContext) {}

  /** Sends the detail of `node`, unless a newer request or model came first. */
  async send(node: number): Promise<void> {
    const model = this.ctx.model();
    if (!model) return;
    const token = ++this.token;
    const line = lineOfNode(model, node);
    try {
      const detail = await buildDetail(model, node, line !== null ? this.ctx.findingsAt(line, partOfNode(model, node)) : []);
      detail.nav = navigationOf(model, node, detail.json);
      // The span's own messages (an OTLP line holds many spans), as the transcript shows them; tool calls read
      // as what they are in the Content tab too: diffs, shell commands and outcomes, forms.
      if (node >= 0) detail.messages = eventMessages(model, node, detail.json, detail.messages);
      // One map for the event, so a result on the call's own line knows its call; Claude Code's structured copy of a
      // result (toolUseResult) names the file a Read returned, which gives the output its language.
      const calls = new Map();
      const sidecar = (detail.json as { toolUseResult?: unknown } | null)?.toolUseResult;
      detail.messages = detail.messages.map((m) => ({ ...m, parts: m.parts.map((p) => enrich(p, calls, sidecar)) }));
      if (node >= 0) {
        const subagents = await subagentsOf(model, node);
        if (subagents.length > 0) detail.subagents = subagents;
      }
      if (token === this.token && model === this.ctx.model()) this.ctx.post({ type: 'detail', modelVersion: this.ctx.modelVersion(), detail });
    } catch (err) {
      if (token === this.token) this.ctx.post({ type: 'detailError', node, message: `Could not read line ${line}: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  /** Answers what an id names (hover cards, navigation). */
  resolveId(requestId: number, id: string): void {
    const model = this.ctx.model();
    if (model) this.ctx.post({ type: 'idInfo', requestId, ...idInfoOf(model, id) });
  }

  /** Answers a blob preview request through the host's resolver. */
  async requestBlob(requestId: number, digest: string, algorithm: DigestAlgorithm): Promise<void> {
    const resolve = this.ctx.host.resolveBlob;
    if (!resolve) {
      this.ctx.post({ type: 'blobContent', requestId, digest, state: 'unresolved', preview: null, bytes: null, message: 'Blob resolution is not available in this version.' });
      return;
    }
    const answer = await resolve.call(this.ctx.host, digest, algorithm);
    // Tool calls and results inside a message blob read as they do inline in the transcript (views are ignored by the Content tab).
    if (answer.chat) answer.chat = answer.chat.map((m) => ({ ...m, parts: m.parts.map((p) => enrich(p, new Map())) }));
    this.ctx.post({ type: 'blobContent', requestId, ...answer });
  }
}

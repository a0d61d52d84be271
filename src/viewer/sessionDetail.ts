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
import { lineOfNode } from './traceRows';
import { enrich } from './transcript/transcriptPage';
import { sessionHeaderOf } from './sessionModelInfo';
import type { EventDetail } from '../protocol';

/** The tool_use ids of a Claude Code line (an assistant message's content blocks). */
function toolUseIds(json: unknown): string[] {
  const content = (json as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (b && typeof b === 'object' && (b as { type?: unknown }).type === 'tool_use' && typeof (b as { id?: unknown }).id === 'string' ? [(b as { id: string }).id] : []));
}

/** The session files (subagents) started by the tool calls of an event's line, with their usage from the session header. */
async function subagentsOf(model: TraceModel, json: unknown): Promise<NonNullable<EventDetail['subagents']>> {
  const ids = toolUseIds(json);
  if (ids.length === 0) return [];
  const files = (await sessionFilesOf(model));
  if (!files.some((f) => f.toolUseId !== null && ids.includes(f.toolUseId))) return [];
  const usage = (await sessionHeaderOf(model))?.usage?.files ?? [];
  return files.flatMap((f, k) => {
    if (f.toolUseId === null || !ids.includes(f.toolUseId)) return [];
    const u = usage[k + 1];
    const name = f.path.replace(/\\/g, '/').split('/').pop() ?? f.path;
    return [{ index: k + 1, name, title: f.title, inputTokens: u?.inputTokens ?? null, outputTokens: u?.outputTokens ?? null, costUsd: u?.costUsd ?? null }];
  });
}

/** What the detail answers need of the session. */
export interface DetailContext {
  model(): TraceModel | null;
  modelVersion(): number;
  findingsAt(line: number): FindingView[];
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
      const detail = await buildDetail(model, node, line !== null ? this.ctx.findingsAt(line) : []);
      detail.nav = navigationOf(model, node, detail.json);
      // The span's own messages (an OTLP line holds many spans), as the transcript shows them; tool calls read
      // as what they are in the Content tab too: diffs, shell commands and outcomes, forms.
      if (node >= 0) detail.messages = eventMessages(model, node, detail.json, detail.messages);
      detail.messages = detail.messages.map((m) => ({ ...m, parts: m.parts.map((p) => enrich(p, new Map())) }));
      if (node >= 0) {
        const subagents = await subagentsOf(model, detail.json);
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

/**
 * Requests the host answers with one reply carrying the same `requestId` (id hover cards, blob previews,
 * transcript pages, re-sent history, timeline slices): one place numbers them, pairs each reply with the
 * callback that asked, and drops replies nobody waits for (late, cancelled, unknown, or of another type). The
 * views hold a {@link PendingRequest} and cancel it when what they asked for no longer matters (a new model).
 */
import type { HostMessage, WebviewMessage } from '../src/protocol';

/** A webview message the host answers by id. */
export type RequestMessage = Extract<WebviewMessage, { requestId: number }>;
export type RequestType = RequestMessage['type'];
/** A host message that answers one. */
export type ReplyMessage = Extract<HostMessage, { requestId: number }>;

/**
 * The reply type of each request type. Typed over both unions: a request with a `requestId` added to the
 * protocol does not compile until its reply is named here.
 */
const REPLY_TYPE = {
  resolveId: 'idInfo',
  requestBlob: 'blobContent',
  requestTranscript: 'transcriptPage',
  requestEarlierMessages: 'earlierMessages',
  requestTimeline: 'timeline',
} as const satisfies { [T in RequestType]: ReplyMessage['type'] };

/** The reply to a request of type T. */
export type ReplyTo<T extends RequestType> = Extract<ReplyMessage, { type: (typeof REPLY_TYPE)[T] }>;
/** A request of type T as a view writes it: everything but the id, which {@link Requests} assigns. */
export type Ask<T extends RequestType> = Omit<Extract<RequestMessage, { type: T }>, 'requestId'>;

/** A request in flight. */
export interface PendingRequest {
  readonly id: number;
  /** Its reply, if one still comes, is dropped. */
  cancel(): void;
}

/** A request that was never sent (nothing to cancel): what a view holds when it does not ask after all. */
export const NO_REQUEST: PendingRequest = { id: 0, cancel: () => undefined };

interface Waiting {
  type: ReplyMessage['type'];
  reply: (m: ReplyMessage) => void;
}

/** See the file comment. One per webview: ids are unique across every kind of request. */
export class Requests {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly post: (m: WebviewMessage) => void) {}

  /** Sends `ask` with a fresh id; `onReply` gets the host's reply once, unless it is cancelled first. */
  send<T extends RequestType>(ask: Ask<T> & { type: T }, onReply: (m: ReplyTo<T>) => void): PendingRequest {
    const id = this.nextId++;
    this.waiting.set(id, { type: REPLY_TYPE[ask.type], reply: onReply as (m: ReplyMessage) => void });
    this.post({ ...ask, requestId: id } as unknown as RequestMessage);
    return { id, cancel: () => void this.waiting.delete(id) };
  }

  /** Hands a reply to the request that asked; false (and nothing called) when no request waits for it. */
  answer(m: ReplyMessage): boolean {
    const w = this.waiting.get(m.requestId);
    if (!w || w.type !== m.type) return false;
    this.waiting.delete(m.requestId);
    w.reply(m);
    return true;
  }

  /** Requests still waiting for their reply. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Cancels every request in flight (the view is going away). */
  dispose(): void {
    this.waiting.clear();
  }
}

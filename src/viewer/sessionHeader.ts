/**
 * The header a session sends with a model. A small model's comes with `init`. A large one's totals (runs,
 * tokens, cost, tool calls: a summary that walks every event, about a second at a million events) would hold
 * back the rows the webview asks for right after `init`, so `init` carries the facts that need no summary and
 * the full header follows once the first rows have gone out. vscode-free (the HTML report runs it too).
 */
import type { TraceModel } from '../core/loadTrace';
import type { HeaderInfo, HostMessage } from '../protocol';
import { cachedHeaderOf, headerOf, quickHeaderOf } from './sessionModelInfo';

/** Models with more events than this get their totals after their first rows. */
export const COUNT_AFTER_ROWS_ABOVE = 100_000;
/** When no rows are asked for (a panel in the background), the totals are counted after this long anyway. */
const COUNT_ANYWAY_MS = 1000;

/** What the header needs from its session. */
export interface SessionHeaderDeps {
  model(): TraceModel | null;
  modelVersion(): number;
  post(msg: HostMessage): void;
}

/** See the file comment. */
export class SessionHeader {
  private pending: TraceModel | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deps: SessionHeaderDeps,
    private readonly countAfterRowsAbove = COUNT_AFTER_ROWS_ABOVE,
  ) {}

  /** The header to send with `init` for `model`; for a large model not counted yet, the quick one (`counting`). */
  forInit(model: TraceModel): HeaderInfo {
    const known = cachedHeaderOf(model);
    if (known || model.events.size <= this.countAfterRowsAbove) {
      this.cancel();
      return known ?? headerOf(model);
    }
    this.pending = model;
    this.schedule(COUNT_ANYWAY_MS);
    return quickHeaderOf(model);
  }

  /** Rows went out: the pending totals are counted next, after the rows message has been handed over. */
  afterRows(): void {
    if (this.pending) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), ms);
  }

  private cancel(): void {
    this.pending = null;
    clearTimeout(this.timer);
  }

  private flush(): void {
    const model = this.pending;
    this.cancel();
    // A newer model replaced it meanwhile: its own init said what to count.
    if (!model || model !== this.deps.model()) return;
    this.deps.post({ type: 'header', modelVersion: this.deps.modelVersion(), header: headerOf(model) });
  }
}

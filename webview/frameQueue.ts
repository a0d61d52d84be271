/**
 * DOM work spread over animation frames: tasks run in order, as many per frame as fit in a time budget (at
 * least one), so a page of transcript blocks that arrives mid-scroll costs a few milliseconds in each of the
 * next frames instead of one long frame. Work is done in the frame callback, before the browser's own style
 * and layout, so nothing outside it writes to the DOM between frames and reads of scroll metrics in scroll
 * handlers find layout clean.
 */

/** How much a frame takes from the queue: the time its tasks may run, and at most how many run. */
export interface FrameBudget {
  /** Milliseconds of tasks per frame (at least one task runs). */
  ms: number;
  /** Tasks per frame at most: what a task adds costs style, layout and paint later in the same frame too. */
  tasks: number;
}

/** See the file comment. */
export class FrameQueue {
  private tasks: (() => void)[] = [];
  private frame = 0;
  private settleFrame = 0;

  /**
   * @param settled called at the start of the frame after the last task ran (layout is clean then), e.g. to
   *   look at the scroll position again.
   */
  constructor(private readonly settled: () => void, private readonly budget: FrameBudget) {}

  /** Tasks still waiting. */
  get busy(): boolean {
    return this.tasks.length > 0;
  }

  /** Queues tasks to run in the coming frames. */
  push(...tasks: (() => void)[]): void {
    this.tasks.push(...tasks);
    cancelAnimationFrame(this.settleFrame);
    this.settleFrame = 0;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.run());
  }

  /** Runs every waiting task now (a jump to a block that is still queued needs it in the DOM). */
  flush(): void {
    while (this.tasks.length > 0) this.tasks.shift()!();
  }

  /** Drops every waiting task. */
  clear(): void {
    this.tasks = [];
    cancelAnimationFrame(this.frame);
    cancelAnimationFrame(this.settleFrame);
    this.frame = this.settleFrame = 0;
  }

  private run(): void {
    this.frame = 0;
    const end = performance.now() + this.budget.ms;
    let n = 0;
    do this.tasks.shift()?.();
    while (this.tasks.length > 0 && ++n < this.budget.tasks && performance.now() < end);
    if (this.tasks.length > 0) this.frame = requestAnimationFrame(() => this.run());
    else this.settleFrame = requestAnimationFrame(() => {
      this.settleFrame = 0;
      this.settled();
    });
  }
}

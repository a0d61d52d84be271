/** Back and forward through the events the user looked at (Alt+← / Alt+→), by line. Pure. */
const MAX = 200;

/** See the file comment. */
export class SelectionHistory {
  private readonly past: number[] = [];
  private readonly future: number[] = [];
  private current: number | null = null;
  private arriving: number | null = null;

  /** A selection was shown; going back/forward to it does not fork the history. */
  visit(line: number): void {
    if (line === this.current) return;
    if (line === this.arriving) {
      this.current = line;
      this.arriving = null;
      return;
    }
    this.arriving = null;
    if (this.current !== null) this.past.push(this.current);
    if (this.past.length > MAX) this.past.shift();
    this.future.length = 0;
    this.current = line;
  }

  /** There is an earlier event to go back to. */
  get canBack(): boolean {
    return this.past.length > 0;
  }

  /** There is a later event to go forward to (after going back). */
  get canForward(): boolean {
    return this.future.length > 0;
  }

  back(): number | null {
    const line = this.past.pop();
    if (line === undefined) return null;
    if (this.current !== null) this.future.push(this.current);
    this.current = line;
    this.arriving = line;
    return line;
  }

  forward(): number | null {
    const line = this.future.pop();
    if (line === undefined) return null;
    if (this.current !== null) this.past.push(this.current);
    this.current = line;
    this.arriving = line;
    return line;
  }
}

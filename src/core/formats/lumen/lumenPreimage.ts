/**
 * The hash pre-image (§6.1–6.2) of a line in the fast reader's subset, written from the line's own bytes: the
 * fourteen hashed keys in sorted order, each value its bytes in the line (already canonical there), absent keys as
 * null. The text between values depends only on which keys are present, so it is laid out once per set of
 * present keys (a plan) and kept in the same buffer as the output, where `copyWithin` moves each piece natively.
 */
import { Buffer } from 'buffer';
import { sha256Hex } from '../../io/platform';
import { SLOT } from './lumenFields';

/** The fourteen hashed keys in sorted order (all but `hash` and `timestamp`). */
const HASHED = ['cached', 'cell', 'details', 'doc_hash', 'inputs_hash', 'kind', 'latency_ms', 'message', 'outputs_hash', 'policy_hash', 'prev_hash', 'seq', 'tool_id', 'tool_version'] as const;
const HASHED_SLOTS = Int32Array.from(HASHED, (k) => SLOT[k]);
/** Room for the plans' fixed text at the start of the buffer (a plan's is under 300 bytes). */
const CONST_BYTES = 1 << 16;
/** More than the fixed text of any plan: the pre-image is at most the line's length plus this. */
const SLACK = 512;

/** The spans of one line's values, as LumenFastLine holds them (`present[slot]` nonzero when the key is there). */
export interface ValueSpans {
  buf: Buffer;
  start: Int32Array;
  end: Int32Array;
  present(slot: number): boolean;
}

export class LumenPreimage {
  private scratch = Buffer.alloc(CONST_BYTES + 4 * SLACK);
  private constEnd = 0;
  /**
   * Plan per mask of present hashed keys: triples (0, start, end) for fixed text at `scratch[start, end)` and
   * (1, slot, 0) for a value.
   */
  private plans = new Map<number, Int32Array>();
  /** Views of the output by length, so that hashing makes no view per line. */
  private views: Buffer[] = [];

  /** Lowercase hex SHA-256 of the line's pre-image. */
  hex(v: ValueSpans): string {
    let mask = 0;
    for (let i = 0; i < HASHED_SLOTS.length; i++) if (v.present(HASHED_SLOTS[i])) mask |= 1 << i;
    const plan = this.plans.get(mask) ?? this.makePlan(mask);
    const buf = v.buf;
    const lineAt = CONST_BYTES + buf.length + SLACK;
    if (lineAt + buf.length > this.scratch.length) this.grow(lineAt + buf.length);
    const s = this.scratch;
    s.set(buf, lineAt);
    let at = CONST_BYTES;
    for (let k = 0; k < plan.length; k += 3) {
      const fixed = plan[k] === 0;
      const from = fixed ? plan[k + 1] : lineAt + v.start[plan[k + 1]];
      const to = fixed ? plan[k + 2] : lineAt + v.end[plan[k + 1]];
      s.copyWithin(at, from, to);
      at += to - from;
    }
    const n = at - CONST_BYTES;
    const view = (this.views[n] ??= s.subarray(CONST_BYTES, at));
    return sha256Hex(view);
  }

  private makePlan(mask: number): Int32Array {
    // Fixed texts and values in turn: text, slot, text, …, text.
    const texts: string[] = [];
    const slots: number[] = [];
    let text = '{';
    for (let i = 0; i < HASHED.length; i++) {
      text += `${i === 0 ? '' : ','}"${HASHED[i]}":`;
      if ((mask & (1 << i)) === 0) {
        text += 'null';
        continue;
      }
      texts.push(text);
      slots.push(HASHED_SLOTS[i]);
      text = '';
    }
    texts.push(text + '}');
    const total = texts.reduce((n, t) => n + t.length, 0);
    if (this.constEnd + total > CONST_BYTES) {
      // Full (only a file with hundreds of key sets gets here): start again; the plans are made anew as needed.
      this.plans.clear();
      this.constEnd = 0;
    }
    const steps: number[] = [];
    texts.forEach((t, k) => {
      const start = this.constEnd;
      this.constEnd += this.scratch.write(t, start, 'latin1');
      steps.push(0, start, this.constEnd);
      if (k < slots.length) steps.push(1, slots[k], 0);
    });
    const plan = Int32Array.from(steps);
    this.plans.set(mask, plan);
    return plan;
  }

  private grow(need: number): void {
    const next = Buffer.alloc(need * 2);
    this.scratch.copy(next, 0, 0, this.constEnd);
    this.scratch = next;
    this.views = [];
  }
}

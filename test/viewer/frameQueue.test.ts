import { strict as assert } from 'node:assert';
import { FrameQueue } from '../../webview/frameQueue';

/** A hand-driven requestAnimationFrame: `frame()` runs the callbacks asked for before it, as a browser frame does. */
function fakeFrames(): { frame: () => void; pending: () => number; restore: () => void } {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = [g.requestAnimationFrame, g.cancelAnimationFrame];
  let next = 1;
  let callbacks = new Map<number, () => void>();
  g.requestAnimationFrame = (f: () => void) => {
    callbacks.set(next, f);
    return next++;
  };
  g.cancelAnimationFrame = (id: number) => callbacks.delete(id);
  return {
    frame: () => {
      const now = callbacks;
      callbacks = new Map();
      for (const f of now.values()) f();
    },
    pending: () => callbacks.size,
    restore: () => ([g.requestAnimationFrame, g.cancelAnimationFrame] = saved),
  };
}

describe('webview state: frame queue (transcript pages built over frames, issue 15)', () => {
  let frames: ReturnType<typeof fakeFrames>;
  beforeEach(() => (frames = fakeFrames()));
  afterEach(() => frames.restore());

  it('runs tasks in order, at most the budget count a frame, then tells once that it settled', () => {
    const ran: number[] = [];
    let settled = 0;
    const q = new FrameQueue(() => settled++, { ms: 1000, tasks: 3 });
    q.push(...[0, 1, 2, 3, 4, 5, 6].map((i) => () => ran.push(i)));
    assert.deepEqual(ran, [], 'nothing runs before a frame');
    const perFrame: number[] = [];
    for (let f = 0; f < 4; f++) {
      const before = ran.length;
      frames.frame();
      perFrame.push(ran.length - before);
    }
    assert.deepEqual(perFrame, [3, 3, 1, 0]);
    assert.deepEqual(ran, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(settled, 1, 'settled in the frame after the last task, once');
    assert.equal(q.busy, false);
    frames.frame();
    assert.equal(settled, 1);
  });

  it('stops a frame when its time is spent, but always runs one task', () => {
    const ran: number[] = [];
    const q = new FrameQueue(() => undefined, { ms: 5, tasks: 100 });
    const slow = (i: number) => () => {
      const end = performance.now() + 8;
      while (performance.now() < end);
      ran.push(i);
    };
    q.push(slow(0), slow(1), slow(2));
    frames.frame();
    assert.deepEqual(ran, [0]);
    frames.frame();
    assert.deepEqual(ran, [0, 1]);
  });

  it('flush runs every waiting task now; clear drops them and the settled call', () => {
    const ran: number[] = [];
    let settled = 0;
    const q = new FrameQueue(() => settled++, { ms: 1000, tasks: 1 });
    q.push(() => ran.push(0), () => ran.push(1), () => ran.push(2));
    frames.frame();
    q.flush();
    assert.deepEqual(ran, [0, 1, 2]);
    assert.equal(q.busy, false);
    q.push(() => ran.push(3));
    q.clear();
    frames.frame();
    frames.frame();
    assert.deepEqual(ran, [0, 1, 2]);
    assert.equal(settled, 0, 'a cleared queue never reports settled');
    assert.equal(frames.pending(), 0);
  });

  it('tasks pushed while settling wait for their own frames; settled comes after the last of them', () => {
    const ran: string[] = [];
    const q = new FrameQueue(() => ran.push('settled'), { ms: 1000, tasks: 10 });
    q.push(() => ran.push('a'));
    frames.frame();
    q.push(() => ran.push('b'));
    frames.frame();
    frames.frame();
    assert.deepEqual(ran, ['a', 'b', 'settled']);
  });
});

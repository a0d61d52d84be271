// Live tail (issue 14 item 6): the tree of a growing trace is extended by the appended events, and whatever the
// appended events do to the links (children of old and new events, missing parents, a parent that arrives later,
// a repeated id, a self-parent, a large append), the model equals one read of the whole file.
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { openTraceReader } from '../../src/core/traceReader';
import { overlaidEvents } from '../../src/core/treeAppend';
import { modelDigest } from '../helpers/modelDigest';
import { tempFile } from '../helpers/tmp';

const line = (id: string, parent: string | null) => `${JSON.stringify({ id, parent_id: parent, kind: 'step' })}\n`;
/** Thirty events in a chain: enough lines for detection to be settled. */
const BASE = Array.from({ length: 30 }, (_, i) => line(`e${i}`, i ? `e${i - 1}` : null)).join('');

/** Appends each chunk in turn; after each, the model must equal a whole read. Returns, per append, whether the tree was extended. */
async function follow(chunks: string[]): Promise<boolean[]> {
  const path = tempFile('events.jsonl', BASE);
  const reader = await openTraceReader(path);
  const extended: boolean[] = [];
  for (const chunk of chunks) {
    appendFileSync(path, chunk);
    const r = await reader.append();
    assert.equal(r.kind, 'appended', r.kind === 'needs-full-read' ? r.reason : '');
    extended.push(overlaidEvents(reader.model.tree) !== null);
    const whole = await loadTrace(path);
    assert.deepStrictEqual(modelDigest(reader.model), modelDigest(whole), `after appending ${JSON.stringify(chunk.slice(0, 80))}`);
    // The flat children lists the usage passes walk, too.
    assert.deepStrictEqual([[...reader.model.tree.childStart], [...reader.model.tree.childList]], [[...whole.tree.childStart], [...whole.tree.childList]]);
  }
  return extended;
}

describe('treeAppend: the tree of a growing trace', () => {
  it('extends the tree by children of old and new events and by new roots, append after append', async () => {
    const chunks = [line('a1', 'e5'), line('a2', 'a1') + line('a3', 'a1'), line('r1', null), line('a4', 'e29') + line('a5', 'r1'), line('a6', 'a2')];
    assert.deepEqual(await follow(chunks), [true, true, true, true, true]);
  });

  it('extends it by an event whose parent is missing (a finding), and builds it whole once that parent arrives', async () => {
    const extended = await follow([line('d1', 'later'), line('d2', 'd1'), line('later', 'e3'), line('x', 'later')]);
    assert.deepEqual(extended, [true, true, false, true]);
  });

  it('builds it whole for a repeated id, and extends it by an event that names itself', async () => {
    assert.deepEqual(await follow([line('s1', 's1'), line('e7', 'e2'), line('n1', 'e7')]), [true, false, true]);
  });

  it('builds it whole after a large append, and extends that tree again', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => line(`m${i}`, `e${i % 30}`)).join('');
    assert.deepEqual(await follow([line('b1', 'e1'), many, line('b2', 'm4999')]), [true, false, true]);
  });

  it('a Claude Code session appended a few lines at a time: the session shape and the parentUuid links equal a whole read', async () => {
    const src = readFileSync(resolve('test/corpus/claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl'), 'utf8').split('\n').filter(Boolean);
    const path = tempFile('87aba006-238f-4834-a6fa-3396f07d36f4.jsonl', src.slice(0, 22).join('\n') + '\n');
    const reader = await openTraceReader(path);
    for (let k = 22; k < src.length; k += 4) {
      appendFileSync(path, src.slice(k, k + 4).join('\n') + '\n');
      const r = await reader.append();
      assert.equal(r.kind, 'appended', r.kind === 'needs-full-read' ? r.reason : '');
      assert.deepStrictEqual(modelDigest(reader.model), modelDigest(await loadTrace(path)), `after line ${k + 4}`);
    }
    assert.ok(reader.model.events.hasDisplayParents());
  });
});

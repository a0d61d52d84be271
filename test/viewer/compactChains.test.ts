import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import type { DetailMessage, HostMessage, InitMessage, RowsMessage, RowsStateMessage } from '../../src/protocol';
import { compactChains, maxDepth } from '../../src/viewer/compactChains';
import { RowProjection } from '../../src/viewer/rowModel';
import { buildRows, treeSourceOf } from '../../src/viewer/traceRows';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { corpusPath } from '../helpers/corpus';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const NO_DECO = { badgeOfLine: () => undefined, isMatch: () => false };

/** Claude Code transcripts written by the real CLI (test/corpus) and the shared corpus's sample. */
function claudeTranscripts(): string[] {
  const out: string[] = [corpusPath('other/claude-code/sample_session.jsonl')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.includes('/projects/') && p.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(resolve('test/corpus/claude-code-2.1.332'));
  return out;
}

function session() {
  const sent: HostMessage[] = [];
  const noop = () => undefined;
  const s = new ViewerSession({ post: (m) => sent.push(m), revealInTextEditor: noop, copy: noop, openExternal: noop, runChecks: noop, openAsText: noop, reload: noop, openBlob: noop });
  const last = <T extends HostMessage['type']>(type: T) => [...sent].reverse().find((m) => m.type === type) as Extract<HostMessage, { type: T }> | undefined;
  const rows = async (): Promise<RowsMessage> => {
    const st = [...sent].reverse().find((m) => m.type === 'rowsState' || m.type === 'init') as RowsStateMessage | InitMessage;
    await s.handle({ type: 'requestRows', rowsVersion: st.rowsVersion, start: 0, count: 2000 });
    return last('rows')!;
  };
  return { s, sent, last, rows };
}

/** A real Claude Code transcript read as a generic trace: its parentUuid links, one level per message, are its tree. */
const asGeneric = (f: string) => loadTrace(f, { format: 'generic' });

describe('viewer rows: compact view of linear parent chains', () => {
  const files = claudeTranscripts();

  it('bounds the depth of every real Claude Code transcript read as a generic trace, which staircases one level per message', async () => {
    assert.ok(files.length >= 7, `${files.length} transcripts`);
    let deepest = 0;
    for (const f of files) {
      const model = await asGeneric(f);
      assert.equal(model.format, 'generic', f);
      const real = maxDepth(treeSourceOf(model));
      const compact = maxDepth(compactChains(treeSourceOf(model)));
      deepest = Math.max(deepest, real);
      assert.ok(compact <= 2, `${f}: compact depth ${compact} (real ${real})`);
    }
    assert.ok(deepest >= 12, `the staircase is real: depth ${deepest}`);
  });

  it('keeps every event reachable, each once, and each chained row right below its real parent', async () => {
    for (const f of files) {
      const model = await asGeneric(f);
      const rows = new RowProjection(treeSourceOf(model, true));
      rows.expandAll();
      const page = buildRows(model, rows, 0, 2000, NO_DECO, null);
      assert.equal(page.length, model.events.size + model.malformed.length, f);
      assert.equal(new Set(page.map((r) => r.node)).size, page.length, `${f}: no event twice`);
      for (let k = 0; k < page.length; k++) {
        const r = page[k];
        if (r.node >= 0) assert.equal(r.parent, model.events.parent(r.node), `${f}: rows carry the real parent`);
        if (r.chained) assert.equal(page[k - 1].node, r.parent, `${f} line ${r.line}: a chained row follows its parent`);
      }
    }
  });

  it('opens generic traces compact by default (FormatModule.linearChains), murmur and Claude Code not; the toggle switches, the detail keeps the real parent', async () => {
    const { s, sent, last, rows } = session();
    await s.handle({ type: 'ready', state: null });
    const file = files.find((f) => f.includes('subagent/projects') && !f.includes('subagents'))!;
    const model = await asGeneric(file);
    s.setModel(model);
    assert.equal(last('init')!.compactChains, true);
    const compact = (await rows()).rows;
    assert.ok(Math.max(...compact.map((r) => r.depth)) <= 2);
    let deep = 0;
    for (let i = 0; i < model.events.size; i++) if (model.tree.depth(i) > model.tree.depth(deep)) deep = i;
    assert.ok(model.tree.depth(deep) >= 12);
    await s.handle({ type: 'select', node: deep });
    for (let i = 0; i < 100 && !last('detail'); i++) await new Promise((r) => setTimeout(r, 10));
    const d = (last('detail') as DetailMessage).detail;
    assert.equal(d.parent?.node, model.events.parent(deep), 'the detail pane names the real parent');
    await s.handle({ type: 'setCompactChains', compact: false });
    const st = last('rowsState')!;
    assert.equal(st.reveal?.node, deep, 'the selected event stays in view');
    const real = (await rows()).rows;
    assert.ok(Math.max(...real.map((r) => r.depth)) >= 12, 'off: the real tree');
    assert.equal(real.length, compact.length, 'the same events either way');
    sent.length = 0;
    s.setModel(model);
    assert.equal(last('init')!.compactChains, false, 'the choice holds for this viewer across new models (appends)');
    const murmur = session();
    await murmur.s.handle({ type: 'ready', state: null });
    murmur.s.setModel(await loadTrace(corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl')));
    assert.equal(murmur.last('init')!.compactChains, false, 'murmur nests by structure, not by message chains');
    const claude = session();
    await claude.s.handle({ type: 'ready', state: null });
    claude.s.setModel(await loadTrace(file));
    assert.equal(claude.last('init')!.compactChains, false, 'Claude Code is shown in its session shape (display parents), no chain');
  });

  it('a generic trace: a call and its single result continue the inference at its depth', async () => {
    const model = await loadTrace(SAMPLE, { format: 'generic' });
    const rows = new RowProjection(treeSourceOf(model, true));
    rows.expandAll();
    const page = buildRows(model, rows, 0, 100, NO_DECO, null);
    assert.deepEqual(page.slice(0, 6).map((r) => [r.line, r.depth, r.chained === true]), [[1, 0, false], [2, 1, false], [3, 1, false], [4, 1, true], [5, 1, true], [6, 1, false]]);
  });
});

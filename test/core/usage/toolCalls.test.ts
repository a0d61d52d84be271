import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageRollupOf } from '../../../src/core/usage/rollup';
import { toolCallsOf } from '../../../src/core/usage/toolStats';
import { corpusPath } from '../../helpers/corpus';

describe('tool calls paired by call id', () => {
  it('Claude Code transcript: every tool_result is folded into the tool_use whose id it names, one call per tool_use, by the session shape', async () => {
    const file = corpusPath('other', 'claude-code', 'sample_session.json');
    const blocks = (JSON.parse(readFileSync(file, 'utf8')).loglines as { message?: { content?: unknown } }[])
      .flatMap((l) => (Array.isArray(l.message?.content) ? (l.message!.content as Record<string, unknown>[]) : []));
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const results = blocks.filter((b) => b.type === 'tool_result');
    assert.ok(uses.length > 5 && results.length > 5);
    const model = await loadTrace(file);
    const t = model.events;
    const { calls, callOf } = toolCallsOf(t, usageRollupOf(model));
    assert.equal(calls.length, uses.length);
    // The event that mentions each tool_use id as its own content id, and those that name it as their call id.
    const useEvent = new Map<string, number>();
    let paired = 0;
    for (let i = 0; i < t.size; i++) {
      for (const m of t.mentions.of(i)) if (/content\[\d+\]\.id$/.test(m.field) && !useEvent.has(m.id)) useEvent.set(m.id, i);
    }
    for (let i = 0; i < t.size; i++) {
      const named = t.mentions.of(i).find((m) => m.field.endsWith('tool_use_id'));
      if (!named) continue;
      assert.equal(callOf[i], useEvent.get(named.id), `line ${t.lineOf(i)} belongs to the call of ${named.id}`);
      if (t.parent(i) === useEvent.get(named.id)) paired++;
    }
    // The file names no parents (no parentUuid): the session shape puts each result under its call.
    assert.equal(paired, results.length, 'every result is shown under its call');
  });
});

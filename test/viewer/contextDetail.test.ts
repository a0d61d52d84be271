import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildDetail } from '../../src/viewer/eventDetail';
import { writerFiles } from '../helpers/writerCorpus';

type Obj = Record<string, any>;
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

describe('viewer: the detail of a model step carries what the model saw', () => {
  it('Claude Code: a model step\'s detail has its context split; its tool call\'s has none', async () => {
    const path = writerFiles('claude-code').find((p) => p.includes(join('subagent', 'projects')) && !p.includes('subagents'))!;
    const raw = linesOf(path);
    const model = await loadTrace(path);
    const t = model.events;
    const steps = [...Array(t.size).keys()].filter((i) => t.categoryOf(i) === 'inference');
    // The second response, worked out from its raw line.
    const second = raw.filter((v) => v.type === 'assistant').map((v) => v.message).filter((m, k, all) => all.findIndex((x) => x.id === m.id) === k)[1];
    const u = second.usage;
    const d = await buildDetail(model, steps[1], []);
    assert.ok(d.context, 'a model step has a context');
    const c = d.context;
    assert.equal(c.total, u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);
    assert.equal(c.cacheRead, u.cache_read_input_tokens);
    assert.equal(c.cacheWrite, u.cache_creation_input_tokens);
    assert.equal(c.uncached, u.input_tokens);
    const first = raw.find((v) => v.type === 'assistant')!.message.usage;
    assert.equal(c.delta, c.total - (first.input_tokens + first.cache_read_input_tokens + first.cache_creation_input_tokens));
    assert.equal(c.ordinal, 2);
    assert.deepEqual(JSON.parse(JSON.stringify(c)), c, 'the payload is plain JSON');
    const tool = [...Array(t.size).keys()].find((i) => t.categoryOf(i) === 'tool')!;
    assert.equal((await buildDetail(model, tool, [])).context, null);
  });

  it('Codex: a reasoning item shows the call its token_count records', async () => {
    const path = writerFiles('codex').find((p) => p.includes(join('shell-ok', 'sessions')))!;
    const tc = linesOf(path).find((v) => v.type === 'event_msg' && v.payload?.type === 'token_count')!.payload.info.last_token_usage;
    const model = await loadTrace(path);
    const reasoning = [...Array(model.events.size).keys()].find((i) => model.events.kindOf(i) === 'reasoning')!;
    const d = await buildDetail(model, reasoning, []);
    assert.equal(d.context?.total, tc.input_tokens);
    assert.equal(d.context?.cacheRead, tc.cached_input_tokens);
    assert.equal(d.context?.delta, null);
  });
});

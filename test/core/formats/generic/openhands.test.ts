import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { treeJson } from '../../../../src/cli/treeJson';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { corpusPath } from '../../../helpers/corpus';

type Obj = Record<string, any>;
const DIR = corpusPath('outside/openhands');
const FILES = readdirSync(DIR).filter((n) => n.endsWith('.jsonl')).map((n) => join(DIR, n));
const runsOf = (f: string): Obj[] => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

async function withTemp(text: string, f: (p: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'openhands-'));
  try {
    writeFileSync(join(dir, 'events.jsonl'), text);
    await f(join(dir, 'events.jsonl'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('generic: OpenHands cause', () => {
  for (const file of FILES) {
    it(`${file.replace(/^.*outside\//, '')}: each line is a run, its history nested by cause`, async () => {
      const runs = runsOf(file);
      const m = await loadTrace(file);
      const nodes = treeJson(m).nodes;
      let i = 0;
      runs.forEach((run, r) => {
        const runNode = nodes[i++];
        assert.deepEqual([runNode.kind, runNode.id, runNode.line, runNode.parentIndex], ['run', run.instance_id, r + 1, null]);
        const indexOf = new Map<number, number>();
        for (const e of run.history) {
          const n = nodes[i];
          indexOf.set(e.id, i++);
          assert.equal(n.line, r + 1);
          assert.equal(n.id, `${run.instance_id}#${e.id}`);
          assert.equal(n.parentIndex, typeof e.cause === 'number' ? indexOf.get(e.cause) : runNode.index, `event ${e.id}`);
        }
      });
      assert.equal(nodes.length, i);
      const t = summarize(m).totals;
      assert.equal(t.toolCalls, runs.flatMap((r) => r.history).filter((e) => e.action && e.tool_call_metadata).length);
      assert.equal(t.inputTokens, runs.reduce((s, r) => s + r.metrics.accumulated_token_usage.prompt_tokens, 0));
      for (const mode of ['verify', 'check'] as const) assert.deepEqual((await runChecks(m, mode)).findings.filter((f) => f.severity !== 'info'), [], mode);
    });
  }

  it('an OpenHands event stream, one event per line, nests by cause; a lost action is found at its observation', async () => {
    const history: Obj[] = runsOf(FILES[0])[0].history;
    const lines = history.map((e) => JSON.stringify(e));
    await withTemp(lines.join('\n') + '\n', async (p) => {
      const nodes = treeJson(await loadTrace(p)).nodes;
      const lineOfId = new Map(history.map((e, k) => [e.id, k + 1]));
      history.forEach((e, k) => assert.equal(nodes[k].parentLine, typeof e.cause === 'number' ? lineOfId.get(e.cause) : null, `line ${k + 1}`));
    });
    const lost = history.findIndex((e, k) => k > 0 && history.some((o) => o.cause === e.id));
    const orphan = history.filter((_, k) => k !== lost).findIndex((e) => e.cause === history[lost].id) + 1;
    await withTemp(lines.filter((_, k) => k !== lost).join('\n') + '\n', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      assert.ok(r.findings.some((f) => f.rule === 'tree/dangling-parent' && f.line === orphan), JSON.stringify(r.findings));
    });
  });

  it('a string cause is prose, not a parent id', async () => {
    await withTemp('{"id":"a","type":"step"}\n{"id":"b","type":"error","cause":"a"}\n', async (p) => {
      const nodes = treeJson(await loadTrace(p)).nodes;
      assert.deepEqual(nodes.map((n) => n.parentIndex), [null, null]);
    });
  });
});

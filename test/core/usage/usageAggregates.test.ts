import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { usageMismatches } from '../../../src/core/usage/usageChecks';
import { runChecks } from '../../../src/core/formatRules';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';
import { tempFile } from '../../helpers/tmp';

interface Attr { key: string; value: { intValue?: number; stringValue?: string } }
interface Span { name: string; traceId: string; attributes: Attr[] }

/** The otel-js export with its spans edited by `edit` (the real writer's file, one number changed). */
async function editedOtlp(edit: (spans: Span[]) => void) {
  const doc = JSON.parse(readFileSync(join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.json'), 'utf8'));
  edit(doc.resourceSpans[0].scopeSpans[0].spans);
  return loadTrace(tempFile('traces.json', JSON.stringify(doc, null, 2)));
}
const setAttr = (s: Span, key: string, v: number | null): void => {
  s.attributes = s.attributes.filter((a) => a.key !== key);
  if (v !== null) s.attributes.push({ key, value: { intValue: v } });
};

describe('usage: a parent aggregate never adds to its children', () => {
  it('an agent span that disagrees with its calls is reported, and the calls count', async () => {
    const m = await editedOtlp((spans) => setAttr(spans.find((s) => s.name.startsWith('invoke_agent'))!, 'gen_ai.usage.input_tokens', 4000));
    const u = usageReport(m);
    assert.equal(u.total.inputTokens, 2 * 3808, 'the calls: 1840 + 1968 per trace');
    const mm = usageMismatches(m);
    assert.equal(mm.length, 1);
    assert.match(mm[0].message, /3,808 input tokens \(it records 4,000\)/);
    assert.equal(m.events.kindOf(mm[0].index), 'invoke_agent');
  });

  it('an agent span whose calls carry no usage stands for them (counted once, as the aggregate)', async () => {
    const first = 'a9065bae4c1bb31d36accda75c8fc44c';
    const m = await editedOtlp((spans) => {
      for (const s of spans) if (s.traceId === first && s.name.startsWith('chat')) for (const k of ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens']) setAttr(s, k, null);
    });
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens], [3808 + 3808, 105 + 105], 'trace 1 by its agent span, trace 2 by its calls');
    assert.deepEqual(u.byModel.map((x) => [x.model, x.calls]).sort(), [['gpt-5', 1], ['gpt-5-2025-08-07', 2]], 'the agent span names its requested model');
    assert.equal(u.complete, true, 'the uncounted calls are covered by the counted agent span');
    assert.deepEqual(usageMismatches(m), []);
  });

  it('murmur: a session_end that disagrees is an info finding (generic/usage-totals) at its line', async () => {
    const text = readFileSync(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'), 'utf8');
    const edited = text.replace('"total_input_tokens":1683', '"total_input_tokens":1700');
    assert.notEqual(edited, text);
    const p = tempFile('trace.jsonl', edited);
    const m = await loadTrace(p);
    const findings = (await runChecks(m, 'check')).findings.filter((f) => f.rule === 'generic/usage-totals');
    const endLine = edited.split('\n').findIndex((l) => l.includes('"session_end"')) + 1;
    assert.deepEqual(findings.map((f) => [f.line, f.severity]), [[endLine, 'info']]);
    assert.match(findings[0].message, /1,683 input tokens \(it records 1,700\)/);
    assert.equal(usageReport(m).total.inputTokens, 1683, 'the rollup counts the events, not the totals line');
  });

  it('murmur: task_end (an aggregate of its parent task) counts only when the turns report nothing', async () => {
    const text = readFileSync(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'), 'utf8');
    const lines = text.split('\n').map((l) => (l.includes('"event_type":"inference"') ? l.replace(/"(input|output)_tokens":\d+,/g, '') : l));
    const m = await loadTrace(tempFile('trace.jsonl', lines.join('\n')));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens], [1683, 76], 'task_end input_tokens/output_tokens');
    assert.deepEqual(usageMismatches(m), [], 'session_end agrees with the task_end that counted');
  });
});

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { corpusPath } from '../../helpers/corpus';
import { tempFile } from '../../helpers/tmp';

const lines = (p: string): Record<string, unknown>[] => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

describe('retry counts', () => {
  it('agentledger: each step_retry_scheduled is a recorded retry (side-effect-idempotency: attempt 1 failed, attempt 2 claimed)', async () => {
    const file = corpusPath('agentledger', 'side-effect-idempotency', 'events.jsonl');
    const rows = lines(file);
    const scheduled = rows.filter((r) => r.type === 'step_retry_scheduled');
    const claims = rows.filter((r) => r.type === 'step_claimed').map((r) => (r.payload as { attempt: number }).attempt);
    assert.deepEqual(claims, [1, 2], 'the writer claimed the step twice');
    const u = usageReport(await loadTrace(file));
    assert.deepEqual(u.retries, { total: scheduled.length, source: 'recorded' });
    assert.equal(scheduled.length, 1);
  });

  it('Claude Code (records no retries): a Bash call after a failed Bash call is an inferred retry', async () => {
    const file = corpusPath('other', 'claude-code', 'sample_session.json');
    const blocks = (JSON.parse(readFileSync(file, 'utf8')).loglines as { message?: { content?: unknown } }[])
      .flatMap((l) => (Array.isArray(l.message?.content) ? (l.message!.content as Record<string, unknown>[]) : []));
    const failed = new Set(blocks.filter((b) => b.type === 'tool_result' && b.is_error === true).map((b) => b.tool_use_id));
    const bash = blocks.filter((b) => b.type === 'tool_use' && b.name === 'Bash');
    const afterFailure = bash.filter((_, k) => k > 0 && failed.has(bash[k - 1].id)).length;
    assert.equal(afterFailure, 1);
    const u = usageReport(await loadTrace(file));
    assert.equal(u.retries.source, 'inferred');
    assert.equal(u.byTool.find((t) => t.tool === 'Bash')!.retries, afterFailure);
    assert.equal(u.byTool.find((t) => t.tool === 'Edit')!.retries, 0, 'no Edit call failed');
  });

  it('murmur: a harness_retry line is a recorded retry, and the heuristic is then off', async () => {
    const text = readFileSync(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'), 'utf8');
    const rows = text.split('\n').filter((l) => l.trim());
    const start = JSON.parse(rows[0]) as { session_id: string; event_id: string; timestamp: number };
    const retry = { event_type: 'harness_retry', event_id: 'evt_019b76daa80078f79da1494c73cf2570', parent_id: start.event_id, session_id: start.session_id, timestamp: start.timestamp + 1, task_id: null, attempt: 2, reason: 'provider overloaded' };
    const m = await loadTrace(tempFile('trace.jsonl', [rows[0], JSON.stringify(retry), ...rows.slice(1)].join('\n') + '\n'));
    assert.deepEqual(usageReport(m).retries, { total: 1, source: 'recorded' });
    assert.deepEqual(usageReport(await loadTrace(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'))).retries, { total: 0, source: 'inferred' });
  });
});

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { exactNumberText, numberToken, u64TokenProblem } from '../../../src/core/json/numberToken';
import { loadTrace } from '../../../src/core/loadTrace';
import { runChecks } from '../../../src/core/formatRules';
import { tempFile } from '../../helpers/tmp';
import { corpusPath } from '../../helpers/corpus';

describe('numbers beyond 2^53 print as written (issue 19 item 11)', () => {
  it('finds the token of a key and judges it as serde u64 would', () => {
    const text = '{"v":1,"record":{"seq": 18446744073709551616,"occurred_at_ms":1e+299,"event":{"seq":3}}}';
    assert.equal(numberToken(text, 'seq'), '18446744073709551616');
    assert.equal(numberToken(text, 'occurred_at_ms'), '1e+299');
    assert.equal(numberToken('{"seq":"7"}', 'seq'), null);
    assert.equal(u64TokenProblem('18446744073709551615'), null);
    assert.match(u64TokenProblem('18446744073709551616')!, /larger than u64/);
    assert.match(u64TokenProblem('1e+299')!, /floating point `1e\+299`/);
    assert.match(u64TokenProblem('-1')!, /invalid value: integer `-1`/);
    assert.equal(exactNumberText(JSON.parse('9007199254740993'), '{"seq":9007199254740993}', 'seq'), '9007199254740993');
    assert.equal(exactNumberText(12, '{"seq":12}', 'seq'), '12');
  });

  it('harness-ledger verify prints big seqs exactly and refuses 1e+299 and 2^64 as u64', async () => {
    const lines = readFileSync(corpusPath('harness-ledger/tool-failed.jsonl'), 'utf8').split('\n');
    lines[2] = lines[2].replace('"seq":2', '"seq":9007199254740993');
    lines[3] = lines[3].replace('"seq":3', '"seq":1e+299');
    lines[4] = lines[4].replace('"seq":4', '"seq":18446744073709551616');
    const model = await loadTrace(tempFile('bigseq.jsonl', lines.join('\n')), { format: 'harness-ledger' });
    const messages = (await runChecks(model, 'verify')).findings.filter((f) => f.line >= 3 && f.line <= 5).map((f) => `${f.line} ${f.message}`);
    assert.ok(messages.includes('3 event sequence mismatch: expected 2, actual 9007199254740993'), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('4 invalid type: floating point `1e+299`, expected u64')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('5 invalid value: integer `18446744073709551616` is larger than u64')), messages.join('\n'));
    assert.ok(!messages.some((m) => /18446744073709552000|expected 1e\+299/.test(m)), messages.join('\n'));
  });
});

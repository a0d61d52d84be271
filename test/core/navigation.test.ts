import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { IdLookup, isIdKey, stringTokenAt } from '../../src/core/navigation';
import { tempFile } from '../helpers/tmp';

describe('stringTokenAt', () => {
  const line = '{"id":"a1","parent_id":"root","tags":["x","y"],"nested":{"call_id":"c\\"9"},"n":3}';
  it('finds the value under the cursor with its key', () => {
    const at = line.indexOf('root') + 1;
    assert.deepEqual(stringTokenAt(line, at), { value: 'root', key: 'parent_id', start: line.indexOf('"root"'), end: line.indexOf('"root"') + 6 });
  });
  it('gives array elements the array key and decodes escapes', () => {
    assert.equal(stringTokenAt(line, line.indexOf('"y"') + 1)?.key, 'tags');
    const t = stringTokenAt(line, line.indexOf('c\\"9'));
    assert.deepEqual([t?.value, t?.key], ['c"9', 'call_id']);
  });
  it('returns null on keys, numbers and punctuation', () => {
    assert.equal(stringTokenAt(line, 2), null);
    assert.equal(stringTokenAt(line, line.length - 2), null);
  });
  it('tolerates a torn line', () => {
    assert.equal(stringTokenAt('{"parent_id":"abc', 15)?.value, 'abc');
  });
});

describe('IdLookup', () => {
  it('maps ids to their defining event and to every event that mentions them', async () => {
    const m = await loadTrace(tempFile('t.jsonl', '{"id":"r"}\n{"id":"a","parent_id":"r"}\n{"id":"b","parent_id":"r"}\n{"id":"c","parent_id":"a"}\n'));
    const look = new IdLookup(m);
    assert.deepEqual(look.find('r'), { definition: 0, references: [0, 1, 2] });
    assert.deepEqual(look.find('a'), { definition: 1, references: [1, 3] });
    assert.equal(look.find('zzz'), null);
  });
  it('recognises id keys', () => {
    for (const k of ['id', 'event_id', 'parentUuid', 'tool_use_id', 'spanId', 'call_id', 'causal_token']) assert.ok(isIdKey(k), k);
    for (const k of ['name', 'text', 'model']) assert.ok(!isIdKey(k), k);
  });
});

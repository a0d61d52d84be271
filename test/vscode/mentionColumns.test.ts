import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { idMentionColumns } from '../../src/vscode/language/mentionColumns';
import { corpusPath } from '../helpers/corpus';

describe('Find All References: each row previews the mention, not the line start', () => {
  it('points at the id inside its quotes on a real murmur line, where its parent is named', () => {
    const lines = readFileSync(corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl'), 'utf8').split('\n');
    const id = 'evt_019b76daa80078f79da1494c73cf256d';
    const line = lines[1];
    const c = idMentionColumns(line, id);
    assert.ok(c && c.start > 40, `the mention is not at the line start: ${JSON.stringify(c)}`);
    assert.equal(line.slice(c.start, c.end), id);
    assert.match(line.slice(0, c.start), /"parent_id":"$/, 'the preview shows the field that names it');
    assert.equal(idMentionColumns(line, 'evt_not_here'), null);
  });
});

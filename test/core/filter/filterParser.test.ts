import { strict as assert } from 'node:assert';
import { parseFilter } from '../../../src/core/filter/filterParser';
import { compileFilter } from '../../../src/core/filter/filterCompile';
import { FilterError } from '../../../src/core/filter/filterSyntax';
import type { FilterSubject } from '../../../src/core/filter/filterFields';

/** The 1-based column a bad expression is reported at, and its reason. */
function failure(expr: string): { column: number; reason: string } {
  try {
    compileFilter(expr);
  } catch (err) {
    if (err instanceof FilterError) return { column: err.column, reason: err.reason };
    throw err;
  }
  assert.fail(`no error for ${expr}`);
}

const base: FilterSubject = {
  kind: 'tool_call', category: 'tool', status: 'ok', tool: 'shell', model: null, id: 'call_1', label: 'shell npm test exit 1',
  group: 'run-1', durationMs: 912, tokensIn: null, tokensOut: null, line: 150, seq: 7,
};
const test = (expr: string, s: Partial<FilterSubject> = {}, hit = false) => compileFilter(expr)!.test({ ...base, ...s }, () => hit);

describe('filter language: parser', () => {
  it('reads space as "and", "or" looser than "and", "-" and "not" as negation, parentheses', () => {
    assert.deepEqual(parseFilter('a:1 b:2 or c:3'), {
      type: 'or',
      items: [
        { type: 'and', items: [
          { type: 'term', field: 'a', op: ':', value: '1', quoted: false, column: 1, valueColumn: 3 },
          { type: 'term', field: 'b', op: ':', value: '2', quoted: false, column: 5, valueColumn: 7 },
        ] },
        { type: 'term', field: 'c', op: ':', value: '3', quoted: false, column: 12, valueColumn: 14 },
      ],
    });
    const neg = parseFilter('-kind:x not (tool:y)');
    assert.equal(neg?.type, 'and');
    if (neg?.type === 'and') assert.deepEqual(neg.items.map((n) => n.type), ['not', 'not']);
  });

  it('reads quoted values with escapes and bare words as text', () => {
    const t = parseFilter('text:"say \\"hi\\" (now)"');
    assert.deepEqual(t, { type: 'term', field: 'text', op: ':', value: 'say "hi" (now)', quoted: true, column: 1, valueColumn: 6 });
    assert.deepEqual(parseFilter('timeout'), { type: 'term', field: 'text', op: ':', value: 'timeout', quoted: false, column: 1, valueColumn: 1 });
    assert.equal(parseFilter('   '), null);
  });

  it('reports the column of the bad token', () => {
    assert.deepEqual(failure('kind:a (tool:b'), { column: 8, reason: '"(" is never closed' });
    assert.deepEqual(failure('kind:a )'), { column: 8, reason: 'unmatched ")"' });
    assert.deepEqual(failure('kind:a text:"abc'), { column: 13, reason: 'unterminated quote' });
    assert.deepEqual(failure('kind:a or'), { column: 10, reason: '"or" needs a term after it' });
    assert.deepEqual(failure('or kind:a'), { column: 1, reason: '"or" needs a term before it' });
    assert.deepEqual(failure('kind: x'), { column: 6, reason: '"kind:" needs a value' });
    assert.equal(failure('colour:red').column, 1);
    assert.match(failure('colour:red').reason, /unknown field "colour" \(fields: kind, status/);
    assert.deepEqual(failure('status:error status:eror'), { column: 21, reason: 'unknown status "eror" (ok, warning, error, problems)' });
    assert.deepEqual(failure('duration>5x'), { column: 10, reason: '"5x" is not a number (units: ms, s, m, h)' });
    assert.deepEqual(failure('line:10..2.5'), { column: 10, reason: '"2.5" is not a whole number' });
    assert.deepEqual(failure('kind>3'), { column: 1, reason: '"kind" takes ":" (not ">")' });
    assert.deepEqual(failure('line:200..100'), { column: 6, reason: 'the range starts after it ends' });
  });

  it('does not overflow the stack on deep nesting or hang on long input', () => {
    assert.match(failure('('.repeat(2000) + 'a' + ')'.repeat(2000)).reason, /nested deeper than 100/);
    assert.match(failure('-'.repeat(500) + 'a').reason, /nested deeper than 100/);
    assert.match(failure('a '.repeat(6000)).reason, /longer than 10000/);
  });
});

describe('filter language: evaluation of one subject', () => {
  it('matches names exactly or by glob, case-insensitively, with comma alternatives', () => {
    assert.equal(test('kind:tool_call'), true);
    assert.equal(test('kind:TOOL_CALL'), true);
    assert.equal(test('kind:tool'), false);
    assert.equal(test('kind:tool*'), true);
    assert.equal(test('kind:inference,tool_call'), true);
    assert.equal(test('model:claude*'), false, 'no model never matches');
    assert.equal(test('model:claude*', { model: 'claude-sonnet-4-5' }), true);
    assert.equal(test('kind:"tool*"'), false, 'quoted glob is literal');
    assert.equal(test('label:npm'), true, 'labels match contained text');
  });

  it('compares numbers with units and ranges; a missing number never matches', () => {
    assert.equal(test('duration>500ms'), true);
    assert.equal(test('duration>912'), false);
    assert.equal(test('duration>=912'), true);
    assert.equal(test('duration<1s'), true);
    assert.equal(test('duration>0.9s'), true);
    assert.equal(test('tokens>1k'), false);
    assert.equal(test('tokens>1k', { tokensIn: 900, tokensOut: 101 }), true);
    assert.equal(test('tokens>1k', { tokensIn: 900, tokensOut: 100 }), false);
    assert.equal(test('-tokens>1k'), true);
    assert.equal(test('line:100..200'), true);
    assert.equal(test('line:151..'), false);
    assert.equal(test('line:..150'), true);
    assert.equal(test('line:150'), true);
    assert.equal(test('seq:7'), true);
  });

  it('counts findings on the line for status, and combines with and/or/not', () => {
    assert.equal(test('status:error'), false);
    assert.equal(test('status:error', { badge: 'error' }), true);
    assert.equal(test('status:problems', { status: 'warning' }), true);
    assert.equal(test('status:ok', { badge: 'warning' }), false);
    assert.equal(test('kind:x or tool:shell'), true);
    assert.equal(test('kind:x tool:shell'), false);
    assert.equal(test('not (kind:x or tool:shell)'), false);
    assert.equal(test('(kind:x or tool:shell) -status:error'), true);
  });

  it('finds text in the label, id and tool, or where the caller says the line holds it', () => {
    assert.equal(test('text:"NPM TEST"'), true);
    assert.equal(test('call_1'), true);
    assert.equal(test('text:timeout'), false);
    assert.equal(test('text:timeout', {}, true), true);
    assert.deepEqual(compileFilter('text:A kind:1 or Timeout')?.needles, ['a', 'timeout']);
  });
});

import { strict as assert } from 'node:assert';
import { claudeSchemaProblems } from '../../../../src/core/formats/claude-code/claudeSchemas';

// Found by `npm run fuzz` (its prototype-name mutation): a line typed `constructor` made `check` exit 2 with
// "schema.safeParse is not a function".
describe('claude-code schemas: a type named like an Object.prototype member names no schema', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    it(`a line of type ${name}, and a content block of type ${name}: no crash, no schema problem`, () => {
      assert.deepEqual(claudeSchemaProblems({ type: name }), []);
      assert.deepEqual(claudeSchemaProblems({ type: 'assistant', uuid: 'u', message: { role: 'assistant', content: [{ type: name }] } }).filter((p) => p.startsWith('message.content')), []);
    });
  }
});

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { allRules } from '../../../src/core/formatRules';
import { renderRulesDoc } from '../../../src/core/checks/rulesDoc';

describe('rule catalog', () => {
  it('has unique, well-formed ids with a summary and an explanation each', () => {
    const rules = allRules();
    const ids = rules.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.filter((x, i) => ids.indexOf(x) !== i).join(', ')}`);
    for (const r of rules) {
      assert.match(r.id, /^[a-z0-9-]+\/[a-z0-9-]+$/, r.id);
      assert.ok(r.summary.length > 5, `${r.id} summary`);
      assert.ok(r.explanation.length > 20, `${r.id} explanation`);
      assert.ok(['error', 'warning', 'info'].includes(r.severity), `${r.id} severity`);
    }
  });

  it('docs/rules.md is generated from the catalog (run `npm run docs:rules`)', () => {
    assert.equal(readFileSync('docs/rules.md', 'utf8'), renderRulesDoc(allRules()));
  });
});

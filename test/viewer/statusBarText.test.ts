// The status bar item's text for the active viewer (issue 40): real check results over a real trace.
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runChecks } from '../../src/core/formatRules';
import { statusBarText } from '../../src/viewer/statusBarText';

const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');
const BROKEN = resolve('test/fixtures/viewer/sample.jsonl');

describe('status bar text of the active trace viewer', () => {
  it('format, events, selected line and an intact verdict, no background', async () => {
    const model = await loadTrace(CLAUDE);
    const result = await runChecks(model, 'verify');
    assert.equal(result.findings.filter((f) => f.severity !== 'info').length, 0, 'the corpus file verifies');
    const t = statusBarText({ format: model.format, events: model.events.size, selectedLine: 14, checks: [{ mode: 'verify', result, stale: false }] });
    assert.equal(t.text, `$(list-tree) claude-code · ${model.events.size} events · Ln 14 · $(pass) verified`);
    assert.equal(t.tone, null);
    assert.match(t.tooltip, /Verification: no findings/);
    assert.match(t.tooltip, /Click to verify/);
    const none = statusBarText({ format: 'claude-code', events: 1, selectedLine: null, checks: [] });
    assert.equal(none.text, '$(list-tree) claude-code · 1 event · $(circle-large-outline) not checked');
  });

  it('a failed verdict counts errors and warnings on the error background; outdated results say so', async () => {
    const model = await loadTrace(BROKEN);
    const result = await runChecks(model, 'verify');
    const errors = result.findings.filter((f) => f.severity === 'error').length;
    assert.ok(errors > 0, 'the fixture has an unparseable line');
    const t = statusBarText({ format: model.format, events: 12345, selectedLine: null, checks: [{ mode: 'verify', result, stale: true }] });
    assert.match(t.text, new RegExp(`^\\$\\(list-tree\\) generic · 12,345 events · \\$\\(error\\) ${errors} errors?.* \\(outdated\\)$`));
    assert.equal(t.tone, 'error');
    assert.match(t.tooltip, /outdated: the trace grew/);
    const warningOnly = { ...result, findings: [{ rule: 'parse/torn-tail', severity: 'warning' as const, line: 3, message: 'cut' }] };
    const w = statusBarText({ format: 'generic', events: 3, selectedLine: 3, checks: [{ mode: 'check', result: warningOnly, stale: false }] });
    assert.equal(w.text, '$(list-tree) generic · 3 events · Ln 3 · $(warning) 1 warning');
    assert.equal(w.tone, 'warning');
  });
});

import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** A real Claude Code 2.1.332 transcript with a subagent: 35 events, a parentUuid staircase 15 deep. */
const CLAUDE = resolve('test/corpus/claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');

describe('viewer: compact view of linear chains (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('opens a Claude Code transcript read as a generic chain as a run of rows with thread lines, and toggles back to the staircase', async () => {
    // Read as a generic trace: its parentUuid links then form the staircase (Claude Code itself is shown as a session).
    const v = await view(CLAUDE, { width: 1100, height: 900, format: 'generic' });
    const levels = async () => v.page.$$eval('.row[data-node]:not([hidden])', (rs: Any[]) => rs.map((r) => Number(r.getAttribute('aria-level'))));
    const compact = await levels();
    assert.ok(compact.length >= 35, `${compact.length} rows`);
    assert.ok(Math.max(...compact) <= 3, `compact levels ${Math.max(...compact)}`);
    assert.ok((await v.page.$$('.row.chained')).length >= 15, 'chained rows carry the thread marker');
    const button = 'vscode-toolbar-button[label="Compact Linear Chains"]';
    assert.equal(await v.page.$eval(button, (b: Any) => b.getAttribute('aria-pressed')), 'true');
    const labelWidth = await v.page.$eval('.row[data-line="3"] .label', (e: Any) => e.getBoundingClientRect().width);
    await v.screenshot('compact-chains-claude');
    const since = v.received.length;
    await v.page.click(button);
    await v.waitForHost('rowsState', () => true, since);
    await v.settle();
    assert.equal(v.sent.filter((m) => m.type === 'setCompactChains').length, 1);
    const real = await levels();
    assert.ok(Math.max(...real) >= 13, `off: the staircase, level ${Math.max(...real)}`);
    assert.equal(v.savedState?.compactChains, false, 'the choice is kept in the webview state');
    await v.screenshot('compact-chains-off');
    assert.ok(labelWidth > 150, `labels keep their room in compact view (${labelWidth}px)`);
  });
});

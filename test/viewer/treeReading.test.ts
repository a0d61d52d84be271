import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { SessionHost, ViewerSession } from '../../src/viewer/viewerSession';
import type { DetailMessage, HostMessage, InitMessage } from '../../src/protocol';
import { CLAUDE_SHELL_FAIL, corpusFile, GEMINI_SHELL_FAIL } from '../helpers/treeCorpus';

function stubHost(): SessionHost & { sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  const none = () => undefined;
  return { sent, post: (m) => sent.push(m), revealInTextEditor: none, copy: none, openExternal: none, runChecks: none, openAsText: none, reload: none, openBlob: none };
}

async function until<T>(f: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function openCorpus(dir: string): Promise<{ host: ReturnType<typeof stubHost>; s: ViewerSession }> {
  const host = stubHost();
  const s = new ViewerSession(host);
  await s.handle({ type: 'ready', state: null });
  s.setModel(await loadTrace(corpusFile(dir)));
  return { host, s };
}

describe('tree reading: the first open (real corpus files)', () => {
  it('Claude Code opens on its first message, not on a queue-operation line, and the detail pane shows it', async () => {
    const { host } = await openCorpus(CLAUDE_SHELL_FAIL);
    const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
    assert.notEqual(init.selectedNode, null, 'something is selected on open');
    const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail'), 'detail');
    assert.equal(d.detail.kind, 'user');
    assert.equal(d.detail.line, 3);
  });

  it('Gemini CLI opens on its first event (the session header); a restored selection wins over it', async () => {
    const { host, s } = await openCorpus(GEMINI_SHELL_FAIL);
    const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail'), 'detail');
    assert.equal(d.detail.line, 1);
    const again = stubHost();
    const s2 = new ViewerSession(again);
    await s2.handle({ type: 'ready', state: { selectedLine: 3, topLine: null, expandedLines: null, expandedAll: false, detailTab: 'content', splitPosition: null, findQuery: '', filter: { kinds: [], status: 'all' }, showChecks: false, contentRaw: false } });
    s2.setModel(await loadTrace(corpusFile(GEMINI_SHELL_FAIL)));
    const d2 = await until(() => again.sent.find((m): m is DetailMessage => m.type === 'detail'), 'detail');
    assert.equal(d2.detail.line, 3);
    void s;
  });
});

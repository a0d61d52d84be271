import { strict as assert } from 'node:assert';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { linkLines, nodes, runAll } from '../../../fixtures/other/harness';
import { summarize } from '../../../../src/core/summary';
import { tempDir } from '../../../helpers/tmp';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

/** A real session with a subagent: `<project>/<session>.jsonl` and `<project>/<session>/subagents/agent-*.jsonl`. */
const SUBAGENT = writerFiles('claude-code').find((f) => /\/subagents\/agent-[^/]+\.jsonl$/.test(f))!;
const SESSION_DIR = dirname(dirname(SUBAGENT));
const MAIN = `${SESSION_DIR}.jsonl`;

/** Copies the session (main file and its folder) into a fresh project directory. */
function copySession(): { main: string; sub: string } {
  const project = tempDir('claude-project-');
  cpSync(MAIN, join(project, basename(MAIN)));
  cpSync(SESSION_DIR, join(project, basename(SESSION_DIR)), { recursive: true });
  return { main: join(project, basename(MAIN)), sub: join(project, basename(SESSION_DIR), 'subagents', basename(SUBAGENT)) };
}

function editLine(path: string, index: number, edit: (v: any) => void): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const v = JSON.parse(lines[index]);
  edit(v);
  lines[index] = JSON.stringify(v);
  writeFileSync(path, lines.join('\n'));
}

const found = async (path: string, mode: 'verify' | 'check') => (await runAll(path, mode)).map((f) => `${f.rule}/${f.severity}@${f.line}`);

describe('claude-code folder view: parents across a session\'s files', () => {
  const agentCall = jsonLines(MAIN).find((l) => l.value.type === 'assistant' && l.value.message.content.some((b: any) => b.name === 'Agent'))!;

  it('a subagent whose first line names a main-session line (as older versions write) verifies clean beside its session', async () => {
    const { sub } = copySession();
    editLine(sub, 0, (v) => (v.parentUuid = agentCall.value.uuid));
    assert.deepEqual(await found(sub, 'verify'), []);
  });

  it('opening that subagent file: the loader says its parent is in the session file, not missing', async () => {
    const { main, sub } = copySession();
    editLine(sub, 0, (v) => (v.parentUuid = agentCall.value.uuid));
    const m = await loadTrace(sub);
    assert.deepEqual(m.diagnostics.map((d) => `${d.rule}/${d.severity}@${d.line}`), ['tree/parent-elsewhere/info@1']);
    assert.match(m.diagnostics[0].message, new RegExp(basename(main).replace('.', '\\.')));
    rmSync(main);
    assert.deepEqual((await loadTrace(sub)).diagnostics.map((d) => `${d.rule}/${d.severity}@${d.line}`), ['tree/dangling-parent/warning@1']);
  });

  it('the same subagent without its session file: the parent is missing, at line 1', async () => {
    const { main, sub } = copySession();
    editLine(sub, 0, (v) => (v.parentUuid = agentCall.value.uuid));
    rmSync(main);
    assert.deepEqual(await found(sub, 'verify'), ['claude/parent-exists/warning@1']);
  });

  it('a compaction agent file (agent-acompact-*) whose parent is the session\'s last message verifies clean', async () => {
    const { main } = copySession();
    const last = jsonLines(main).filter((l) => l.value.uuid).pop()!;
    const compact = join(dirname(main), basename(SESSION_DIR), 'subagents', 'agent-acompact-5f1e2d3c4b5a6978.jsonl');
    const line = { parentUuid: last.value.uuid, isSidechain: true, agentId: 'acompact-5f1e2d3c4b5a6978', type: 'user', message: { role: 'user', content: 'Summarize the conversation.' }, uuid: 'c0ffee00-0000-4000-8000-000000000001', timestamp: '2026-12-01T16:25:25.000Z', sessionId: last.value.sessionId };
    writeFileSync(compact, JSON.stringify(line) + '\n');
    assert.deepEqual(await found(compact, 'verify'), []);
  });

  it('the subagent\'s meta.json names the Agent tool call of its session; another id is a subagent-link warning', async () => {
    const { sub } = copySession();
    assert.deepEqual(await found(sub, 'verify'), []);
    const meta = sub.replace(/\.jsonl$/, '.meta.json');
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), toolUseId: 'toolu_not_in_session' }));
    assert.deepEqual(await found(sub, 'verify'), ['claude/subagent-link/warning@1']);
  });
});

describe('claude-code compaction: compact_boundary with parentUuid null stays in the tree through logicalParentUuid', () => {
  /** Inserts a compact boundary after the first assistant line and re-parents the next message onto it. */
  function compacted(logicalParent: (uuid: string) => string): { file: string; at: number; before: number } {
    const lines = readFileSync(MAIN, 'utf8').trimEnd().split('\n');
    const i = lines.findIndex((l) => JSON.parse(l).type === 'assistant');
    const prev = JSON.parse(lines[i]);
    const boundary = { parentUuid: null, logicalParentUuid: logicalParent(prev.uuid), isSidechain: false, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: prev.timestamp, uuid: 'b0d00000-0000-4000-8000-00000000000c', level: 'info', compactMetadata: { trigger: 'auto', preTokens: 9000 }, sessionId: prev.sessionId };
    const next = lines.findIndex((l, j) => j > i && JSON.parse(l).parentUuid === prev.uuid);
    const out = [...lines];
    out[next] = JSON.stringify({ ...JSON.parse(out[next]), parentUuid: boundary.uuid });
    out.splice(i + 1, 0, JSON.stringify(boundary));
    const dir = tempDir('claude-compact-');
    const file = join(dir, basename(MAIN));
    writeFileSync(file, out.join('\n') + '\n');
    return { file, at: i + 2, before: i + 1 };
  }

  it('the boundary links to its logical parent and starts no new tree of links; it is shown as a boundary row', async () => {
    const { file, at, before } = compacted((u) => u);
    const m = await loadTrace(file);
    assert.equal(linkLines(m)[at - 1], before);
    assert.equal(summarize(m).roots, summarize(await loadTrace(MAIN)).roots, 'as many roots as before the compaction');
    assert.deepEqual(await found(file, 'verify'), []);
    // Shown as a root, with what follows it up to the next prompt inside it (a result of a call made before it
    // stays under that call).
    const n = nodes(m);
    assert.equal(n[at - 1].parentLine, null);
    const lines = jsonLines(file);
    const next = lines.find((l) => l.line > at && l.value.type === 'user' && typeof l.value.message.content === 'string')!;
    let inside = 0;
    for (const { line, value } of lines.filter((l) => l.line > at && l.line < next.line)) {
      let a = line - 1;
      while (m.events.parent(a) >= 0) a = m.events.parent(a);
      const earlierCall = Array.isArray(value.message?.content) && value.message.content.some((b: any) => b.type === 'tool_result') && n[line - 1].parentLine! < at;
      assert.ok(m.events.lineOf(a) === at || earlierCall, `line ${line} inside the boundary`);
      if (m.events.lineOf(a) === at) inside++;
    }
    assert.ok(inside >= 5, `${inside} lines inside`);
  });

  it('a logical parent in none of the session\'s files is reported as info at the boundary', async () => {
    const { file, at } = compacted(() => 'd0d00000-0000-4000-8000-00000000dead');
    assert.deepEqual(await found(file, 'verify'), [`claude/logical-parent/info@${at}`]);
  });
});

describe('claude-code: the Agent result names its subagent', () => {
  it('the tool_result of the Agent call mentions the agentId that every line of the subagent file carries', async () => {
    const m = await loadTrace(MAIN);
    const result = jsonLines(MAIN).find((l) => l.value.toolUseResult?.agentId)!;
    const agentId = result.value.toolUseResult.agentId;
    assert.ok(m.events.get(result.line - 1).mentions.some((x) => x.field === 'toolUseResult.agentId' && x.id === agentId));
    assert.ok(jsonLines(SUBAGENT).every((l) => l.value.agentId === agentId || l.value.agentId === undefined));
    assert.equal(basename(SUBAGENT), `agent-${agentId}.jsonl`);
  });
});

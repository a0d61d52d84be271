// The session shape of Claude Code files: session → turn → model step → tool call → result, shown as display
// parents while each line keeps its parentUuid as its recorded link. Checked on every real-writer file against
// counts made here from the raw JSON, and by deleting lines of a real session and diffing.
import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { treeJson } from '../../../../src/cli/treeJson';
import { diffTraces } from '../../../../src/core/diff/diffTraces';
import { loadTrace } from '../../../../src/core/loadTrace';
import type { TraceModel } from '../../../../src/core/traceModel';
import { mutateLines } from '../../../fixtures/other/harness';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const FILES = writerFiles('claude-code');
const isStream = (path: string) => jsonLines(path)[0].value.session_id !== undefined;
const TRANSCRIPTS = FILES.filter((f) => !isStream(f));
const STREAMS = FILES.filter(isStream);
const rel = (f: string) => f.slice(f.indexOf('claude-code-'));

const blocks = (v: any): any[] => (Array.isArray(v.message?.content) ? v.message.content : []);
const textOf = (v: any): string => (typeof v.message?.content === 'string' ? v.message.content : blocks(v).filter((b) => b.type === 'text').map((b) => b.text).join(' '));

/**
 * A prompt, from the raw line: a user line that holds no tool_result, is no meta or compact-summary line, and is no
 * interruption marker or command output.
 */
function isPrompt(v: any): boolean {
  if (v.type !== 'user' || v.isMeta === true || v.isCompactSummary === true) return false;
  if (blocks(v).some((b) => b.type === 'tool_result')) return false;
  return !/^\s*(\[Request interrupted by user|<(local-command|bash)-(stdout|stderr)>)/.test(textOf(v));
}

function depths(m: TraceModel): number[] {
  const out: number[] = [];
  for (let i = 0; i < m.events.size; i++) out.push(m.events.parent(i) < 0 ? 0 : out[m.events.parent(i)] + 1);
  return out;
}

/** The line of the first assistant line holding each tool_use id, from the raw lines. */
function toolUseLines(lines: { line: number; value: any }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { line, value } of lines) {
    if (value.type !== 'assistant') continue;
    for (const b of blocks(value)) if (b.type === 'tool_use' && !out.has(b.id)) out.set(b.id, line);
  }
  return out;
}

/** Events removed or added between the file and the file without line `k` (1-based): rows a diff reports. */
async function rowsChangedWithout(file: string, k: number): Promise<number> {
  const cut = mutateLines(file, (ls) => ls.filter((_, i) => i !== k - 1), basename(file));
  const d = await diffTraces(await loadTrace(file), await loadTrace(cut));
  return d.summary.inserted + d.summary.deleted + d.summary.changed;
}

describe('claude-code: the session shape on every real-writer file', () => {
  it('finds transcripts and stream-json files', () => {
    assert.ok(TRANSCRIPTS.length >= 6 && STREAMS.length >= 6, `${TRANSCRIPTS.length} transcripts, ${STREAMS.length} streams`);
  });

  for (const file of FILES) {
    it(`${rel(file)}: at most 5 levels deep; every tool_result under its tool_use; each response one step`, async () => {
      const m = await loadTrace(file);
      const lines = jsonLines(file);
      const depth = depths(m);
      assert.ok(Math.max(...depth) <= 5, `depth ${Math.max(...depth)}`);
      const parentLine = (line: number) => (m.events.parent(line - 1) < 0 ? null : m.events.lineOf(m.events.parent(line - 1)));
      // Results: counted from the raw lines, each under the line holding its call.
      const uses = toolUseLines(lines);
      let results = 0;
      for (const { line, value } of lines) {
        const ids = value.type === 'user' ? blocks(value).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [];
        const call = ids.map((id) => uses.get(id)).find((l) => l !== undefined && l < line);
        if (call === undefined) continue;
        results++;
        assert.equal(parentLine(line), call, `line ${line}: the result of ${ids[0]}`);
      }
      assert.equal(results, lines.filter((l) => l.value.type === 'user' && blocks(l.value).some((b) => b.type === 'tool_result')).length, 'every result found its call');
      let under = 0;
      for (let i = 0; i < m.events.size; i++) if (m.events.categoryOf(i) === 'tool' && m.events.kindOf(i) === 'user' && m.events.kindOf(m.events.parent(i)) === 'assistant') under++;
      assert.equal(under, results, 'tool results shown under an assistant line');
      // Responses: the lines of one message.id are one step, the first line holding the others.
      const first = new Map<string, number>();
      for (const { line, value } of lines) {
        if (value.type !== 'assistant' || !value.message?.id) continue;
        const f = first.get(value.message.id);
        if (f === undefined) {
          first.set(value.message.id, line);
          const p = parentLine(line);
          assert.ok(p === null || lines[p - 1].value.message?.id !== value.message.id, `line ${line} starts a step`);
        } else assert.equal(parentLine(line), f, `line ${line} continues the response of line ${f}`);
      }
    });
  }

  for (const file of TRANSCRIPTS) {
    it(`${rel(file)}: one turn per prompt, holding every line up to the next; tree --json keeps parentUuid as parentId`, async () => {
      const m = await loadTrace(file);
      const lines = jsonLines(file);
      const prompts = lines.filter((l) => isPrompt(l.value)).map((l) => l.line);
      assert.ok(prompts.length >= 1);
      // Claude Code's own turn ids agree: one promptId per prompt, where the writer records them.
      const promptIds = new Set(lines.filter((l) => isPrompt(l.value) && l.value.promptId).map((l) => l.value.promptId));
      // (A fork's copy of its origin's prompt carries the fork's own promptId: Claude Code rewrites it.)
      const fork = lines.some((l) => typeof l.value.requestSessionId === 'string' && l.value.requestSessionId !== l.value.sessionId);
      if (promptIds.size > 0 && !fork) assert.equal(promptIds.size, prompts.length);
      const turns = [...m.tree.roots].filter((i) => prompts.includes(m.events.lineOf(i)));
      assert.equal(turns.length, prompts.length, 'each prompt is a root');
      // Every line after a prompt is inside the latest prompt's turn (a line before the first is a root).
      for (const { line } of lines) {
        let top = line - 1;
        while (m.events.parent(top) >= 0) top = m.events.parent(top);
        const turn = prompts.filter((p) => p <= line).pop();
        assert.equal(m.events.lineOf(top), turn ?? line, `line ${line}`);
      }
      const json = treeJson(m).nodes;
      for (const { line, value } of lines) assert.equal(json[line - 1].parentId, value.parentUuid ?? value.logicalParentUuid ?? null, `line ${line}: parentId`);
    });
  }

  for (const file of STREAMS) {
    it(`${rel(file)}: each run's init a root, holding its steps; a subagent inside its Agent call`, async () => {
      const m = await loadTrace(file);
      const lines = jsonLines(file);
      const inits = lines.filter((l) => l.value.type === 'system' && l.value.subtype === 'init').map((l) => l.line);
      assert.deepEqual([...m.tree.roots].map((i) => m.events.lineOf(i)), inits);
      const uses = toolUseLines(lines);
      for (const { line, value } of lines) {
        let a = line - 1;
        const ancestors: number[] = [];
        while (m.events.parent(a) >= 0) ancestors.push(m.events.lineOf((a = m.events.parent(a))));
        if (value.parent_tool_use_id) assert.ok(ancestors.includes(uses.get(value.parent_tool_use_id)!), `line ${line} inside its Agent call`);
        else if (value.type === 'assistant') assert.ok(ancestors.length <= 2, `line ${line}: a step of its run`);
      }
    });
  }
});

describe('claude-code: the session shape of parallel tool calls', () => {
  /** The shell-ok file with its Bash call made twice in one response: two tool_use lines, then two results. */
  function parallel(file: string): string {
    return mutateLines(file, (ls) => {
      const values = ls.map((l) => JSON.parse(l));
      const call = values.findIndex((v) => v.type === 'assistant' && blocks(v).some((b) => b.type === 'tool_use'));
      const result = values.findIndex((v) => v.type === 'user' && blocks(v).some((b) => b.type === 'tool_result'));
      const id = blocks(values[call]).find((b) => b.type === 'tool_use').id as string;
      const again = (l: string) => l.split(id).join(`${id}_2`).replace(/"uuid":"[0-9a-f]/, '"uuid":"f');
      return [...ls.slice(0, call + 1), again(ls[call]), ...ls.slice(call + 1, result + 1), again(ls[result]), ...ls.slice(result + 1)];
    }, basename(file));
  }

  for (const file of [TRANSCRIPTS, STREAMS].map((fs) => fs.find((f) => f.includes('shell-ok'))!)) {
    it(`${rel(file)}: each result under its own call, both calls in the response's step`, async () => {
      const m = await loadTrace(parallel(file));
      const lines = jsonLines(parallel(file));
      const uses = toolUseLines(lines);
      const results = lines.filter((l) => blocks(l.value).some((b) => b.type === 'tool_result'));
      assert.equal(results.length, 2);
      assert.equal(uses.size, 2);
      for (const r of results) {
        const call = uses.get(blocks(r.value).find((b) => b.type === 'tool_result').tool_use_id)!;
        assert.equal(m.events.lineOf(m.events.parent(r.line - 1)), call);
      }
      const [a, b] = [...uses.values()];
      assert.equal(m.events.parent(a - 1), m.events.parent(b - 1), 'both calls continue one step');
    });
  }
});

describe('claude-code: deleting one line of a real session changes one or two rows of the diff', () => {
  const file = TRANSCRIPTS.find((f) => f.includes('subagent') && !f.includes('subagents'))!;

  it('a line of the parentUuid chain in the middle: one row (when every line hung under the one before, every row after it)', async () => {
    const lines = jsonLines(file);
    const named = new Set(lines.map((l) => l.value.parentUuid));
    const chain = lines.filter((l) => l.value.type === 'attachment' && named.has(l.value.uuid));
    const middle = chain.reduce((a, b) => (Math.abs(b.line - lines.length / 2) < Math.abs(a.line - lines.length / 2) ? b : a));
    const after = lines.filter((l) => l.line > middle.line).length;
    assert.ok(after >= 10, `${after} lines after line ${middle.line}`);
    assert.equal(await rowsChangedWithout(file, middle.line), 1);
  });

  it('any other line but a prompt: one row, or for a line that holds others (a response\'s first line, a call) those too', async () => {
    const m = await loadTrace(file);
    const held = new Array<number>(m.events.size).fill(0);
    for (let i = m.events.size - 1; i >= 0; i--) if (m.events.parent(i) >= 0) held[m.events.parent(i)] += 1 + held[i];
    let one = 0;
    for (const { line, value } of jsonLines(file)) {
      if (isPrompt(value)) continue;
      const rows = await rowsChangedWithout(file, line);
      // What the line holds moves up one level: each such line is a row deleted and one inserted.
      if (held[line - 1] === 0) assert.equal(rows, 1, `line ${line} (${value.type})`);
      else assert.ok(rows <= 1 + 2 * held[line - 1], `line ${line} (${value.type}): ${rows} rows`);
      if (rows === 1) one++;
    }
    assert.ok(one >= 25, `${one} lines`);
  });
});

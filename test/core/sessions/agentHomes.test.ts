import { strict as assert } from 'node:assert';
import { agentHomes, globRegExp, HOMES_NOT_IN_PATTERNS, patternsMatching, projectFolderOf, sessionPatterns } from '../../../src/core/sessions/agentHomes';
import { FORMAT_LIST, FORMATS } from '../../../src/core/formats';
import type { FormatModule } from '../../../src/core/format';

describe('agent homes: where agents keep their sessions, from the formats\' fileNamePatterns', () => {
  it('derives each home a pattern names, and adds only the homes no pattern names', () => {
    const homes = agentHomes();
    for (const h of ['.claude/projects', '.gemini/tmp', '.qwen/projects', '.copilot/session-state', '.pi/agent/sessions', '.continue/sessions']) assert.ok(homes.includes(h), h);
    // Codex's pattern is a base name (rollout-*.jsonl): its home is in the short list.
    assert.ok(homes.includes('.codex/sessions'));
    assert.deepEqual(homes.slice(-HOMES_NOT_IN_PATTERNS.length).filter((h) => !HOMES_NOT_IN_PATTERNS.includes(h)), []);
    assert.deepEqual([...HOMES_NOT_IN_PATTERNS], ['.codex/sessions'], 'every other home comes from a pattern');
  });

  it('picks up a format added with a pattern, with no change to the catalog', () => {
    const added = { ...FORMATS.codex, name: 'newagent', fileNamePatterns: ['**/.newagent/sessions/**/*.jsonl'] } as unknown as FormatModule;
    assert.ok(!agentHomes().includes('.newagent/sessions'));
    assert.ok(agentHomes([...FORMAT_LIST, added]).includes('.newagent/sessions'));
    const pats = sessionPatterns([...FORMAT_LIST, added]);
    assert.deepEqual(patternsMatching('/home/me/.newagent/sessions/p/2026/x.jsonl', pats).map((p) => p.format), ['newagent']);
    assert.equal(projectFolderOf('/home/me/.newagent/sessions/p/2026/x.jsonl', pats), 'p');
  });

  it('matches paths as VS Code\'s filenamePattern does: a pattern without / matches the base name', () => {
    const pats = sessionPatterns();
    const formats = (p: string) => patternsMatching(p, pats).map((x) => x.format);
    assert.deepEqual(formats('/h/.claude/projects/-h-p/0a.jsonl'), ['claude-code']);
    assert.deepEqual(formats('/h/.claude/projects/-h-p/0a/subagents/agent-1.jsonl'), ['claude-code']);
    assert.deepEqual(formats('/h/.codex/sessions/2026/12/01/rollout-2026-12-01T16-25-01-x.jsonl'), ['codex']);
    assert.deepEqual(formats('C:\\Users\\me\\.gemini\\tmp\\p\\chats\\session-1.jsonl'), ['gemini-cli']);
    assert.deepEqual(formats('/h/.claude/settings.json'), []);
    assert.deepEqual(formats('/h/.qwen/projects/p/meta.json'), []);
    assert.ok(globRegExp('*.{otlp,events}.json').test('a.otlp.json'));
    assert.ok(!globRegExp('*.jsonl').test('a/b.jsonl'));
  });
});

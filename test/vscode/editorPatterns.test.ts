// package.json's customEditors and "Open in Agent Trace Viewer" menus against the core's file patterns: adding a
// format's pattern is a change in its module and in package.json, and this test fails until both agree.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_LIST, FORMAT_NAMES } from '../../src/core/formats';
import { GENERIC_DEFAULT_PATTERNS, VIEWER_DEFAULT_PATTERNS, VIEWER_OPTION_PATTERNS } from '../../src/core/traceFiles';
import { VIEW_TYPE, VIEW_TYPE_ANY_JSONL } from '../../src/protocol';

interface Manifest {
  contributes: {
    customEditors: { viewType: string; priority: string; selector: { filenamePattern: string }[] }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}
const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;

function selectors(viewType: string): string[] {
  const e = pkg.contributes.customEditors.find((c) => c.viewType === viewType);
  assert.ok(e, `no customEditors entry for ${viewType}`);
  return e.selector.map((s) => s.filenamePattern);
}

/**
 * Whether a menu's `when` clause shows for a file, judging only its resource terms (`resourceExtname`,
 * `resourceFilename`, `resourcePath` with `=~` or `==`), OR-ed: the other terms are about editors, not files.
 */
function offeredFor(when: string, path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  const value = { resourceExtname: ext, resourceFilename: name, resourcePath: path } as Record<string, string>;
  const terms = [...when.matchAll(/(resourceExtname|resourceFilename|resourcePath) (=~ \/((?:\\.|[^/])+)\/|== (\S+?)(?=\)|\s|$))/g)];
  assert.ok(terms.length > 0, `no resource terms in ${when}`);
  return terms.some((t) => (t[3] !== undefined ? new RegExp(t[3]).test(value[t[1]]) : value[t[1]] === t[4]));
}

function whenOf(menu: string, command: string): string {
  const entry = pkg.contributes.menus[menu].find((m) => m.command === command);
  assert.ok(entry?.when, `${menu} has no when clause for ${command}`);
  return entry.when;
}

describe('the viewer in package.json', () => {
  it('is the default editor for exactly the formats\' file patterns plus the generic ones', () => {
    const fromModules = FORMAT_LIST.flatMap((f) => f.fileNamePatterns ?? []);
    assert.ok(fromModules.includes('rollout-*.jsonl') && fromModules.includes('**/.claude/projects/**/*.jsonl') && fromModules.includes('*.otlp.json'));
    assert.deepEqual([...selectors(VIEW_TYPE)].sort(), [...new Set([...fromModules, ...GENERIC_DEFAULT_PATTERNS])].sort());
    assert.deepEqual(selectors(VIEW_TYPE), [...VIEWER_DEFAULT_PATTERNS]);
    assert.equal(pkg.contributes.customEditors.find((c) => c.viewType === VIEW_TYPE)?.priority, 'default');
  });

  it('is offered, not default, for any JSONL and any JSON', () => {
    assert.deepEqual(selectors(VIEW_TYPE_ANY_JSONL), [...VIEWER_OPTION_PATTERNS]);
    assert.equal(pkg.contributes.customEditors.find((c) => c.viewType === VIEW_TYPE_ANY_JSONL)?.priority, 'option');
    assert.ok(VIEWER_OPTION_PATTERNS.includes('*.json'));
  });

  it('offers "Open in Agent Trace Viewer" for .json and .gz traces where the menus can tell them', () => {
    const explorer = whenOf('explorer/context', 'agentTrace.openInViewer');
    const palette = whenOf('commandPalette', 'agentTrace.openInViewer');
    const title = whenOf('editor/title', 'agentTrace.openInViewer');
    for (const p of ['/w/run.jsonl', '/w/export.otlp.json', '/w/spans.json', '/w/old.jsonl.gz', '/home/u/.gemini/tmp/abc/chats/session-1.json']) {
      assert.ok(offeredFor(explorer, p), `explorer: ${p}`);
      assert.ok(offeredFor(palette, p), `palette: ${p}`);
    }
    // The editor title has room for one button: only names that are surely traces get it, not every JSON file.
    for (const p of ['/w/run.jsonl', '/w/export.otlp.json', '/w/x.events.json', '/w/old.jsonl.gz', '/home/u/.gemini/tmp/abc/chats/session-1.json']) assert.ok(offeredFor(title, p), `title: ${p}`);
    for (const p of ['/w/package.json', '/w/tsconfig.json', '/w/backup.tar.gz']) assert.equal(offeredFor(title, p), false, `title: ${p}`);
    assert.equal(offeredFor(explorer, '/w/backup.tar.gz'), false);
  });

  it('docs/formats/README.md names every format and every default pattern', () => {
    const doc = readFileSync(join(__dirname, '../../docs/formats/README.md'), 'utf8');
    for (const name of FORMAT_NAMES) assert.ok(doc.includes(`| \`${name}\` |`), `no row for ${name}`);
    for (const f of FORMAT_LIST) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${f.name}\` |`)) ?? '';
      for (const p of f.fileNamePatterns ?? []) assert.ok(row.includes(`\`${p}\``), `${f.name}'s row lacks ${p}`);
    }
    const generic = doc.split('\n').find((l) => l.startsWith('| `generic` |')) ?? '';
    for (const p of GENERIC_DEFAULT_PATTERNS) assert.ok(generic.includes(`\`${p}\``), `generic row lacks ${p}`);
  });
});

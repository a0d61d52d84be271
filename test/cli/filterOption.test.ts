import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

const MURMUR = join('samples', 'murmur', 'ses_583584f8e94410c93669237ac44d5d21', 'trace.jsonl');

interface Node {
  line: number;
  kind: string;
  index: number;
  parentIndex: number | null;
  matched?: boolean;
}

describe('agent-trace tree/summary --filter', () => {
  before(requireBuiltCli);

  it('tree --json keeps the matching events and their ancestors, with indices among the kept nodes', () => {
    const all = JSON.parse(cli('tree', MURMUR, '--json').out) as { nodes: Node[] };
    const r = cli('tree', MURMUR, '--json', '--filter', 'kind:shell');
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as { nodes: Node[]; filter: { expression: string; matched: number; of: number } };
    const shells = all.nodes.filter((n) => n.kind === 'shell');
    assert.ok(shells.length >= 2);
    assert.deepEqual(doc.nodes.filter((n) => n.matched).map((n) => n.line), shells.map((n) => n.line));
    assert.deepEqual(doc.filter, { expression: 'kind:shell', matched: shells.length, of: all.nodes.length });
    // Ancestors of each shell call are kept, found here through the unfiltered tree's parent links.
    const want = new Set<number>();
    for (const s of shells) for (let n: Node | undefined = s; n; n = n.parentIndex === null ? undefined : all.nodes[n.parentIndex]) want.add(n.line);
    assert.deepEqual(doc.nodes.map((n) => n.line), [...want].sort((a, b) => a - b));
    doc.nodes.forEach((n, k) => {
      assert.equal(n.index, k);
      if (n.parentIndex !== null) assert.ok(n.parentIndex < doc.nodes.length);
    });
  });

  it('summary --json counts only the matching events and says which filter', () => {
    const r = cli('summary', MURMUR, '--json', '--filter', 'kind:inference or kind:shell');
    assert.equal(r.code, 0, r.err);
    const s = JSON.parse(r.out) as { events: number; kinds: Record<string, number>; filter: { expression: string; of: number } };
    const lines = readFileSync(MURMUR, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const inference = lines.filter((l) => l.includes('"event_type":"inference"')).length;
    const shell = lines.filter((l) => l.includes('"event_type":"shell"')).length;
    assert.deepEqual(s.kinds, { inference, shell });
    assert.equal(s.events, inference + shell);
    assert.deepEqual(s.filter, { expression: 'kind:inference or kind:shell', of: lines.length });
  });

  it('without --filter, output is what it was (no filter fields)', () => {
    const s = JSON.parse(cli('summary', MURMUR, '--json').out) as Record<string, unknown>;
    assert.equal('filter' in s, false);
    const t = JSON.parse(cli('tree', MURMUR, '--json').out) as { nodes: Record<string, unknown>[] };
    assert.equal('matched' in t.nodes[0], false);
  });

  it('human output names the filter and the count', () => {
    const r = cli('tree', MURMUR, '--filter', 'status:error');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\nfilter status:error: 2 of 23 events match\n$/);
    assert.match(r.out, /read_file: src\/greeting\.ts → error, 1 ms: no such file or directory: src\/greeting\.ts {2}\[line 6\]/);
    assert.match(r.out, /shell: npm test → exit 1, 912 ms {2}\[line 10\]/);
    assert.match(cli('summary', MURMUR, '--filter', 'status:error').out, /\nfilter: {5}status:error \(2 of 23 events\)\n/);
  });

  it('exits 2 with the column of the bad token, before reading the file', () => {
    for (const [expr, msg] of [
      ['kind:a (tool:b', 'column 8: "(" is never closed'],
      ['colour:red', 'column 1: unknown field "colour"'],
      ['duration>fast', 'column 10: "fast" is not a number'],
    ]) {
      for (const cmd of ['tree', 'summary']) {
        const r = cli(cmd, 'no-such-file.jsonl', '--filter', expr);
        assert.equal(r.code, 2, `${cmd} ${expr}`);
        assert.equal(r.out, '');
        assert.ok(r.err.includes(msg), r.err);
        assert.equal(r.err.trim().split('\n').length, 1, 'one line');
      }
    }
    assert.equal(cli('tree', MURMUR, '--filter').code, 2, 'the option needs a value');
  });
});

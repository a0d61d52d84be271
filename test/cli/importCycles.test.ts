// No import cycles among the CLI, the viewer logic and the VS Code adapters (type-only imports count too:
// a cycle of types is still two files that cannot be read, moved or tested apart).
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const ROOMS = ['src/cli', 'src/viewer', 'src/vscode'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports and re-exports of a file, resolved to files inside `inside`. */
export function importsOf(file: string, inside: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    const base = resolve(dirname(file), m[1]);
    const hit = [`${base}.ts`, join(base, 'index.ts')].find((c) => inside.has(c) && existsSync(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** The first import cycle found by a depth-first walk, as a list of files, or null. */
export function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] | null => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') return [...stack.slice(stack.indexOf(g)), g];
      if (!state.has(g)) {
        const c = visit(g);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of graph.keys()) if (!state.has(f)) {
    const c = visit(f);
    if (c) return c;
  }
  return null;
}

describe('import cycles outside the core', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', []]]);
    assert.deepEqual(findCycle(g), ['a', 'b', 'c', 'a']);
    assert.equal(findCycle(new Map([['a', ['b']], ['b', []]])), null);
  });

  it('src/cli, src/viewer and src/vscode import each other without cycles', () => {
    const files = ROOMS.flatMap((r) => tsFiles(join(ROOT, r)));
    const inside = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, inside)]));
    assert.ok(graph.get(join(ROOT, 'src/cli/main.ts'))!.length >= 3, 'the scan sees the CLI entry\'s imports');
    const cycle = findCycle(graph);
    assert.equal(cycle && cycle.map((f) => relative(ROOT, f)).join(' -> '), null);
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The import scanner behind the layering guard (test/core/layering.test.ts). It reads TypeScript with the
 * compiler's parser, not with regular expressions, so every way of naming another module is seen: static
 * `import` (value or `import type`), `export … from`, `import x = require()`, `require()`, dynamic `import()`
 * and `import('x')` types. Paths are repository-relative with forward slashes.
 */

/** One module a file names. */
export interface ImportRef {
  /** The specifier as written, e.g. `../core/model` or `vscode`. */
  specifier: string;
  /** True when the import is erased at compile time (`import type`, `export type`, all-type specifiers, `import('x')` types). */
  typeOnly: boolean;
  /** 1-based line of the import. */
  line: number;
}

/** A source file of the graph: its repository-relative path and what it imports. */
export interface ScannedFile {
  path: string;
  imports: ImportRef[];
}

/** True when every named binding of an import or export clause is marked `type`. */
function allSpecifiersType(elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && allSpecifiersType(named.elements);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && allSpecifiersType(clause.elements);
}

/** The string a call passes as its only module argument, for `require('x')` and `import('x')`. */
function calledModule(node: ts.CallExpression): string | null {
  const arg = node.arguments[0];
  if (!arg || !ts.isStringLiteralLike(arg)) return null;
  if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return arg.text;
  if (ts.isIdentifier(node.expression) && node.expression.text === 'require') return arg.text;
  return null;
}

/** Every module a TypeScript source names, from its text alone (the in-memory route the probe test uses). */
export function scanImports(fileName: string, text: string): ImportRef[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const add = (spec: ts.Node | undefined, typeOnly: boolean, at: ts.Node) => {
    if (!spec || !ts.isStringLiteralLike(spec)) return;
    out.push({ specifier: spec.text, typeOnly, line: sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importIsTypeOnly(node), node);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, exportIsTypeOnly(node), node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, node);
    } else if (ts.isCallExpression(node)) {
      const name = calledModule(node);
      if (name !== null) out.push({ specifier: name, typeOnly: false, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', '.git']);

/** Every `.ts` file (not `.d.ts`) below `dir`, repository-relative to `root`, sorted. */
export function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs).sort()) {
      const p = join(abs, name);
      if (statSync(p).isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(root, p).split('\\').join('/'));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out;
}

/** Reads and scans the given repository-relative files. */
export function scanFiles(root: string, paths: readonly string[]): ScannedFile[] {
  return paths.map((path) => ({ path, imports: scanImports(path, readFileSync(join(root, path), 'utf8')) }));
}

/**
 * The repository-relative file a relative specifier names (`x.ts`, `x.d.ts`, `x/index.ts`), or null for a
 * package (`vscode`, `node:fs`, `zod`) or a name that resolves to nothing. `known` is the set of files that
 * exist (in-memory probes included).
 */
export function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = relative('/', resolve('/', dirname(from), specifier)).split('\\').join('/');
  for (const candidate of [base, `${base}.ts`, `${base}.d.ts`, `${base}/index.ts`]) if (known.has(candidate)) return candidate;
  return null;
}

/** The resolved edges of the graph: file → files it imports (value and type imports alike). */
export function importEdges(files: readonly ScannedFile[], known: ReadonlySet<string>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const targets = new Set<string>();
    for (const i of f.imports) {
      const t = resolveSpecifier(f.path, i.specifier, known);
      if (t !== null) targets.add(t);
    }
    edges.set(f.path, [...targets].sort());
  }
  return edges;
}

/** Tarjan's bookkeeping for {@link findCycles}. */
interface TarjanState {
  index: Map<string, number>;
  low: Map<string, number>;
  onStack: Set<string>;
  stack: string[];
  counter: number;
}

/** Pops the component rooted at `v` off the stack; keeps it when it is a cycle. */
function closeComponent(st: TarjanState, v: string, edges: ReadonlyMap<string, readonly string[]>, out: string[][]): void {
  const scc: string[] = [];
  let w: string;
  do {
    w = st.stack.pop()!;
    st.onStack.delete(w);
    scc.push(w);
  } while (w !== v);
  if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(scc.sort());
}

/** Depth-first walk from `start` with an explicit stack of (file, next edge) frames. */
function walkFrom(st: TarjanState, start: string, edges: ReadonlyMap<string, readonly string[]>, out: string[][]): void {
  const work: [string, number][] = [[start, 0]];
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [v, i] = frame;
    if (i === 0) {
      st.index.set(v, st.counter);
      st.low.set(v, st.counter++);
      st.stack.push(v);
      st.onStack.add(v);
    }
    const next = edges.get(v) ?? [];
    if (i < next.length) {
      frame[1] = i + 1;
      const w = next[i];
      if (!st.index.has(w)) work.push([w, 0]);
      else if (st.onStack.has(w)) st.low.set(v, Math.min(st.low.get(v)!, st.index.get(w)!));
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      st.low.set(parent, Math.min(st.low.get(parent)!, st.low.get(v)!));
    }
    if (st.low.get(v) === st.index.get(v)) closeComponent(st, v, edges, out);
  }
}

/**
 * The import cycles of a graph: its strongly connected components with more than one file (or a file that
 * imports itself), each as a sorted list of files, sorted. Tarjan's algorithm, iterative so a deep graph
 * cannot overflow the stack.
 */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const st: TarjanState = { index: new Map(), low: new Map(), onStack: new Set(), stack: [], counter: 0 };
  const out: string[][] = [];
  for (const start of [...edges.keys()].sort()) if (!st.index.has(start)) walkFrom(st, start, edges, out);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

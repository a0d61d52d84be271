import { isBuiltin } from 'node:module';
import * as ts from 'typescript';
import { findCycles, ImportRef, resolveSpecifier, ScannedFile } from './importGraph';

/**
 * The rooms of the code and what each may import (docs/architecture.md states the same rules for people).
 * Every rule is a function of one import, so a probe file scanned in memory is judged exactly like a real one.
 */

/** Test folders that stand in for VS Code or run inside it, and so may import `vscode`. */
const VSCODE_TEST_ROOMS = ['test/vscode/', 'test/integration/', 'test/helpers/'];

/** The folder of a format (`src/core/formats/<name>/`), or null for files outside one. */
function formatFolder(path: string): string | null {
  const m = /^src\/core\/formats\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

function isVscode(spec: string): boolean {
  return spec === 'vscode' || spec.startsWith('vscode/');
}

/** Node's file system modules, which `src/core` reaches only through its seam (`src/core/io/fileSystem.ts`). */
function isNodeFs(spec: string): boolean {
  return /^(node:)?fs(\/promises)?$/.test(spec);
}

/**
 * The one Node built-in name src/core may import: `buffer`, for `Buffer`. Node resolves it to its own module and
 * the report's browser bundle (esbuild) to the npm package `buffer`; `node:buffer` would not resolve there.
 * Everything else of the platform comes through the seam (`src/core/io/platform.ts`).
 */
export const CORE_BUILTINS: readonly string[] = ['buffer'];

/** A Node built-in module that src/core may not import (`node:path`, `os`, `worker_threads`, ...). */
function isForbiddenBuiltin(spec: string): boolean {
  return isBuiltin(spec) && !CORE_BUILTINS.includes(spec);
}

/** The one room a webview file may reach in src/: the protocol and core, for types. */
function webviewMayName(target: string): boolean {
  return target.startsWith('src/protocol/') || target.startsWith('src/core/');
}

/**
 * Core modules the webview may import by value, so host and browser share one implementation (the
 * formatters, issue 11). Each must stay pure: it imports no package or Node built-in and, by value, only
 * other modules of this list ({@link pureModuleViolations} checks that).
 */
export const WEBVIEW_VALUE_MODULES: readonly string[] = [
  'src/core/display.ts',
  // The filter box parses, checks and completes the expression as the user types.
  'src/core/filter/filterCompile.ts',
  'src/core/filter/filterComplete.ts',
  'src/core/filter/filterChips.ts',
  'src/core/filter/filterSyntax.ts',
  'src/core/filter/filterParser.ts',
  'src/core/filter/filterFields.ts',
  'src/core/filter/rowFilterExpr.ts',
];

/** Why one import breaks a rule, or null when it is allowed. `target` is the resolved file, if any. */
function judge(from: string, imp: ImportRef, target: string | null): string | null {
  if (isVscode(imp.specifier)) {
    if (from.startsWith('src/vscode/') || VSCODE_TEST_ROOMS.some((r) => from.startsWith(r))) return null;
    return `imports 'vscode' outside src/vscode`;
  }
  if (from.startsWith('src/core/') && isNodeFs(imp.specifier)) {
    return `src/core reads files only through its seam (src/core/io/fileSystem.ts), not ${imp.specifier}`;
  }
  if (from.startsWith('src/core/') && isForbiddenBuiltin(imp.specifier)) {
    return `src/core reaches its platform only through its seam (src/core/io/platform.ts), not the Node built-in ${imp.specifier}`;
  }
  if (target === null) {
    // A package or a Node built-in: the protocol is plain data and its zod schemas, nothing else.
    if (from.startsWith('src/protocol/') && !imp.specifier.startsWith('.') && imp.specifier !== 'zod') return `src/protocol may import only src/core and zod (it imports ${imp.specifier})`;
    return null;
  }
  if (target.startsWith('src/node/') && !/^src\/(node|core)\//.test(from)) {
    const may = /^src\/(cli|vscode)\//.test(from) || /^(test|scripts)\//.test(from);
    if (!may) return `only the Node entry points (src/cli, src/vscode) may import ${target}`;
  }
  if (from.startsWith('src/node/') && target.startsWith('src/') && !/^src\/(core|node)\//.test(target)) {
    return `src/node may import only src/core and src/node (it imports ${target})`;
  }
  if (from.startsWith('webview/') && target.startsWith('src/')) {
    if (!webviewMayName(target)) return `webview/ may import only src/protocol/** and src/core/** (it imports ${target})`;
    if (!imp.typeOnly && !WEBVIEW_VALUE_MODULES.includes(target)) {
      return `webview/ may import src/ for types only (or a module of WEBVIEW_VALUE_MODULES): use 'import type' for ${target}`;
    }
  }
  if (from.startsWith('src/core/') && (/^src\/(viewer|vscode|cli|protocol|report|node)\//.test(target) || target.startsWith('webview/'))) {
    return `src/core is pure and may not import ${target}`;
  }
  if (from.startsWith('src/protocol/') && !/^src\/(protocol|core)\//.test(target)) return `src/protocol may import only src/core and zod (it imports ${target})`;
  if (from.startsWith('src/viewer/') && /^(src\/(vscode|cli|report)|webview)\//.test(target)) return `src/viewer may not import ${target}`;
  if (from.startsWith('src/report/') && (/^src\/(vscode|cli)\//.test(target) || target.startsWith('webview/'))) return `src/report may not import ${target}`;
  if (from.startsWith('src/cli/') && !/^src\/(cli|core|report|node)\//.test(target)) {
    return `src/cli may import only src/core, src/report and src/node (it imports ${target}); move what it needs from elsewhere down into one of them`;
  }
  const mine = formatFolder(from);
  const theirs = formatFolder(target);
  if (mine !== null && theirs !== null && mine !== theirs) {
    return `the ${mine} format may not import another format's files (${target}); move what both need to a shared room`;
  }
  return null;
}

/** Every broken rule of the given files, as `path:line: why`, sorted. `known` lists the files that exist. */
export function layeringViolations(files: readonly ScannedFile[], known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of files) {
    for (const imp of f.imports) {
      const why = judge(f.path, imp, resolveSpecifier(f.path, imp.specifier, known));
      if (why !== null) out.push(`${f.path}:${imp.line}: ${why}`);
    }
  }
  return out.sort();
}

/**
 * Why a module the webview imports by value is not pure, as `path:line: why`: it imports a package or a Node
 * built-in, or by value a file outside {@link WEBVIEW_VALUE_MODULES} (the browser bundle would pull it in).
 */
export function pureModuleViolations(files: readonly ScannedFile[], known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (!WEBVIEW_VALUE_MODULES.includes(f.path)) continue;
    for (const imp of f.imports) {
      if (imp.typeOnly) continue;
      const target = resolveSpecifier(f.path, imp.specifier, known);
      if (target === null) out.push(`${f.path}:${imp.line}: a module the webview imports may not import the package ${imp.specifier}`);
      else if (!WEBVIEW_VALUE_MODULES.includes(target)) out.push(`${f.path}:${imp.line}: a module the webview imports may import by value only modules of WEBVIEW_VALUE_MODULES (not ${target})`);
    }
  }
  return out.sort();
}

/**
 * Node's globals that do not exist in the report's page, which runs the core: `process`, `__dirname`, `setImmediate`
 * and the like are the platform's (src/core/io/platform.ts), and `Buffer` must be imported from `buffer`.
 */
const NODE_GLOBALS = new Set(['Buffer', 'process', 'global', '__dirname', '__filename', 'setImmediate', 'clearImmediate']);

/** Whether an identifier is a name of something (a property, a key, a declaration) rather than a reference. */
function isNameOnly(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) && (ts.isPropertyAccessExpression(p) ? p.name : p.right) === id) return true;
  if ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p) || ts.isEnumMember(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) && p.name === id) return true;
  return ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isLabeledStatement(p);
}

/**
 * Uses of Node's globals in a src/core file, as `path:line: why`: references to {@link NODE_GLOBALS} that the file
 * neither imports nor declares. Other files are not judged. Read with the compiler's parser, so comments, strings
 * and property names (`span.process`, `{ process: … }`) do not count.
 */
export function nodeGlobalUses(path: string, text: string): string[] {
  if (!path.startsWith('src/core/')) return [];
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const declared = new Set<string>();
  const refs: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text)) {
      const p = node.parent;
      const declares = (ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p)) && (p as { name?: ts.Node }).name === node;
      if (declares) declared.add(node.text);
      else if (!isNameOnly(node)) refs.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs
    .filter((id) => !declared.has(id.text))
    .map((id) => {
      const line = sf.getLineAndCharacterOfPosition(id.getStart(sf)).line + 1;
      const why = id.text === 'Buffer' ? "names Buffer without importing it: import { Buffer } from 'buffer'" : `uses Node's global ${id.text}, which the report's page lacks: ask the platform seam (src/core/io/platform.ts)`;
      return `${path}:${line}: ${why}`;
    });
}

/** Files that may name formats in branches: each format's own folder and the registry. */
function mayBranchOnFormat(path: string): boolean {
  return formatFolder(path) !== null || path === 'src/core/formats.ts' || path === 'src/core/formatNames.ts';
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Branches on a format name outside the format's folder and the registry, as `path:line: text`: a comparison
 * of something named `…format` / `fmt` with a format name (either side, `==` or `===`), a `case 'name':`, or
 * a set or list of format names tested with `.has` / `.includes`. Format facts belong in the format's module.
 */
export function formatNameBranches(path: string, text: string, names: readonly string[]): string[] {
  if (mayBranchOnFormat(path)) return [];
  const q = `['"\`](?:${names.map(escapeRegExp).join('|')})['"\`]`;
  const subject = String.raw`\b(?:[\w$]*[fF]ormat|fmt)\b`;
  const patterns = [
    new RegExp(String.raw`${subject}\s*[!=]==?\s*${q}`),
    new RegExp(String.raw`${q}\s*[!=]==?\s*[\w$.]*${subject}`),
    new RegExp(String.raw`\bcase\s+${q}\s*:`),
    new RegExp(String.raw`\[\s*${q}(?:\s*,\s*${q})*\s*\]\.(?:has|includes)\(`),
    new RegExp(String.raw`new Set\(\[\s*${q}`),
  ];
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (patterns.some((p) => p.test(line))) out.push(`${path}:${i + 1}: ${line.trim()}`);
  });
  return out;
}

/**
 * One layer of src/core: a folder (with everything below it), or a named group of the files at the top of
 * src/core. A layer may import its own files and the layers listed before it in {@link CORE_LAYERS}.
 */
export interface CoreLayer {
  /** The folder's name, or for a group of top-level files a name no folder has. */
  name: string;
  /** For a group of top-level files: their names. Absent for a folder. */
  files?: readonly string[];
}

/**
 * The layers of src/core, bottom-up: each imports only itself and the layers before it (docs/architecture.md
 * says what each holds). A new folder or top-level file fails the layering test until it is given a layer here.
 */
export const CORE_LAYERS: readonly CoreLayer[] = [
  // A trace's path or in-memory source, which the I/O seam names; imports nothing of the core.
  { name: 'path', files: ['tracePath.ts'] },
  // The I/O seam: the only way the core reads or lists files (src/node and the report give it an implementation).
  { name: 'io' },
  {
    name: 'base',
    files: [
      'arrays.ts', 'binaryKinds.ts', 'byteSource.ts', 'counterColumn.ts', 'derivedLabels.ts', 'digests.ts', 'display.ts',
      'eventSizer.ts', 'formatNames.ts', 'idHashIndex.ts', 'keepShape.ts', 'labelColumns.ts', 'lineFacts.ts',
      'lineIndexer.ts', 'lineLabels.ts', 'mentionColumns.ts', 'model.ts', 'numberColumn.ts', 'stringColumn.ts',
      'tableColumns.ts', 'usageTypes.ts', 'escapes.ts', 'fileChange.ts', 'findingLog.ts',
    ],
  },
  { name: 'catalog' },
  { name: 'json' },
  { name: 'blobs' },
  { name: 'trace', files: ['eventColumns.ts', 'eventTable.ts', 'eventTableWriter.ts', 'lineFindings.ts', 'traceModel.ts', 'traceParts.ts', 'tree.ts', 'treeAppend.ts'] },
  { name: 'usage' },
  { name: 'rules' },
  { name: 'contract', files: ['format.ts'] },
  // The check engine: it is handed a format's rule module and blob layout, so it sits below the formats and the
  // registry and imports neither (formatRules.ts, in the registry, looks a format up and runs it).
  { name: 'checks' },
  { name: 'formats' },
  { name: 'registry', files: ['detect.ts', 'formatRules.ts', 'formats.ts'] },
  { name: 'blobStore' },
  { name: 'parallel' },
  {
    name: 'loader',
    files: ['checkedReading.ts', 'crossFileParents.ts', 'detectFile.ts', 'jsonlModel.ts', 'jsonlReading.ts', 'loadTrace.ts', 'navigation.ts', 'sessionParts.ts', 'sessionUsage.ts', 'summary.ts', 'traceFiles.ts', 'traceReader.ts'],
  },
  { name: 'stream' },
  { name: 'filter' },
  { name: 'find' },
  { name: 'diff' },
  { name: 'export' },
  // The session catalog: every session under the agent homes, read through the loader and summarised (issue 39).
  { name: 'sessions' },
];

const CORE = 'src/core/';

/**
 * The layer of a src/core file: its folder's name, its top-level group's name, or, when CORE_LAYERS does not
 * list it, `src/core/<folder>/` or the file's own path (so an unlisted file is still a node of the graph).
 * Null outside src/core.
 */
export function coreLayerOf(path: string): string | null {
  if (!path.startsWith(CORE)) return null;
  const rest = path.slice(CORE.length);
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    const folder = rest.slice(0, slash);
    return CORE_LAYERS.some((l) => l.files === undefined && l.name === folder) ? folder : `${CORE}${folder}/`;
  }
  return CORE_LAYERS.find((l) => l.files?.includes(rest))?.name ?? path;
}

function layerRank(layer: string): number {
  return CORE_LAYERS.findIndex((l) => l.name === layer);
}

/** The graph of the layers of src/core: layer → the other layers its files import (type imports included). */
export function coreLayerEdges(files: readonly ScannedFile[], known: ReadonlySet<string>): Map<string, string[]> {
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    const from = coreLayerOf(f.path);
    if (from === null) continue;
    const out = edges.get(from) ?? new Set<string>();
    edges.set(from, out);
    for (const imp of f.imports) {
      const target = resolveSpecifier(f.path, imp.specifier, known);
      const to = target === null ? null : coreLayerOf(target);
      if (to !== null && to !== from) out.add(to);
    }
  }
  return new Map([...edges].map(([k, v]) => [k, [...v].sort()]));
}

/** The cycles among the layers (folders and top-level groups) of src/core, as in {@link findCycles}. */
export function coreLayerCycles(files: readonly ScannedFile[], known: ReadonlySet<string>): string[][] {
  return findCycles(coreLayerEdges(files, known));
}

/**
 * Every import of a src/core file that does not go down {@link CORE_LAYERS} (to its own layer or one listed
 * before it), and every src/core file no layer holds, as `path:line: why`, sorted.
 */
export function layerOrderViolations(files: readonly ScannedFile[], known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of files) {
    const from = coreLayerOf(f.path);
    if (from === null) continue;
    const rank = layerRank(from);
    if (rank < 0) {
      out.push(`${f.path}:0: is in no layer of CORE_LAYERS (test/helpers/layering.ts): give its folder or file one`);
      continue;
    }
    for (const imp of f.imports) {
      const target = resolveSpecifier(f.path, imp.specifier, known);
      const to = target === null ? null : coreLayerOf(target);
      if (to === null || to === from) continue;
      const toRank = layerRank(to);
      if (toRank > rank) out.push(`${f.path}:${imp.line}: layer '${from}' may not import ${target} (layer '${to}' is above it in CORE_LAYERS)`);
    }
  }
  return out.sort();
}

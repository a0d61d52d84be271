import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { FORMAT_NAMES } from '../../src/core/formatNames';
import { findCycles, importEdges, listSources, scanFiles, scanImports, ScannedFile } from '../helpers/importGraph';
import { CORE_LAYERS, coreLayerCycles, coreLayerEdges, coreLayerOf, formatNameBranches, layeringViolations, layerOrderViolations, nodeGlobalUses, pureModuleViolations } from '../helpers/layering';

const ROOT = join(__dirname, '..', '..');

/**
 * Import cycles that exist today, each as its sorted files. The check fails for any other cycle, and for an
 * entry here that no longer exists (remove it once the cycle is fixed, so it cannot come back unnoticed).
 * None today: cli/main.ts ↔ cli/extraCommands.ts ended with CliCommand in cli/command.ts, and
 * viewer/malformedPlacement.ts ↔ viewer/rowModel.ts with malformedPlacement declaring the shape it needs.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

const sources = [...listSources(ROOT, 'src'), ...listSources(ROOT, 'webview')];
const tests = listSources(ROOT, 'test');
const files = scanFiles(ROOT, [...sources, ...tests]);
const known = new Set([...sources, ...tests]);

/** The violations of the real files plus one in-memory probe file (nothing is written to disk). */
function withProbe(path: string, text: string, alsoKnown: readonly string[] = []): string[] {
  const probe: ScannedFile = { path, imports: scanImports(path, text) };
  return layeringViolations([probe], new Set([...known, ...alsoKnown, path])).filter((v) => v.startsWith(`${path}:`));
}

describe('layering guard', () => {
  it('finds every kind of import in a source', () => {
    const text = [
      "import * as a from 'a';",
      "import type { B } from 'b';",
      "import { type C, type D } from 'c';",
      "import { E, type F } from 'e';",
      "export * from 'g';",
      "export type { H } from 'h';",
      "import i = require('i');",
      "const j = require('j');",
      "const k = import('k');",
      "let l: typeof import('l');",
      "import 'm';",
    ].join('\n');
    const got = scanImports('x.ts', text).map((i) => `${i.specifier}:${i.typeOnly ? 'type' : 'value'}:${i.line}`);
    assert.deepEqual(got, ['a:value:1', 'b:type:2', 'c:type:3', 'e:value:4', 'g:value:5', 'h:type:6', 'i:value:7', 'j:value:8', 'k:value:9', 'l:type:10', 'm:value:11']);
  });

  it('holds for every file of src/, webview/ and test/', () => {
    assert.ok(sources.length > 150 && tests.length > 50, `scanned ${sources.length} sources and ${tests.length} tests`);
    assert.deepEqual(layeringViolations(files, known), []);
  });

  it("fails on a probe that imports 'vscode' from any room but src/vscode, in any spelling", () => {
    for (const path of ['src/core/probe.ts', 'src/core/formats/murmur/probe.ts', 'src/viewer/probe.ts', 'webview/probe.ts', 'src/cli/probe.ts', 'src/protocol/probe.ts', 'src/report/probe.ts']) {
      for (const line of ["import * as vscode from 'vscode';", "import type { Uri } from 'vscode';", "export { window } from 'vscode';", "const v = require('vscode');", "void import('vscode');", "import 'vscode';"]) {
        assert.deepEqual(withProbe(path, line), [`${path}:1: imports 'vscode' outside src/vscode`], `${path}: ${line}`);
      }
    }
    assert.deepEqual(withProbe('src/vscode/probe.ts', "import * as vscode from 'vscode';"), []);
    assert.deepEqual(withProbe('test/helpers/probe.ts', "import * as vscode from 'vscode';"), []);
  });

  it('fails on a probe that crosses a room wall', () => {
    assert.match(withProbe('src/core/probe.ts', "import { TraceRows } from '../viewer/traceRows';").join(), /src\/core is pure and may not import src\/viewer\/traceRows\.ts/);
    assert.match(withProbe('src/core/probe.ts', "import type { HostMessage } from '../protocol';").join(), /may not import src\/protocol\/index\.ts/);
    assert.match(withProbe('src/core/blobs/probe.ts', "import { main } from '../../cli/main';").join(), /may not import src\/cli\/main\.ts/);
    assert.match(withProbe('src/viewer/probe.ts', "import { activate } from '../vscode/extension';").join(), /src\/viewer may not import src\/vscode\/extension\.ts/);
    assert.match(withProbe('src/core/formats/lumen/probe.ts', "import { murmurFormat } from '../murmur/module';").join(), /the lumen format may not import another format's files \(src\/core\/formats\/murmur\/module\.ts\)/);
    assert.deepEqual(withProbe('src/core/formats/lumen/probe.ts', "import { isObj } from '../common';"), []);
  });

  it('keeps src/protocol on src/core and zod', () => {
    const p = 'src/protocol/probe.ts';
    assert.deepEqual(withProbe(p, "import { z } from 'zod';\nimport type { HashRef } from '../core/model';\nimport { CHECK_MODES } from '../core/catalog/checkMode';\nimport type { RowFilter } from './types';"), []);
    assert.match(withProbe(p, "import type { TimelineSlice } from '../viewer/timeline/timelineData';", ['src/viewer/timeline/timelineData.ts']).join(), /src\/protocol may import only src\/core and zod \(it imports src\/viewer\/timeline\/timelineData\.ts\)/);
    assert.match(withProbe(p, "import type { CliCommand } from '../cli/command';").join(), /src\/protocol may import only src\/core and zod \(it imports src\/cli\/command\.ts\)/);
    assert.match(withProbe(p, "import type { ReportData } from '../report/reportData';").join(), /src\/protocol may import only src\/core and zod \(it imports src\/report\/reportData\.ts\)/);
    assert.match(withProbe(p, "import type { TreeView } from '../../webview/treeView';").join(), /src\/protocol may import only src\/core and zod \(it imports webview\/treeView\.ts\)/);
    assert.match(withProbe(p, "import { readFileSync } from 'node:fs';").join(), /src\/protocol may import only src\/core and zod \(it imports node:fs\)/);
    assert.match(withProbe(p, "import { strToU8 } from 'fflate';").join(), /src\/protocol may import only src\/core and zod \(it imports fflate\)/);
    assert.match(withProbe('src/core/probe.ts', "import type { ReportData } from '../report/reportData';").join(), /src\/core is pure and may not import src\/report\/reportData\.ts/);
  });

  it('keeps src/cli on src/core and src/report', () => {
    const p = 'src/cli/probe.ts';
    assert.deepEqual(withProbe(p, "import { loadTrace } from '../core/loadTrace';\nimport { buildReport } from '../report/buildReport';\nimport { write } from './io';\nimport { readFile } from 'node:fs/promises';"), []);
    assert.match(withProbe(p, "import { TraceBlobs } from '../viewer/blobResolver';").join(), /src\/cli may import only src\/core, src\/report and src\/node \(it imports src\/viewer\/blobResolver\.ts\)/);
    assert.match(withProbe(p, "import type { HostMessage } from '../protocol';").join(), /src\/cli may import only src\/core, src\/report and src\/node \(it imports src\/protocol\/index\.ts\)/);
    assert.match(withProbe(p, "import { activate } from '../vscode/extension';").join(), /src\/cli may import only src\/core, src\/report and src\/node \(it imports src\/vscode\/extension\.ts\)/);
    assert.match(withProbe(p, "import type { TreeView } from '../../webview/treeView';").join(), /src\/cli may import only src\/core, src\/report and src\/node \(it imports webview\/treeView\.ts\)/);
  });

  it('lets src/report build on the viewer, never on the editor, the CLI or the browser UI', () => {
    const p = 'src/report/probe.ts';
    assert.deepEqual(withProbe(p, "import { ViewerSession } from '../viewer/viewerSession';\nimport type { HostMessage } from '../protocol';\nimport { loadTrace } from '../core/loadTrace';\nimport { strToU8 } from 'fflate';"), []);
    assert.match(withProbe(p, "import { activate } from '../vscode/extension';").join(), /src\/report may not import src\/vscode\/extension\.ts/);
    assert.match(withProbe(p, "import { main } from '../cli/main';").join(), /src\/report may not import src\/cli\/main\.ts/);
    assert.match(withProbe(p, "import type { TreeView } from '../../webview/treeView';").join(), /src\/report may not import webview\/treeView\.ts/);
    assert.match(withProbe('src/viewer/probe.ts', "import { buildReport } from '../report/buildReport';").join(), /src\/viewer may not import src\/report\/buildReport\.ts/);
    assert.match(withProbe('src/viewer/probe.ts', "import type { TreeView } from '../../webview/treeView';").join(), /src\/viewer may not import webview\/treeView\.ts/);
  });

  it('keeps node:fs out of src/core and src/node for the Node entry points only', () => {
    for (const line of ["import { readFile } from 'node:fs/promises';", "import { statSync } from 'node:fs';", "import * as fs from 'fs';", "const fs = require('fs/promises');"]) {
      assert.match(withProbe('src/core/formats/murmur/probe.ts', line).join(), /src\/core reads files only through its seam/, line);
    }
    assert.deepEqual(withProbe('src/node/probe.ts', "import { readFile } from 'node:fs/promises';"), []);
    assert.deepEqual(withProbe('src/core/probe.ts', "import { fileSystem } from './io/fileSystem';"), []);
    assert.match(withProbe('src/core/probe.ts', "import { nodeFileSystem } from '../node/nodeFileSystem';").join(), /src\/core is pure and may not import src\/node\/nodeFileSystem\.ts/);
    assert.match(withProbe('src/viewer/probe.ts', "import '../node/register';").join(), /only the Node entry points/);
    assert.match(withProbe('src/report/probe.ts', "import '../node/register';").join(), /only the Node entry points/);
    assert.match(withProbe('src/node/probe.ts', "import { TraceRows } from '../viewer/traceRows';").join(), /src\/node may import only src\/core and src\/node/);
    for (const path of ['src/cli/probe.ts', 'src/vscode/probe.ts', 'test/core/io/probe.ts']) {
      assert.deepEqual(withProbe(path, "import '../node/register';".replace('../', path.startsWith('test/') ? '../../../src/' : '../')), [], path);
    }
  });

  it("keeps Node built-ins out of src/core, in any spelling, but the package name 'buffer'", () => {
    const p = 'src/core/formats/lumen/probe.ts';
    for (const line of ["import { join } from 'node:path';", "import * as path from 'path';", "import { createHash } from 'node:crypto';", "const z = require('zlib');",
      "import { Worker } from 'node:worker_threads';", "import { availableParallelism } from 'os';", "import { isUtf8 } from 'node:buffer';", "void import('node:util');"]) {
      assert.match(withProbe(p, line).join(), /src\/core reaches its platform only through its seam \(src\/core\/io\/platform\.ts\), not the Node built-in/, line);
    }
    assert.deepEqual(withProbe(p, "import { Buffer } from 'buffer';"), []);
    assert.deepEqual(withProbe(p, "import { sha256Hex } from '../../io/platform';\nimport { z } from 'zod';"), []);
    assert.deepEqual(withProbe('src/node/probe.ts', "import * as path from 'node:path';\nimport { Worker } from 'node:worker_threads';"), []);
    assert.deepEqual(withProbe('src/viewer/probe.ts', "import { basename } from 'node:path';"), []);
  });

  it("has no src/core file that uses Node's globals (process, __dirname, …) or names Buffer without importing it", () => {
    const core = sources.filter((p) => p.startsWith('src/core/'));
    assert.deepEqual(core.flatMap((p) => nodeGlobalUses(p, readFileSync(join(ROOT, p), 'utf8'))), []);
    const p = 'src/core/probe.ts';
    assert.deepEqual(nodeGlobalUses(p, "const a = 1;\nconst folds = process.platform === 'win32';"), [`${p}:2: uses Node's global process, which the report's page lacks: ask the platform seam (src/core/io/platform.ts)`]);
    assert.deepEqual(nodeGlobalUses(p, "export const b = Buffer.from('x');"), [`${p}:1: names Buffer without importing it: import { Buffer } from 'buffer'`]);
    assert.equal(nodeGlobalUses(p, "export function f(b: Buffer): void {}").length, 1, 'a type use counts too');
    assert.equal(nodeGlobalUses(p, "const w = join(__dirname, 'w.js');\nsetImmediate(() => 0);").length, 2);
    assert.deepEqual(nodeGlobalUses(p, "import { Buffer } from 'buffer';\nexport const b: Buffer = Buffer.alloc(1);"), []);
    // Names that are not references: a property, a key, a comment, a string, a local declaration.
    assert.deepEqual(nodeGlobalUses(p, "// process.env\nconst o = { process: 1, global: 2 };\nconst t = o.process + o.global + 'process.exit';\nfunction g(process: number) { return process; }"), []);
    assert.deepEqual(nodeGlobalUses('src/viewer/probe.ts', "const e = process.env;"), [], 'only src/core is judged');
  });

  it('lets webview/ import only types, and only from src/protocol and src/core', () => {
    assert.deepEqual(withProbe('webview/probe.ts', "import type { HostMessage } from '../src/protocol';"), []);
    assert.deepEqual(withProbe('webview/probe.ts', "import type { HashRef } from '../src/core/model';"), []);
    assert.match(withProbe('webview/probe.ts', "import { FORMAT_NAMES } from '../src/core/model';").join(), /for types only \(or a module of WEBVIEW_VALUE_MODULES\): use 'import type' for src\/core\/model\.ts/);
    assert.deepEqual(withProbe('webview/probe.ts', "export { formatDuration } from '../src/core/display';", ['src/core/display.ts']), []);
    assert.match(withProbe('webview/probe.ts', "export { formatDuration } from '../src/core/formats/common';").join(), /for types only/);
    assert.match(withProbe('webview/probe.ts', "import type { RowData } from '../src/viewer/traceRows';").join(), /may import only src\/protocol\/\*\* and src\/core/);
  });

  it('keeps the modules the webview imports by value pure', () => {
    assert.deepEqual(pureModuleViolations(files, known), []);
    const probe = (text: string): string[] => pureModuleViolations([{ path: 'src/core/display.ts', imports: scanImports('display.ts', text) }], new Set([...known, 'src/core/display.ts']));
    assert.match(probe("import { readFile } from 'node:fs';").join(), /may not import the package node:fs/);
    assert.match(probe("import { FORMATS } from './formats';").join(), /only modules of WEBVIEW_VALUE_MODULES \(not src\/core\/formats\.ts\)/);
    assert.deepEqual(probe("import type { Severity } from './model';"), []);
  });

  it("imports zod's value as a namespace (import * as z), never as its `z` object, which keeps all 40 locales in a bundle", () => {
    // `import { z } from 'zod'` put 454 KB of zod into the HTML report's script; `import * as z` lets the bundler drop
    // what no schema uses (99 KB). Type-only imports (`import type { ZodType }`) bundle nothing.
    const whole = /^\s*import\s+(?!type\b)[^;]*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod['"]/m;
    assert.ok(whole.test("import { z } from 'zod';") && !whole.test("import * as z from 'zod';") && !whole.test("import type { z } from 'zod';"));
    assert.deepEqual(sources.filter((f) => whole.test(readFileSync(join(ROOT, f), 'utf8'))), []);
  });

  it('has no import cycle in src/ and webview/ beyond the known ones', () => {
    const cycles = findCycles(importEdges(files.filter((f) => !f.path.startsWith('test/')), known));
    const key = (c: readonly string[]) => c.join(' -> ');
    const fresh = cycles.filter((c) => !KNOWN_CYCLES.some((k) => key(k) === key(c)));
    const fixed = KNOWN_CYCLES.filter((k) => !cycles.some((c) => key(k) === key(c)));
    assert.deepEqual(fresh.map(key), [], 'new import cycles');
    assert.deepEqual(fixed.map(key), [], 'cycles that are gone: remove them from KNOWN_CYCLES');
  });

  it('finds a cycle a probe adds, through type imports too', () => {
    const a: ScannedFile = { path: 'src/core/probeA.ts', imports: scanImports('a.ts', "import type { B } from './probeB';") };
    const b: ScannedFile = { path: 'src/core/probeB.ts', imports: scanImports('b.ts', "export { A } from './probeA';") };
    const c: ScannedFile = { path: 'src/core/probeC.ts', imports: scanImports('c.ts', "import { C } from './probeC';") };
    const cycles = findCycles(importEdges([a, b, c], new Set([a.path, b.path, c.path])));
    assert.deepEqual(cycles, [['src/core/probeA.ts', 'src/core/probeB.ts'], ['src/core/probeC.ts']]);
  });

  it("makes importing 'vscode' a type error in src/core's and webview's own projects", function () {
    this.timeout(60_000); // two small programs, each with its lib files
    for (const project of ['src/core', 'webview']) {
      const config = ts.readConfigFile(join(ROOT, project, 'tsconfig.json'), (p) => readFileSync(p, 'utf8'));
      const options = ts.parseJsonConfigFileContent(config.config, ts.sys, join(ROOT, project)).options;
      const probe = join(ROOT, project, 'layeringProbe.ts');
      const host = ts.createCompilerHost(options);
      const read = host.getSourceFile.bind(host);
      // The probe exists only in this host: a crashed test leaves nothing behind.
      host.getSourceFile = (name, lang, ...rest) => (name === probe
        ? ts.createSourceFile(name, "import * as vscode from 'vscode';\nexport const probe = vscode;\n", lang)
        : read(name, lang, ...rest));
      const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([probe], options, host));
      const texts = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      assert.ok(texts.some((t) => /vscodeIsNotAllowed.*is not a module/.test(t)), `${project}: ${texts.join(' | ') || 'no error'}`);
    }
  });
});

describe('layers of src/core', () => {
  const core = files.filter((f) => f.path.startsWith('src/core/'));

  it('has no cycle among its folders (and groups of top-level files), type imports included', () => {
    assert.deepEqual(coreLayerCycles(core, known), []);
  });

  it('keeps the check engine off the registry, the formats and the blob store by format name', () => {
    const reached = coreLayerEdges(core, known).get('checks') ?? [];
    for (const above of ['formats', 'registry', 'blobStore']) assert.ok(!reached.includes(above), `checks imports ${above}: ${reached.join(', ')}`);
  });

  it('imports only down the order of CORE_LAYERS, and every folder and top-level file has a layer', () => {
    assert.deepEqual(layerOrderViolations(core, known), []);
    const names = CORE_LAYERS.map((l) => l.name);
    assert.equal(new Set(names).size, names.length, 'a layer is listed twice');
    const grouped = CORE_LAYERS.flatMap((l) => l.files ?? []);
    assert.equal(new Set(grouped).size, grouped.length, 'a top-level file is in two groups');
    for (const name of grouped) assert.ok(known.has(`src/core/${name}`), `CORE_LAYERS lists src/core/${name}, which does not exist`);
    for (const layer of CORE_LAYERS.filter((l) => !l.files)) assert.ok(core.some((f) => coreLayerOf(f.path) === layer.name), `no file in src/core/${layer.name}/`);
  });

  it('finds a folder cycle a probe import makes', () => {
    const a: ScannedFile = { path: 'src/core/blobs/probeA.ts', imports: scanImports('a.ts', "import type { B } from '../json/probeB';") };
    const b: ScannedFile = { path: 'src/core/json/probeB.ts', imports: scanImports('b.ts', "export { A } from '../blobs/probeA';") };
    assert.deepEqual(coreLayerCycles([a, b], new Set([a.path, b.path])), [['blobs', 'json']]);
    // One upward import among the real files closes a ring through them: json is read by the rule engine.
    const probe: ScannedFile = { path: 'src/core/json/layerProbe.ts', imports: scanImports('p.ts', "import type { CheckResult } from '../checks/runChecks';") };
    const cycles = coreLayerCycles([...core, probe], new Set([...known, probe.path]));
    assert.equal(cycles.length, 1);
    assert.ok(cycles[0].includes('json') && cycles[0].includes('checks'), cycles[0].join(' '));
  });

  it('fails on a probe that imports upward or sits in no layer', () => {
    const judge = (path: string, text: string) => layerOrderViolations([{ path, imports: scanImports(path, text) }], new Set([...known, path]));
    assert.deepEqual(judge('src/core/json/layerProbe.ts', "import type { FormatModule } from '../format';"),
      ["src/core/json/layerProbe.ts:1: layer 'json' may not import src/core/format.ts (layer 'contract' is above it in CORE_LAYERS)"]);
    assert.deepEqual(judge('src/core/formats/lumen/layerProbe.ts', "import { FORMATS } from '../../formats';"),
      ["src/core/formats/lumen/layerProbe.ts:1: layer 'formats' may not import src/core/formats.ts (layer 'registry' is above it in CORE_LAYERS)"]);
    assert.deepEqual(judge('src/core/stream/layerProbe.ts', "import { loadTrace } from '../loadTrace';\nimport { isObj } from '../formats/common';"), []);
    // The check engine is handed a format's rules and blob layout; it reads neither the registry nor a format.
    assert.deepEqual(judge('src/core/checks/layerProbe.ts', "import { formatModule } from '../formats';\nimport type { FormatModule } from '../format';"),
      ["src/core/checks/layerProbe.ts:1: layer 'checks' may not import src/core/formats.ts (layer 'registry' is above it in CORE_LAYERS)"]);
    assert.deepEqual(judge('src/core/checks/layerProbe.ts', "import { murmurFormat } from '../formats/murmur/module';\nimport { blobLayoutOf } from '../blobStore/formatBlobs';"), [
      "src/core/checks/layerProbe.ts:1: layer 'checks' may not import src/core/formats/murmur/module.ts (layer 'formats' is above it in CORE_LAYERS)",
      "src/core/checks/layerProbe.ts:2: layer 'checks' may not import src/core/blobStore/formatBlobs.ts (layer 'blobStore' is above it in CORE_LAYERS)",
    ]);
    assert.deepEqual(judge('src/core/formatRules.ts', "import { checkModel } from './checks/runChecks';\nimport { FORMAT_LIST } from './formats';"), []);
    assert.match(judge('src/core/layerProbe.ts', "export const x = 1;").join(), /src\/core\/layerProbe\.ts:0: is in no layer of CORE_LAYERS/);
    assert.match(judge('src/core/probeFolder/x.ts', "export const x = 1;").join(), /is in no layer of CORE_LAYERS/);
  });
});

describe('format names in branches', () => {
  it('appear nowhere outside the format folders and the registry', () => {
    const hits = sources.flatMap((p) => formatNameBranches(p, readFileSync(join(ROOT, p), 'utf8'), FORMAT_NAMES));
    assert.deepEqual(hits, []);
  });

  it('are caught in every spelling, for every format name', () => {
    for (const name of FORMAT_NAMES) {
      const probe = [
        `if (format === '${name}') x();`,
        `if (model.format !== "${name}") x();`,
        `if (this.ctx.model.format == '${name}') x();`,
        `if ('${name}' === trace.format) x();`,
        `switch (f) { case '${name}': break; }`,
        `const own = new Set(['${name}']);`,
        `if (['lumen', '${name}'].includes(fmt)) x();`,
        `const sameFormat = detectedFormat === '${name}';`,
      ].join('\n');
      assert.equal(formatNameBranches('src/viewer/probe.ts', probe, FORMAT_NAMES).length, 8, name);
      assert.deepEqual(formatNameBranches(`src/core/formats/${name}/probe.ts`, probe, FORMAT_NAMES), []);
    }
    assert.deepEqual(formatNameBranches('src/viewer/probe.ts', "const f = { format: 'generic' };\nif (kind === 'lumen') x();", FORMAT_NAMES), []);
  });
});

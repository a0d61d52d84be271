import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BLOB_CATALOG } from '../../../src/core/catalog/blobCatalog';
import { GENERIC_CATALOG, PARSE_CATALOG, TREE_CATALOG } from '../../../src/core/catalog/genericCatalog';
import { allRules, runChecks } from '../../../src/core/formatRules';
import { ruleCatalog, RuleCatalog } from '../../../src/core/catalog/ruleEntries';
import { FORMAT_NAMES } from '../../../src/core/formatNames';
import { loadTrace } from '../../../src/core/loadTrace';
import { FormatName, Severity } from '../../../src/core/model';
import { AGENTLEDGER_CATALOG } from '../../../src/core/formats/agentledger/catalog';
import { CLAUDE_CATALOG } from '../../../src/core/formats/claude-code/catalog';
import { CODEX_CATALOG } from '../../../src/core/formats/codex/catalog';
import { DEEPSTRIKE_CATALOG } from '../../../src/core/formats/deepstrike/catalog';
import { GEMINI_CATALOG } from '../../../src/core/formats/gemini-cli/catalog';
import { HARNESS_CATALOG } from '../../../src/core/formats/harness-ledger/catalog';
import { LUMEN_CATALOG } from '../../../src/core/formats/lumen/lumenRuleCatalog';
import { MURMUR_CATALOG } from '../../../src/core/formats/murmur/ruleCatalog';
import { OTLP_CATALOG } from '../../../src/core/formats/otlp/catalog';
import { cleanup, CORPUS_TRACE, edit, readLines, writeTrace } from '../formats/murmur/murmurTestKit';

const ROOT = join(__dirname, '..', '..', '..');

type AnyCatalog = RuleCatalog<string, string>;

/**
 * Every format's own catalog (null: the format has no rules of its own). A Record over the format names, so a
 * new format does not compile here until its catalog is listed.
 */
const CATALOGS: Record<FormatName, AnyCatalog | null> = {
  murmur: MURMUR_CATALOG,
  'harness-ledger': HARNESS_CATALOG,
  lumen: LUMEN_CATALOG,
  agentledger: AGENTLEDGER_CATALOG,
  deepstrike: DEEPSTRIKE_CATALOG,
  'claude-code': CLAUDE_CATALOG,
  codex: CODEX_CATALOG,
  'gemini-cli': GEMINI_CATALOG,
  'qwen-code': null,
  opencode: null,
  'copilot-cli': null,
  pi: null,
  continue: null,
  otlp: OTLP_CATALOG,
  generic: null,
};

/** The catalogs every format gets: the reader's, the tree builder's, the generic checks' and the blob rules'. */
const SHARED: AnyCatalog[] = [PARSE_CATALOG, TREE_CATALOG, GENERIC_CATALOG, BLOB_CATALOG as unknown as AnyCatalog];

/** Trace files under a folder, as the CLI snapshot walks them (blob stores skipped). */
function traceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'blobs' && name !== 'sha256') out.push(...traceFiles(p));
    } else if (/\.(jsonl|ndjson|json)$/.test(name)) out.push(p);
  }
  return out;
}

/** The catalog that declares a rule: a shared one, or the format's own (only its own: no format reports another's rules). */
function catalogOf(rule: string, format: FormatName): AnyCatalog | undefined {
  return [...SHARED, CATALOGS[format]].find((c) => c?.rules.some((r) => r.id === rule)) ?? undefined;
}

/**
 * A severity written at a finding site: a `severity:` literal or assignment (or a choice of two), a severity
 * argument after a rule id, or a helper that takes a severity parameter (a field holding a catalog severity is
 * fine).
 */
const SEVERITY_AT_SITE = /severity(?::| =) (?:[^,}]*\? )?'(?:error|warning|info)'|'[a-z-]+\/[a-z0-9-]+', '(?:error|warning|info)'|, severity\??: (?:Finding\['severity'\]|Severity\b)/;

describe('rule catalogs', () => {
  after(cleanup);

  const demo = ruleCatalog('demo', 'generic', [
    ['torn', 'verify', 'error', 'A line is torn.', 'Explained.'],
    ['late', 'check', 'info', 'A line is late.', 'Explained.', '{"late":true}'],
  ] as const, { torn: { severity: 'warning', when: 'the last line' } });

  it('makes findings at the catalog severity, or at a declared override, in the CLI key order', () => {
    assert.equal(JSON.stringify(demo.finding('demo/torn', 3, 'm', { seq: 2, eventId: 'e' })), '{"rule":"demo/torn","severity":"error","line":3,"seq":2,"eventId":"e","message":"m"}');
    assert.equal(JSON.stringify(demo.overridden('demo/torn', 4, 'm')), '{"rule":"demo/torn","severity":"warning","line":4,"message":"m"}');
    assert.equal(demo.severityOf('demo/late'), 'info');
    assert.equal(demo.overrideOf('demo/torn'), 'warning');
    assert.deepEqual(demo.rules.map((r) => [r.id, r.format, r.mode, r.severity, r.example ?? null]), [
      ['demo/torn', 'generic', 'verify', 'error', null],
      ['demo/late', 'generic', 'check', 'info', '{"late":true}'],
    ]);
  });

  it('declare every rule the registry knows, each once', () => {
    const declared = [...SHARED, ...Object.values(CATALOGS)].flatMap((c) => c?.rules ?? []).map((r) => r.id);
    assert.deepEqual([...declared].sort(), allRules().map((r) => r.id).sort());
    assert.equal(new Set(declared).size, declared.length);
  });

  it('agree with every finding of every format on the corpus, the real-writer files, the samples and the fixtures', async () => {
    const roots = [join(ROOT, 'test', 'seed-corpus'), join(ROOT, 'samples'), join(ROOT, 'test', 'fixtures'), join(ROOT, 'test', 'corpus')];
    // The murmur traces at hand are clean: a tampered copy of the corpus trace makes its rules fire too.
    const lines = readLines(CORPUS_TRACE);
    const tampered = writeTrace([
      edit(lines[0], (o) => { o.timestamp = 'yesterday'; }),
      lines[1],
      edit(lines[2], (o) => { o.event_id = JSON.parse(lines[1]).event_id; }),
      ...lines.slice(3),
      '{"event_type":"tool_call","event_id":"evt_0',
    ], { newline: false });
    // Gemini CLI's real streams are clean too: without its tool_use line, a result names no call and the totals
    // disagree; a result stamped before the run began sends time backwards (the generic rule).
    const gemini = readLines(join(ROOT, 'test', 'corpus', 'gemini-cli-0.61.0', 'shell-ok', 'stream-json.jsonl'));
    const geminiCut = writeTrace([
      ...gemini.slice(0, -1).filter((l) => !l.startsWith('{"type":"tool_use"')),
      edit(gemini[gemini.length - 1], (o) => { o.timestamp = '2026-12-01T16:25:00.000Z'; }),
    ], { blobs: false });
    const files = [...roots.flatMap(traceFiles), tampered, geminiCut];
    const seen = new Map<string, { catalog: AnyCatalog; severities: Set<Severity> }>();
    for (const file of files) {
      const model = await loadTrace(file);
      for (const mode of ['verify', 'check'] as const) {
        for (const f of (await runChecks(model, mode)).findings) {
          const catalog = catalogOf(f.rule, model.format);
          assert.ok(catalog, `${file}:${f.line} ${f.rule} is in no catalog of the shared rules or of ${model.format}`);
          const allowed = new Set<Severity>([catalog.severityOf(f.rule)]);
          const other = catalog.overrideOf(f.rule) as Severity | undefined; // undefined: no override declared
          if (other) allowed.add(other);
          assert.ok(allowed.has(f.severity), `${file}:${f.line} ${f.rule} is ${f.severity}, catalog says ${[...allowed].join(' or ')}`);
          (seen.get(f.rule) ?? seen.set(f.rule, { catalog, severities: new Set() }).get(f.rule)!).severities.add(f.severity);
        }
      }
    }
    // The files exercise rules of every format that has rules and of the shared catalogs, and overrides among them.
    const fired = new Set([...seen.values()].map((v) => v.catalog));
    for (const [format, catalog] of Object.entries(CATALOGS)) if (catalog) assert.ok(fired.has(catalog), `no ${format} finding seen`);
    for (const catalog of SHARED) assert.ok(fired.has(catalog), `no ${catalog.rules[0].id.split('/')[0]}/ finding seen`);
    const overridden = [...seen].filter(([rule, v]) => [...v.severities].some((sev) => sev !== v.catalog.severityOf(rule)));
    assert.ok(overridden.length > 0, 'no finding at an override severity seen');
  });

  it('leave no severity written where any format, the loader, the tree builder and the blob verifier make findings', () => {
    const hits: string[] = [];
    // A catalog file states severities in its rows and overrides; every other file must take them from one.
    const scan = (rel: string) => {
      const text = readFileSync(join(ROOT, 'src', 'core', rel), 'utf8');
      if (text.includes('= ruleCatalog(')) return;
      text.split('\n').forEach((line, i) => {
        if (SEVERITY_AT_SITE.test(line)) hits.push(`${rel}:${i + 1}`);
      });
    };
    for (const format of FORMAT_NAMES) {
      const dir = join(ROOT, 'src', 'core', 'formats', format);
      for (const name of readdirSync(dir)) scan(`formats/${format}/${name}`);
    }
    for (const rel of ['checks/genericRules.ts', 'loadTrace.ts', 'lineIndexer.ts', 'lineFindings.ts', 'tree.ts', 'crossFileParents.ts', 'json/jsonLine.ts']) scan(rel);
    const blobs = readFileSync(join(ROOT, 'src', 'core', 'checks', 'blobVerification.ts'), 'utf8');
    if (/this\.finding\([^)]*'(?:error|warning|info)'/.test(blobs)) hits.push('checks/blobVerification.ts');
    assert.deepEqual(hits, []);
  });

  it('recognise the severity styles the catalogs replaced', () => {
    for (const old of [
      "out.push({ rule: 'otlp/kind-value', severity: 'warning', line, message });",
      "severity: torn ? 'warning' : 'error',",
      "out.push(f('codex/line-json', 'error', l.line, message));",
      "function f(rule: string, severity: Finding['severity'], l: ClaudeLine, message: string): Finding {",
      "export function finding(rule: string, at: At, message: string, severity?: Severity): Finding {",
      "for (const d of x.diagnostics) if (d.rule === 'parse/lone-cr') d.severity = 'error';",
    ]) assert.ok(SEVERITY_AT_SITE.test(old), old);
    for (const now of [
      "out.push(CODEX_CATALOG.finding('codex/line-json', l.line, message));",
      '  severity: Severity;',
      "  return { rule, severity: DEEPSTRIKE_CATALOG.severityOf(rule), message };",
    ]) assert.ok(!SEVERITY_AT_SITE.test(now), now);
  });
});

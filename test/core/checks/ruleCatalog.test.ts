import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BLOB_CATALOG } from '../../../src/core/checks/blobCatalog';
import { ruleCatalog, RuleCatalog } from '../../../src/core/checks/ruleEntries';
import { runChecks } from '../../../src/core/checks/runChecks';
import { loadTrace } from '../../../src/core/loadTrace';
import { FormatName, Severity } from '../../../src/core/model';
import { DEEPSTRIKE_CATALOG } from '../../../src/core/formats/deepstrike/catalog';
import { HARNESS_CATALOG } from '../../../src/core/formats/harness-ledger/catalog';
import { LUMEN_CATALOG } from '../../../src/core/formats/lumen/lumenRuleCatalog';
import { MURMUR_CATALOG } from '../../../src/core/formats/murmur/ruleCatalog';
import { cleanup, CORPUS_TRACE, edit, readLines, writeTrace } from '../formats/murmur/murmurTestKit';

const ROOT = join(__dirname, '..', '..', '..');

/** The formats whose findings are all made from their catalog (the blob rules' BLOB_CATALOG too). */
const CATALOGS: Partial<Record<FormatName, RuleCatalog<string, string>>> = {
  murmur: MURMUR_CATALOG,
  lumen: LUMEN_CATALOG,
  deepstrike: DEEPSTRIKE_CATALOG,
  'harness-ledger': HARNESS_CATALOG,
};

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

/** The format of a converted catalog's rule id. */
function formatOfRule(rule: string): FormatName {
  const prefix = rule.slice(0, rule.indexOf('/'));
  return prefix === 'harness' ? 'harness-ledger' : prefix === 'blob' ? 'generic' : (prefix as FormatName);
}

/** The catalog a finding's rule belongs to: the blob rules' for `blob/…`, else its format's (if converted). */
function catalogOf(rule: string, format: FormatName): RuleCatalog<string, string> | undefined {
  return rule.startsWith('blob/') ? (BLOB_CATALOG as unknown as RuleCatalog<string, string>) : CATALOGS[format];
}

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

  it('agree with every finding the converted formats report on the corpus, the samples and the fixtures', async () => {
    const roots = [join(ROOT, '..', 'shared', 'corpus'), join(ROOT, 'samples'), join(ROOT, 'test', 'fixtures')];
    // The murmur traces at hand are clean: a tampered copy of the corpus trace makes its rules fire too.
    const lines = readLines(CORPUS_TRACE);
    const tampered = writeTrace([
      edit(lines[0], (o) => { o.timestamp = 'yesterday'; }),
      lines[1],
      edit(lines[2], (o) => { o.event_id = JSON.parse(lines[1]).event_id; }),
      ...lines.slice(3),
      '{"event_type":"tool_call","event_id":"evt_0',
    ], { newline: false });
    const files = [...roots.flatMap(traceFiles), tampered];
    const seen = new Map<string, Set<Severity>>();
    for (const file of files) {
      const model = await loadTrace(file);
      for (const mode of ['verify', 'check'] as const) {
        for (const f of (await runChecks(model, mode)).findings) {
          // The blob rules apply to every format; the format catalogs to their own files.
          const catalog = catalogOf(f.rule, model.format);
          const own = catalog?.rules.find((r) => r.id === f.rule);
          if (!own) continue; // generic, blob and parse rules have their own catalogs
          const allowed = new Set<Severity>([own.severity]);
          const other = catalog!.overrideOf(f.rule) as Severity | undefined; // undefined: no override declared
          if (other) allowed.add(other);
          assert.ok(allowed.has(f.severity), `${file}:${f.line} ${f.rule} is ${f.severity}, catalog says ${[...allowed].join(' or ')}`);
          (seen.get(f.rule) ?? seen.set(f.rule, new Set()).get(f.rule)!).add(f.severity);
        }
      }
    }
    // The files exercise rules of every converted format, and overrides (torn tails) among them.
    for (const prefix of ['murmur/', 'lumen/', 'deepstrike/', 'harness/', 'blob/']) assert.ok([...seen.keys()].some((r) => r.startsWith(prefix)), `no ${prefix} finding seen`);
    const overridden = [...seen].filter(([rule, sevs]) => [...sevs].some((s) => s !== catalogOf(rule, formatOfRule(rule))!.severityOf(rule)));
    assert.ok(overridden.length > 0, 'no finding at an override severity seen');
  });

  it('leave no severity written where the converted formats and the blob verifier make findings', () => {
    const catalogFiles = new Set(['ruleCatalog.ts', 'lumenRuleCatalog.ts', 'catalog.ts']);
    const hits: string[] = [];
    const blobs = readFileSync(join(ROOT, 'src', 'core', 'blobs', 'blobVerification.ts'), 'utf8');
    if (/this\.finding\([^)]*'(?:error|warning|info)'/.test(blobs)) hits.push('blobs/blobVerification.ts');
    for (const format of ['murmur', 'lumen', 'deepstrike', 'harness-ledger']) {
      const dir = join(ROOT, 'src', 'core', 'formats', format);
      for (const name of readdirSync(dir)) {
        if (catalogFiles.has(name)) continue;
        readFileSync(join(dir, name), 'utf8').split('\n').forEach((line, i) => {
          if (/severity: '(?:error|warning|info)'|\{ rule: '[a-z-]+\/[a-z0-9-]+', severity/.test(line)) hits.push(`${format}/${name}:${i + 1}`);
        });
      }
    }
    assert.deepEqual(hits, []);
  });
});

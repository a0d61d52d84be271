import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeSamples } from '../../scripts/generate-samples';
import { runChecks } from '../../src/core/formatRules';
import { loadTrace } from '../../src/core/loadTrace';
import { FormatName } from '../../src/core/model';
import { tempDir } from '../helpers/tmp';

const SAMPLES = resolve('samples');

/** Every file below `dir` (dot folders included), as sorted paths relative to it. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) visit(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  visit(dir);
  return out.sort();
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const only = (pattern: RegExp): string => {
  const hits = walk(SAMPLES).filter((p) => pattern.test(p));
  assert.equal(hits.length, 1, `one sample matches ${pattern}: ${hits.join(', ')}`);
  return hits[0];
};

/** Canonical JSON per lumen.md §6.2 (sorted keys, no whitespace), written here from the spec, not the generator. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

/** Removes the whitespace outside strings: Python's indent=2/sort_keys text becomes its canonical compact form. */
function compactPython(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

const EXPECTED_FORMATS: [RegExp, FormatName][] = [
  [/^murmur\/ses_[0-9a-f]{32}\/trace\.jsonl$/, 'murmur'],
  [/^harness-ledger\/run_[0-9_]+\.jsonl$/, 'harness-ledger'],
  [/^lumen\/\.lumen\/trace\/[0-9a-f-]{36}\.jsonl$/, 'lumen'],
  [/^agentledger\/run_[0-9a-f]{16}\/events\.jsonl$/, 'agentledger'],
  [/^deepstrike\/\.sessions\/[0-9a-f-]{36}\.jsonl$/, 'deepstrike'],
  [/^claude-code\/[0-9a-f-]{36}\.jsonl$/, 'claude-code'],
  [/^codex\/rollout-2026-01-01T10-00-00-[0-9a-f-]{36}\.jsonl$/, 'codex'],
  [/^otlp\/trace\.otlp\.json$/, 'otlp'],
  [/^tampered\/murmur\/ses_[0-9a-f]{32}\/trace\.jsonl$/, 'murmur'],
  [/^tampered\/lumen\/\.lumen\/trace\/[0-9a-f-]{36}\.jsonl$/, 'lumen'],
];

describe('samples/', () => {
  it('is exactly what scripts/generate-samples.ts writes (byte for byte)', () => {
    const dir = tempDir('atv-samples-');
    try {
      writeSamples(dir);
      const committed = walk(SAMPLES);
      assert.deepEqual(walk(dir), committed);
      for (const p of committed) assert.ok(readFileSync(join(dir, p)).equals(readFileSync(join(SAMPLES, p))), `${p} differs from the generator's output`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to replace a non-empty folder it did not write', () => {
    const dir = tempDir('atv-not-samples-');
    try {
      writeFileSync(join(dir, 'notes.txt'), 'keep me');
      assert.throws(() => writeSamples(dir), /refusing to replace/);
      assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'keep me');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const [pattern, format] of EXPECTED_FORMATS) {
    it(`detects ${pattern.source} as ${format}`, async () => {
      const model = await loadTrace(join(SAMPLES, only(pattern)));
      assert.equal(model.format, format, model.detection.reason);
      assert.ok(model.detection.confidence >= 0.5);
      assert.ok(model.events.size > 0);
      assert.equal(model.malformed.length, 0);
    });
  }

  for (const [pattern] of EXPECTED_FORMATS.filter(([p]) => !p.source.startsWith('^tampered'))) {
    it(`${pattern.source} verifies and checks with no error finding`, async () => {
      const model = await loadTrace(join(SAMPLES, only(pattern)));
      for (const mode of ['verify', 'check'] as const) {
        const errors = (await runChecks(model, mode)).findings.filter((f) => f.severity === 'error');
        assert.deepEqual(errors, [], `${mode}: ${errors.map((f) => `${f.rule} line ${f.line}: ${f.message}`).join('; ')}`);
      }
    });
  }

  it('the tampered copies fail verification exactly where the README says', async () => {
    const lumen = await runChecks(await loadTrace(join(SAMPLES, only(/^tampered\/lumen\/.*\.jsonl$/))), 'verify');
    assert.deepEqual(lumen.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.line]), [['lumen/event-hash', 8]]);
    const murmur = await runChecks(await loadTrace(join(SAMPLES, only(/^tampered\/murmur\/.*\/trace\.jsonl$/))), 'verify');
    const errors = murmur.findings.filter((f) => f.severity === 'error');
    assert.ok(errors.length > 0);
    for (const f of errors) {
      assert.equal(f.rule, 'blob/mismatch');
      assert.match(readFileSync(join(SAMPLES, 'README.md'), 'utf8'), new RegExp(`reference it \\([0-9, ]*\\b${f.line}\\b`));
    }
  });

  it('has a README line for every generated file', () => {
    const readme = readFileSync(join(SAMPLES, 'README.md'), 'utf8');
    for (const p of walk(SAMPLES).filter((x) => x !== 'README.md' && !x.startsWith('tampered/'))) assert.ok(readme.includes(`\`${p}\``), p);
  });
});

describe('samples/murmur blobs', () => {
  const session = (root: string): string => join(SAMPLES, only(new RegExp(`^${root}ses_[0-9a-f]{32}/trace\\.jsonl$`)), '..');
  const refs = (dir: string): Set<string> => {
    const shas = new Set<string>();
    for (const line of readFileSync(join(dir, 'trace.jsonl'), 'utf8').split('\n').filter(Boolean)) {
      const e = JSON.parse(line) as Record<string, unknown>;
      for (const k of ['system_prompt_sha256', 'system_sha', 'tools_sha', 'response_sha']) if (typeof e[k] === 'string') shas.add(e[k] as string);
      for (const s of (e.message_shas as string[] | undefined) ?? []) shas.add(s);
    }
    return shas;
  };

  it('are named by the SHA-256 of their exact bytes, and every referenced sha has a file (none orphaned)', () => {
    const dir = session('murmur/');
    const names = readdirSync(join(dir, 'blobs'));
    for (const name of names) assert.equal(sha256(readFileSync(join(dir, 'blobs', name))), name);
    assert.deepEqual([...refs(dir)].sort(), names.sort());
  });

  it('the tampered copy has exactly one blob that no longer hashes to its name', () => {
    const dir = session('tampered/murmur/');
    const broken = readdirSync(join(dir, 'blobs')).filter((n) => sha256(readFileSync(join(dir, 'blobs', n))) !== n);
    assert.equal(broken.length, 1);
    assert.ok(readFileSync(join(SAMPLES, 'README.md'), 'utf8').includes(`blobs/${broken[0]}`), 'README names the broken blob');
  });
});

describe('samples/lumen hash chain (lumen.md §6, recomputed here)', () => {
  const KEYS = ['seq', 'kind', 'prev_hash', 'doc_hash', 'cell', 'tool_id', 'tool_version', 'inputs_hash', 'outputs_hash', 'policy_hash', 'latency_ms', 'cached', 'details', 'message'];
  /** 1-based lines whose seq, prev_hash or hash is wrong, rebasing on the stored hash as upstream does. */
  const brokenLines = (file: string): number[] => {
    const bad: number[] = [];
    let prev = 'sha256:genesis';
    readFileSync(file, 'utf8').split('\n').filter(Boolean).forEach((line, i) => {
      const e = JSON.parse(line) as Record<string, unknown>;
      const pre = Object.fromEntries(KEYS.map((k) => [k, e[k] ?? null]));
      const hash = `sha256:${sha256(canonical(pre))}`;
      if (e.seq !== i + 1 || e.prev_hash !== prev || e.hash !== hash) bad.push(i + 1);
      prev = e.hash as string;
    });
    return bad;
  };

  it('verifies on every line of the clean run, and doc_hash is the SHA-256 of the .lm source', () => {
    const file = join(SAMPLES, only(/^lumen\/\.lumen\/trace\/.*\.jsonl$/));
    assert.deepEqual(brokenLines(file), []);
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { doc_hash: string };
    assert.equal(first.doc_hash, `sha256:${sha256(readFileSync(join(SAMPLES, 'lumen/fix_greeting.lm')))}`);
  });

  it('breaks on exactly the line the README names in the tampered copy', () => {
    const bad = brokenLines(join(SAMPLES, only(/^tampered\/lumen\/.*\.jsonl$/)));
    assert.equal(bad.length, 1);
    assert.match(readFileSync(join(SAMPLES, 'README.md'), 'utf8'), new RegExp(`line ${bad[0]} \\(seq ${bad[0]}`));
  });
});

describe('samples/agentledger digests (agentledger.md §7.5, §7.6, §8.1)', () => {
  const runDir = (): string => join(SAMPLES, only(/^agentledger\/run_[0-9a-f]{16}\/events\.jsonl$/), '..');

  it('blob-backed payload hashes name blobs whose canonical JSON hashes to the name; inline rows have null hashes', () => {
    const dir = runDir();
    const rows = readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(rows.map((r) => r.seq), rows.map((_, i) => i + 1));
    for (const r of rows) {
      if (r.payload_hash === null) {
        assert.deepEqual(JSON.parse(r.payload_ref as string), r.payload);
        continue;
      }
      const hex = (r.payload_hash as string).replace(/^sha256:/, '');
      assert.equal(r.payload_ref, `blob://sha256/${hex}.json`);
      const body = readFileSync(join(dir, 'blobs', 'sha256', `${hex}.json`), 'utf8');
      assert.equal(sha256(compactPython(body)), hex);
      assert.deepEqual(JSON.parse(body), r.payload);
    }
  });

  it('bundle_hash is the SHA-256 of the canonical bundle without it', () => {
    const text = readFileSync(join(runDir(), 'bundle.json'), 'utf8');
    const stated = (JSON.parse(text) as { bundle_hash: string }).bundle_hash;
    const without = compactPython(text).replace(`,"bundle_hash":"${stated}"`, '');
    assert.equal(`sha256:${sha256(without)}`, stated);
  });
});

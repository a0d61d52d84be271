import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { jsonPieces, LazyArray } from '../../src/cli/jsonStream';
import { escapeTerminal } from '../../src/cli/terminalText';
import { tempFile } from '../helpers/tmp';

function cli(args: string[], shell?: string) {
  const r = shell
    ? spawnSync('sh', ['-c', shell], { encoding: 'utf8' })
    : spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Controls a terminal acts on: ESC (ANSI, OSC title), C1 CSI, BEL, DEL, CR, bidi overrides and isolates.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('CLI output on hostile and huge input (issue 19)', () => {
  before(function () {
    if (!existsSync('dist/cli.js')) throw new Error('dist/cli.js missing: run `npm run build` first');
  });

  it('item 8/10: escapes terminal controls and bidi in the human output of every command', () => {
    const nasty = '\\u001b]0;PWNED\\u0007\\u001b[2J\\u009b31m\\u202eexe.pdf\\u2066\\r';
    const path = tempFile('esc.jsonl', `{"id":"a${nasty}","parent_id":"p${nasty}","kind":"k${nasty}","type":"t${nasty}"}\n{"broken ${nasty}\n`);
    for (const c of ['summary', 'tree', 'verify', 'check']) {
      const r = cli([c, path]);
      assert.ok(r.code === 0 || r.code === 1, `${c}: exit ${r.code} ${r.err}`);
      assert.ok(!CONTROLS.test(r.out), `${c} printed a raw control: ${JSON.stringify(r.out)}`);
      assert.ok(r.out.includes('\\x1b'), `${c} shows the escape visibly`);
    }
    assert.equal(escapeTerminal('a\tb\nc\u001b[0m\u202e\u0085'), 'a\tb\nc\\x1b[0m\\u202e\\x85');
  });

  it('item 3: --json is written in pieces with the exact bytes of JSON.stringify', () => {
    const value = { format: 'generic', ok: false, checked: 2, findings: [{ rule: 'r', severity: 'error', line: 1, seq: undefined, message: 'm\n"q"' }, { rule: 's', line: 2 }], file: 'f', empty: [], o: {}, nested: [[1, [2, {}]], null, undefined] };
    for (const depth of [0, 1, 2, 3, 8]) {
      assert.equal([...jsonPieces(value, depth)].join(''), JSON.stringify(value, null, 2), `pretty, depth ${depth}`);
      assert.equal([...jsonPieces(value, depth, false)].join(''), JSON.stringify(value), `compact, depth ${depth}`);
    }
    // Written a piece at a time: findings gathered into pieces of about 64 KB, never all of them together.
    const many = { findings: Array.from({ length: 10_000 }, (_, i) => ({ rule: 'r', line: i, message: 'm'.repeat(50) })) };
    const pieces = [...jsonPieces(many, 3)];
    assert.ok(pieces.length >= 15 && Math.max(...pieces.map((p) => p.length)) < 66_000, `${pieces.length} pieces`);
    assert.equal(pieces.join(''), JSON.stringify(many, null, 2));
    const lazyMany = new LazyArray(() => many.findings);
    assert.equal([...jsonPieces({ runs: [{ results: lazyMany }] }, 4)].join(''), JSON.stringify({ runs: [{ results: lazyMany }] }, null, 2));
    const lazy = { runs: [{ results: new LazyArray(() => [1, 2].map((n) => ({ n, u: undefined }))) }], empty: new LazyArray(() => []) };
    assert.equal([...jsonPieces(lazy, 4)].join(''), JSON.stringify(lazy, null, 2), 'a lazy array is written as the array it stands for');
    const path = tempFile('dangling.jsonl', Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `e${i}`, parent_id: `gone${i}` })).join('\n') + '\n');
    const r = cli(['check', '--json', path]);
    const parsed = JSON.parse(r.out) as { findings: unknown[] };
    assert.equal(r.out, JSON.stringify(parsed, null, 2) + '\n');
    assert.equal(parsed.findings.length, 3000);
  });

  it('item 11: one unreadable file with --json prints one object naming the cause; the message names the file', () => {
    const r = cli(['verify', '--json', 'no/such/trace.jsonl']);
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.out), { format: null, ok: false, checked: 0, findings: [], file: 'no/such/trace.jsonl', error: 'cannot read: no such file' });
    assert.equal(r.err, 'agent-trace: no/such/trace.jsonl: cannot read: no such file\n');
  });

  it('item 11: a readable file is never "cannot read"; a time out of range names no crash', () => {
    const path = tempFile('deep.jsonl', '['.repeat(5000) + ']'.repeat(5000) + '\n{"id":"a","timestamp":99999999999999999}\n');
    for (const c of ['summary', 'tree', 'verify', 'check']) {
      const r = cli([c, '--format', 'murmur', path]);
      assert.ok(r.code === 0 || r.code === 1, `${c}: ${r.code} ${r.err}`);
      assert.doesNotMatch(r.err, /cannot read|Invalid time value|Maximum call stack/);
    }
  });

  it('item 11: verify/check DIR read files whose names are not valid UTF-8 (byte paths) and exit by findings, not 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'non-utf8-'));
    // Each name holds byte 0xFF, which is never UTF-8: as a string the name would open another, missing file.
    const named = (stem: string, ext: string) => Buffer.concat([Buffer.from(join(dir, stem)), Buffer.from([0xff]), Buffer.from(ext)]);
    writeFileSync(named('caf', '.jsonl'), '{"id":"a"}\n{"id":"b","parent_id":"a"}\n');
    // A multi-line document (read whole, then re-read by the checks) and a gzip file (the byte source).
    writeFileSync(named('doc', '.events.json'), '[\n  {"id":"a"},\n  {"id":"b", "parent_id":"a"},\n  {"id":"c"}\n]\n');
    writeFileSync(named('gz', '.jsonl.gz'), gzipSync('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n{"id":"d"}\n'));
    writeFileSync(join(dir, 'ok.jsonl'), '{"id":"a"}\n');
    for (const mode of ['verify', 'check']) {
      const r = cli([mode, '--json', dir]);
      assert.equal(r.err, '', mode);
      assert.equal(r.code, 0, `${mode}: ${r.out}`);
      const results = JSON.parse(r.out) as { checked: number; file: string; findings: unknown[] }[];
      assert.deepEqual(results.map((x) => [x.file.slice(dir.length + 1), x.checked]), [['caf\ufffd.jsonl', 2], ['doc\ufffd.events.json', 3], ['gz\ufffd.jsonl.gz', 4], ['ok.jsonl', 1]], mode);
    }
    const human = cli(['check', dir]);
    assert.equal(human.code, 0, human.err);
    assert.ok(human.out.includes(`${join(dir, 'caf')}\ufffd.jsonl: generic: 0 findings`), human.out);
    // A finding in such a file is its own line and exit status, like any other file's.
    writeFileSync(named('torn', '.jsonl'), '{"id":"a"}\n{"id":\n{"id":"c"}\n');
    const broken = cli(['verify', dir]);
    assert.equal(broken.code, 1, broken.out + broken.err);
    assert.match(broken.out, /torn\ufffd\.jsonl: generic: broken at line 2/);
  });

  it('item 11: output piped to head ends quietly with the exit status of the work', () => {
    const path = tempFile('many.jsonl', Array.from({ length: 20000 }, (_, i) => JSON.stringify({ id: `e${i}`, parent_id: `gone${i}` })).join('\n') + '\n');
    for (const args of ['check', 'check --json', 'tree', 'tree --json', 'verify --json']) {
      const r = cli([], `node dist/cli.js ${args} '${path}' | head -c 10 >/dev/null; echo "status=\${PIPESTATUS:-x}"`);
      assert.equal(r.err, '', `${args}: ${r.err}`);
    }
    const r = spawnSync('bash', ['-c', `node dist/cli.js check '${path}' | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.trim(), '0');
  });
});

import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';
import { corpusPath } from '../helpers/corpus';

/** `rule@line:severity` of a `verify --json` result. */
function shown(out: string): string[] {
  return (JSON.parse(out) as { findings: { rule: string; line: number; severity: string }[] }).findings.map((f) => `${f.rule}@${f.line}:${f.severity}`);
}

describe('agent-trace verify|check --blob-root (the agentTrace.blobRoots setting of the editor)', () => {
  before(requireBuiltCli);
  let dir: string;
  let root: string;

  // An agentledger evidence folder copied without its blobs (an empty blobs/sha256/ beside the trace), whose blobs
  // are kept in a folder elsewhere.
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cli-blob-root-'));
    cpSync(join(corpusPath('agentledger'), 'side-effect-idempotency'), join(dir, 'evidence'), { recursive: true });
    renameSync(join(dir, 'evidence', 'blobs'), join(dir, 'kept'));
    mkdirSync(join(dir, 'evidence', 'blobs', 'sha256'), { recursive: true });
    root = join(dir, 'kept');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('verifies an agentledger trace intact with its blobs under --blob-root, and reports them missing without it', () => {
    const trace = join(dir, 'evidence', 'events.jsonl');
    const without = cli('verify', '--json', trace);
    assert.equal(without.code, 0, without.err);
    assert.deepEqual(shown(without.out), [5, 7, 15, 17].map((l) => `agentledger/blob-exists@${l}:warning`));
    const withRoot = cli('verify', '--json', '--blob-root', root, trace);
    assert.equal(withRoot.code, 0, withRoot.err);
    assert.deepEqual(shown(withRoot.out), []);
    // A relative root is taken from the current folder; the option repeats.
    const relativeRoot = cli('verify', '--json', '--blob-root', join(dir, 'nowhere'), `--blob-root=${relative(process.cwd(), root)}`, trace);
    assert.deepEqual(shown(relativeRoot.out), []);
    assert.deepEqual(shown(cli('check', '--json', '--blob-root', root, trace).out), shown(cli('check', '--json', trace).out));
  });

  it('lets the blob verifier of other formats find a murmur session\'s blobs there too', () => {
    cpSync(corpusPath('murmur'), join(dir, 'murmur'), { recursive: true });
    const session = join(dir, 'murmur', 'ses_39263059f28c105d1fb17c2390c192cf');
    renameSync(join(session, 'blobs'), join(dir, 'murmur-blobs'));
    const without = cli('verify', '--json', join(session, 'trace.jsonl'));
    assert.equal(without.code, 1, without.out);
    assert.ok(shown(without.out).every((f) => f.startsWith('blob/missing@')), without.out);
    const withRoot = cli('verify', '--json', '--blob-root', join(dir, 'murmur-blobs'), join(session, 'trace.jsonl'));
    assert.equal(withRoot.code, 0, withRoot.out);
    assert.deepEqual(shown(withRoot.out), []);
  });

  it('is listed in the help and refuses an empty folder name', () => {
    for (const c of ['verify', 'check']) assert.match(cli(c, '--help').out, /--blob-root DIR/);
    const r = cli('verify', '--blob-root', '', join(dir, 'evidence', 'events.jsonl'));
    assert.equal(r.code, 2);
    assert.match(r.err, /--blob-root needs a folder/);
  });
});

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sharedBlobHashCache } from '../../src/core/blobs/blobHashing';
import { loadTrace } from '../../src/core/loadTrace';
import { tempDir } from '../helpers/tmp';
import { runCliInProcess as runCli } from '../helpers/cliInProcess';

/**
 * Issue 41 (a): a blob replaced by something that is not a regular file (a directory, a FIFO, a symbolic link to
 * itself or to nothing) fails verification like a missing blob, in every format that has blobs, and is never
 * opened (a FIFO would hang the reader). Each case is a temp copy of a real trace with its blob store.
 */
interface Case {
  format: string;
  /** The trace, relative to the repository; its folder is copied. */
  trace: string;
  /** Where the replaced blob lives, relative to the copied folder, for a digest. */
  blobFile: (digest: string) => string;
  /** A generated trace (formats whose real files name no blob): written into the copy. */
  write?: (dir: string) => string;
  /** Edits the copied trace so that it names a blob (real files of the format that name none). */
  edit?: (text: string) => string;
  /** The error rule expected. */
  rule: RegExp;
}

const GENERIC_DIGEST = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';

const CASES: Case[] = [
  { format: 'murmur', trace: 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl', blobFile: (d) => `blobs/${d}`, rule: /^blob\/unreadable$/ },
  { format: 'agentledger', trace: 'samples/agentledger/run_4c6f798988127e13/events.jsonl', blobFile: (d) => `blobs/sha256/${d}.json`, rule: /^agentledger\/blob-integrity$/ },
  {
    format: 'harness-ledger', trace: 'samples/harness-ledger/run_1767261600000_31337_0.jsonl', blobFile: (d) => `blobs/${d}`, rule: /^blob\/unreadable$/,
    // A tool result's artifact, as the spec writes them: its digest names the artifact's blob.
    edit: (text) => text.replace('"artifacts":[]', `"artifacts":[{"path":"src/greeting.js","sha256":"${GENERIC_DIGEST}"}]`),
  },
  { format: 'deepstrike', trace: 'test/seed-corpus/deepstrike/sdk-python/5ce9abd6-7731-43aa-8c84-1e53d53666dd.jsonl', blobFile: (d) => `blobs/${d}`, rule: /^blob\/unreadable$/ },
  { format: 'lumen', trace: 'samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl', blobFile: (d) => `blobs/${d}`, rule: /^blob\/unreadable$/ },
  {
    format: 'generic', trace: 'samples/agentledger/run_4c6f798988127e13/bundle.json', blobFile: (d) => `blobs/sha256/${d}.json`, rule: /^blob\/unreadable$/,
    write: (dir) => {
      mkdirSync(join(dir, 'blobs/sha256'), { recursive: true });
      cpSync(join('test/seed-corpus/agentledger/side-effect-idempotency/blobs/sha256', `${GENERIC_DIGEST}.json`), join(dir, 'blobs/sha256', `${GENERIC_DIGEST}.json`));
      const path = join(dir, 'log.jsonl');
      writeFileSync(path, [{ type: 'call', ref: `blob://sha256/${GENERIC_DIGEST}.json` }, { type: 'result', ok: true }].map((o) => JSON.stringify(o)).join('\n') + '\n');
      return path;
    },
  },
];

type Replacement = 'directory' | 'fifo' | 'self-symlink' | 'dangling-symlink';
const REPLACEMENTS: Replacement[] = ['directory', 'fifo', 'self-symlink', 'dangling-symlink'];

function replace(file: string, how: Replacement): void {
  rmSync(file, { force: true, recursive: true });
  mkdirSync(dirname(file), { recursive: true });
  if (how === 'directory') mkdirSync(file);
  else if (how === 'fifo') execFileSync('mkfifo', [file]);
  else if (how === 'self-symlink') symlinkSync(basename(file), file);
  else symlinkSync(`${basename(file)}.gone`, file);
}

/** A copy of the case's trace folder; the trace's path in it and the digest of one blob it references. */
async function prepare(c: Case): Promise<{ trace: string; digest: string }> {
  const dir = join(tempDir('atv-blob41-'), 'run');
  let trace: string;
  if (c.write) {
    mkdirSync(dir, { recursive: true });
    trace = c.write(dir);
  } else {
    cpSync(dirname(c.trace), dir, { recursive: true });
    trace = join(dir, basename(c.trace));
    if (c.edit) writeFileSync(trace, c.edit(readFileSync(trace, 'utf8')));
  }
  const model = await loadTrace(trace);
  assert.equal(model.format, c.format);
  let digest: string | undefined;
  for (const i of model.events.eventsWithHashRefs()) {
    for (const r of model.events.hashRefsOf(i)) if (!digest && r.algorithm === 'sha256') digest = r.digest;
  }
  assert.ok(digest, `${c.trace} names a digest`);
  return { trace, digest };
}

describe('a blob that is not a regular file fails verification in every format (issue 41)', function () {
  this.timeout(120000);
  for (const c of CASES) {
    it(`${c.format}: a directory, a FIFO, a self-link or a dangling link in a blob's place is a verify error (exit 1)`, async function () {
      const { trace, digest } = await prepare(c);
      const file = join(dirname(trace), c.blobFile(digest));
      if (!existsSync(file)) {
        // A format whose real traces ship no store: the store beside the trace holds this one blob.
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, 'x');
      }
      const rulesBefore = JSON.parse((await runCli('verify', '--json', trace)).out).findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { rule: string }) => f.rule);
      for (const how of REPLACEMENTS) {
        if (how === 'fifo' && process.platform === 'win32') continue;
        replace(file, how);
        sharedBlobHashCache.clear();
        const r = await runCli('verify', '--json', trace);
        assert.equal(r.code, 1, `${c.format} ${how}: exit ${r.code} ${r.err}`);
        const doc = JSON.parse(r.out);
        const errors = doc.findings.filter((f: { severity: string; rule: string }) => f.severity === 'error' && c.rule.test(f.rule) && !rulesBefore.includes(f.rule));
        assert.ok(errors.length > 0, `${c.format} ${how}: ${JSON.stringify(doc.findings.filter((f: { rule: string }) => /blob/.test(f.rule)))}`);
        assert.match(errors[0].message, how === 'directory' ? /is a directory, not a regular file/ : how === 'fifo' ? /is a FIFO \(named pipe\), not a regular file/ : how === 'self-symlink' ? /is a symbolic link loop/ : /is a symbolic link to nothing/);
        // check (conformance) reads no blob, and does not hang on one either.
        const k = await runCli('check', '--json', trace);
        assert.ok(k.code === 0 || k.code === 1, `${c.format} ${how} check: exit ${k.code} ${k.err}`);
      }
    });
  }
});

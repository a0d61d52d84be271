// The extension's checks with a worker (issue 14 item 4): the file is read in the worker, never by the
// extension host's model cache; both modes reach Problems (with the finding line's real range) and the viewer.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fake, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { corpusPath } from '../helpers/corpus';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { CheckCommands } = require('../../src/vscode/commands/checkCommands') as typeof import('../../src/vscode/commands/checkCommands');
const { TraceProblems } = require('../../src/vscode/commands/problems') as typeof import('../../src/vscode/commands/problems');
const { TraceModels } = require('../../src/vscode/traceModels') as typeof import('../../src/vscode/traceModels');
type CheckResult = import('../../src/core/checks/runChecks').CheckResult;

const TAMPERED = corpusPath('lumen', 'negative', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl');
const SCRIPT = { file: resolve('src/viewer/checksWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };

describe('checks in a worker, through the extension', function () {
  this.timeout(60_000);

  it('reads the file in the worker only; verify and check reach Problems and the viewer', async () => {
    let hostLoads = 0;
    const models = new TraceModels({ loadedModel: async () => undefined }, async () => {
      hostLoads++;
      throw new Error('the host thread must not read the trace');
    });
    const shown: [string, CheckResult][] = [];
    const viewers = { showCheckResults: (_u: unknown, mode: string, r: CheckResult) => shown.push([mode, r]) } as never;
    const problems = new TraceProblems(Uri.file(resolve('.')) as never);
    const checks = new CheckCommands(models, problems, viewers, SCRIPT);
    const uri = Uri.file(TAMPERED);
    const done = await checks.runModes(uri as never, ['verify', 'check']);
    assert.equal(hostLoads, 0);
    assert.deepEqual([...done.keys()], ['verify', 'check']);
    assert.deepEqual(shown.map(([m]) => m), ['verify', 'check']);
    const verify = done.get('verify')!;
    assert.equal(verify.ok, false);
    const first = verify.findings.find((f) => f.severity === 'error')!;
    const diags = (fake.diagnostics.get('agent-trace-verify')?.get(uri.toString()) ?? []) as { range: { startLine: number; endChar: number } }[];
    const d = diags.find((x) => x.range.startLine === first.line - 1);
    assert.ok(d, `a diagnostic on line ${first.line}`);
    // The range spans the whole line, as with the in-thread path: the worker sent the line's length.
    assert.equal(d.range.endChar, readFileSync(TAMPERED, 'utf8').split('\n')[first.line - 1].length);
    problems.dispose();
  });

  it('looks for blobs under the agentTrace.blobRoots setting, in the worker and in the thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vscode-blob-roots-'));
    try {
      // An agentledger evidence copy whose blobs are kept elsewhere (an empty store beside the trace).
      cpSync(corpusPath('agentledger', 'side-effect-idempotency'), join(dir, 'evidence'), { recursive: true });
      renameSync(join(dir, 'evidence', 'blobs'), join(dir, 'kept'));
      mkdirSync(join(dir, 'evidence', 'blobs', 'sha256'), { recursive: true });
      const uri = Uri.file(join(dir, 'evidence', 'events.jsonl'));
      const verify = async (script: typeof SCRIPT | null) => {
        const problems = new TraceProblems(Uri.file(resolve('.')) as never);
        const models = new TraceModels({ loadedModel: async () => undefined });
        const checks = new CheckCommands(models, problems, { showCheckResults: () => undefined } as never, script);
        const r = (await checks.runModes(uri as never, ['verify'])).get('verify')!;
        problems.dispose();
        return r.findings.map((f) => `${f.rule}@${f.line}`);
      };
      const missing = ['agentledger/blob-exists@5', 'agentledger/blob-exists@7', 'agentledger/blob-exists@15', 'agentledger/blob-exists@17'];
      assert.deepEqual(await verify(SCRIPT), missing);
      fake.config.blobRoots = [join(dir, 'kept')];
      assert.deepEqual(await verify(SCRIPT), []);
      assert.deepEqual(await verify(null), []);
    } finally {
      delete fake.config.blobRoots;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

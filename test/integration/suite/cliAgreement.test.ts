import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activatedExtension, ruleOf } from './helpers';

/** Trace files of the shared corpus (next to the project), as `agent-trace check` finds them. */
function corpusTraces(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'blobs') walk(p);
      } else if (/\.(jsonl|ndjson)$|\.(otlp|events)\.json$/.test(name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

suite('Problems panel and CLI agree', () => {
  let root = '';
  suiteSetup(async () => {
    root = (await activatedExtension()).extensionPath;
  });

  test('check: every corpus file gets the same findings (rule, line, severity) in both', async function () {
    this.timeout(240_000);
    const files = corpusTraces(join(root, 'test', 'seed-corpus'));
    assert.ok(files.length >= 30, `corpus files: ${files.length}`);
    let compared = 0;
    for (const file of files) {
      // Exit code 1 (error findings) is a normal outcome here; the JSON is what is compared.
      const run = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'check', '--json', file], { encoding: 'utf8' });
      assert.ok(run.status === 0 || run.status === 1, `${file}: exit ${run.status}: ${run.stderr}`);
      const cli = JSON.parse(run.stdout);
      const uri = vscode.Uri.file(file);
      await vscode.commands.executeCommand('agentTrace.checkConformance', uri);
      const fromCli = (cli.findings as { rule: string; line: number; severity: string }[]).map((f) => `${f.line - 1}:${f.rule}:${SEVERITY[f.severity]}`).sort();
      const check = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Agent Trace: Check');
      const fromPanel = check.map((d) => `${d.range.start.line}:${ruleOf(d)}:${d.severity}`).sort();
      assert.deepEqual(fromPanel, fromCli, file);
      compared += fromCli.length;
    }
    assert.ok(compared >= 20, `findings compared: ${compared}`);
  });
});

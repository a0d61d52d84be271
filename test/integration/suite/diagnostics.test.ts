import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { activatedExtension, describeDiagnostics, onlyJsonl, ruleOf, runUntilDiagnostics } from './helpers';

/** Error diagnostics of a file as `line:rule` (0-based line). */
function errors(uri: vscode.Uri): string[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => `${d.range.start.line}:${ruleOf(d)}`);
}

suite('diagnostics', () => {
  suiteSetup(async () => {
    await activatedExtension();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('agentTrace.verifyChain on the tampered lumen trace reports lumen/event-hash on line 8 and nothing else', async () => {
    // samples/README.md: line 8 (seq 8) had details.success flipped after hashing.
    const uri = await onlyJsonl('tampered/lumen/.lumen/trace');
    await runUntilDiagnostics('agentTrace.verifyChain', uri);
    assert.deepEqual(errors(uri), ['7:lumen/event-hash'], `diagnostics: ${JSON.stringify(describeDiagnostics(uri))}`);
    const d = vscode.languages.getDiagnostics(uri).find((x) => ruleOf(x) === 'lumen/event-hash');
    assert.ok(d && d.message.length > 0, "the diagnostic explains itself");
  });

  test('agentTrace.verifyChain on the clean lumen trace publishes no error', async () => {
    const uri = await onlyJsonl('lumen/.lumen/trace');
    await runUntilDiagnostics('agentTrace.verifyChain', uri);
    assert.deepEqual(errors(uri), [], `diagnostics: ${JSON.stringify(describeDiagnostics(uri))}`);
  });
});

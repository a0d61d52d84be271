import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { activatedExtension } from './helpers';

suite('commands', () => {
  test('every agentTrace command package.json contributes is registered after activation', async () => {
    const ext = await activatedExtension();
    // Read the contributions at run time, so a command added later is covered without editing this test.
    const contributed: string[] = (ext.packageJSON.contributes?.commands ?? [])
      .map((c: { command: string }) => c.command)
      .filter((id: string) => id.startsWith('agentTrace.'));
    assert.ok(contributed.includes('agentTrace.openInViewer'), `contributed: ${JSON.stringify(contributed)}`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed in package.json but not registered by activate(): ${missing.join(', ')}`);
  });
});

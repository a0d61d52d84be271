import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, activatedExtension } from './helpers';

suite('activation', () => {
  test('the extension is loaded from the project and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among the loaded extensions`);
    assert.equal(ext.packageJSON.name, 'agent-trace-viewer');
    assert.equal(ext.packageJSON.main, './dist/extension.js');
    await activatedExtension();
    assert.equal(ext.isActive, true, 'activate() resolved but the extension is not active');
  });
});

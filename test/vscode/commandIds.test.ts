// Command ids are written once (src/vscode/commandIds.ts): package.json contributes exactly those, and the
// extension registers exactly those when it activates.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMANDS } from '../../src/vscode/commandIds';

const pkg = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('command ids', () => {
  it("package.json's contributed commands are exactly COMMANDS", () => {
    const contributed = (pkg.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
  });

  it('every menu, palette entry and keybinding names a command of COMMANDS', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    const menus = Object.values(pkg.contributes.menus as Record<string, { command: string }[]>).flat();
    for (const entry of [...menus, ...(pkg.contributes.keybindings as { command: string }[])]) assert.ok(known.has(entry.command), entry.command);
  });
});

// The packaged extension: what `vsce` puts in the .vsix (per .vscodeignore) and how big it gets.
// Lists files with `vsce ls` (the rules as they are now) and checks a package built from dist/.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const MAX_BYTES = 5 * 1024 * 1024;
// The files `vsce ls` lists here are the test build's (not minified; `npm run package` minifies): the
// report host and the compare view pushed them past 5 MiB, and five bundles that each carry the core (extension,
// CLI, checks and range workers, report host) past 8 MiB, while the .vsix users download stays under 5 MB (the
// next test). This cap catches a dependency or a source tree slipping in, which would add megabytes.
const MAX_LISTED_BYTES = 9 * 1024 * 1024;
const REQUIRED = ['dist/extension.js', 'dist/cli.js', 'dist/cliMain.js', 'dist/rangeWorker.js', 'dist/sessionsWorker.js', 'dist/reportHost.js', 'dist/compare.js', 'dist/webview.js', 'media/icon.png', 'docs/rules.md', 'package.json', 'README.md', 'LICENSE'];
const FORBIDDEN = [/^src\//, /^test\//, /^node_modules\//, /^samples\//, /^\.vscode-test\//, /^scripts\//, /^webview\//, /\.map$/, /\.ts$/];

/** Names in a zip file's central directory (enough of the format for a .vsix). */
export function zipEntries(zip: Buffer): string[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, `central directory entry ${i}`);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLen));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

function checkList(files: string[], where: string): void {
  for (const f of REQUIRED) assert.ok(files.includes(f), `${where} lacks ${f}: ${files.join(', ')}`);
  for (const f of files) for (const re of FORBIDDEN) assert.ok(!re.test(f), `${where} holds ${f}`);
}

describe('packaging (.vsix contents)', function () {
  this.timeout(120_000);

  it('vsce ls lists the runtime files and nothing from sources, tests, samples or dependencies', function () {
    if (!existsSync(join(ROOT, 'dist', 'extension.js'))) this.skip(); // needs `npm run build`
    const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const out = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
    const files = out.split('\n').map((l) => l.trim()).filter(Boolean);
    checkList(files, 'vsce ls');
    const bytes = files.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
    assert.ok(bytes < MAX_LISTED_BYTES, `the listed files take ${bytes} bytes (limit ${MAX_LISTED_BYTES})`);
  });

  it('a .vsix built from dist/ holds the same files and stays under 5 MB', function () {
    if (!existsSync(join(ROOT, 'dist', 'extension.js'))) this.skip(); // needs `npm run build`
    // vsce packages dist/ as it is (no prepublish script): build a package into a temp folder, as CI does.
    const out = join(mkdtempSync(join(tmpdir(), 'atv-vsix-')), 'agent-trace-viewer.vsix');
    const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const zip = readFileSync(out);
    assert.ok(zip.length < MAX_BYTES, `${out} is ${zip.length} bytes`);
    const entries = zipEntries(zip);
    assert.ok(entries.includes('extension.vsixmanifest'), 'a vsix manifest');
    // vsce renames the license to LICENSE.txt and lower-cases readme/changelog inside the package.
    const files = entries.filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
    const normalized = files.map((f) => ({ 'LICENSE.txt': 'LICENSE', 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md' })[f] ?? f);
    checkList(normalized, 'the .vsix');
  });
});

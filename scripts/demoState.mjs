// The state folder `npm start` reuses between runs (.vscode-test/demo): user settings for a quiet first
// start, the folder to open, and the URL that opens it with a trace already in the viewer.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Settings for a workbench that opens on the trace, not on VS Code's own welcome: no walkthrough or welcome
 * page, no "git repository found in parent folders" prompt, no extension gallery or update checks.
 */
export const DEMO_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
};

/** Adds the demo settings the user has not set themselves (their own choices from earlier runs stay). */
export function writeDemoSettings(userDataDir) {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  let current = {};
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // missing, or JSONC with comments: start from the demo settings (a commented file is left alone)
    if (existsSync(file) && readFileSync(file, 'utf8').trim().length > 0) return;
  }
  writeFileSync(file, JSON.stringify({ ...DEMO_SETTINGS, ...current }, null, 2));
}

/**
 * code-server sends a URL without `?folder=` to the folder it opened last (kept in coder.json): make that
 * the folder asked for now, so even a bookmarked bare URL opens it.
 */
export function rememberFolder(userDataDir, folder) {
  const file = join(userDataDir, 'coder.json');
  let current = {};
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // first start
  }
  mkdirSync(userDataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, query: { folder } }, null, 2));
}

const TRACE_NAME = /(^|\.)trace\.jsonl$/;
const SKIP = new Set(['node_modules', '.git', 'blobs', 'sha256', 'tampered']);

/** The trace to show first: the murmur sample in the samples folder, else the first `trace.jsonl`-like file (breadth-first, 4 levels). */
export function firstTrace(folder, samplesDir) {
  const sample = join(samplesDir, 'murmur', 'ses_583584f8e94410c93669237ac44d5d21', 'trace.jsonl');
  if (folder === samplesDir && existsSync(sample)) return sample;
  let level = [folder];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next = [];
    for (const dir of level) {
      let entries = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        continue;
      }
      const hit = entries.find((e) => e.isFile() && TRACE_NAME.test(e.name));
      if (hit) return join(dir, hit.name);
      for (const e of entries) if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) next.push(join(dir, e.name));
    }
    level = next;
  }
  return undefined;
}

/** The workbench URL that opens `folder`, and `file` in its default editor (the trace viewer for traces). */
export function workbenchUrl(base, folder, file) {
  const url = new URL(base);
  url.searchParams.set('folder', folder);
  // The web workbench opens `openFile` from its launch payload; files live on the server's remote authority.
  if (file && !relative(folder, file).startsWith('..')) url.searchParams.set('payload', JSON.stringify([['openFile', `vscode-remote://${url.host}${file}`]]));
  return url.toString();
}

#!/usr/bin/env node
// Real-writer corpus generator (`npm run corpus`).
//
// Runs the real agent CLIs (installed from npm at the versions pinned in scripts/corpus/versions.json,
// into a scratch prefix outside the repo) non-interactively against a loopback mock of their model
// API (scripts/corpus/mock-model-server.mjs), each with a scratch HOME, and copies what they write to
// test/corpus/<tool>-<version>/<case>/. Also writes OTLP/JSON documents with the OpenTelemetry JS SDK
// into test/corpus/otel-js-<version>/, and runs the Vercel AI SDK against the mock with its OpenTelemetry
// integrations into test/corpus/ai-sdk-<version>/ (scripts/corpus/ai-sdk.mjs).
//
// The only rewrite applied to the copied files is path scrubbing (see SCRUB below): the scratch
// HOME becomes /home/user (so the project folder is /home/user/project) and the tools prefix
// becomes /opt/corpus-tools. Nothing else is edited.
//
// Options:
//   --only codex,claude-code,gemini-cli,copilot-cli,pi,qwen-code,opencode,continue,otel,ai-sdk   run a subset
//   --cases fork,resume                        run only these cases of each tool: only their folders are
//                                              replaced, and each gets a SOURCE.md of its own (the tool's
//                                              SOURCE.md, written by a full run, is left as it is)
//   --keep-scratch                             do not delete the scratch folder
//   --timeout <seconds>                        per CLI invocation (default 120)
//   --index-only                               only rewrite test/corpus/README.md
// Env: CORPUS_TOOLS_DIR (default <os tmpdir>/corpus-tools), CORPUS_SCRATCH (default a fresh mkdtemp).
//
// Network: the mock listens on 127.0.0.1 only; every CLI gets a base URL pointing at it and the
// telemetry / update-check switches turned off. npm is contacted only to install missing tools.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync, statSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from './mock-model-server.mjs';
import { TOOLS, MOCK_SCRIPTS, walk } from './scenarios.mjs';
import { generateOtel } from './otel.mjs';
import { generateAiSdk } from './ai-sdk.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const OUT_ROOT = path.join(REPO, 'test', 'corpus');
const VERSIONS = JSON.parse(readFileSync(path.join(HERE, 'versions.json'), 'utf8'));
const TOOLS_DIR = path.resolve(process.env.CORPUS_TOOLS_DIR || path.join(os.tmpdir(), 'corpus-tools'));
const PLACEHOLDER_HOME = '/home/user';
const PLACEHOLDER_TOOLS = '/opt/corpus-tools';

const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const only = opt('--only') ? new Set(opt('--only').split(',')) : null;
const onlyCases = opt('--cases') ? new Set(opt('--cases').split(',')) : null;
const keepScratch = argv.includes('--keep-scratch');
const timeoutMs = Number(opt('--timeout') || 120) * 1000;

const log = (...a) => console.log('[corpus]', ...a);

// ---------------------------------------------------------------- install
function installedVersion(pkg) {
  const p = path.join(TOOLS_DIR, 'node_modules', pkg, 'package.json');
  try { return JSON.parse(readFileSync(p, 'utf8')).version; } catch { return null; }
}

function ensureTools() {
  // only what this run needs (--only), so adding one tool does not reinstall the others
  const tools = Object.entries(VERSIONS.tools).filter(([key]) => !only || only.has(key)).map(([, t]) => t);
  const wanted = { ...Object.fromEntries(tools.map((t) => [t.package, t.version])), ...(!only || only.has('otel') || only.has('ai-sdk') ? VERSIONS.otel : {}), ...(!only || only.has('ai-sdk') ? VERSIONS.aiSdk : {}) };
  const missing = Object.entries(wanted).filter(([pkg, v]) => installedVersion(pkg) !== v).map(([pkg, v]) => `${pkg}@${v}`);
  if (missing.length) {
    mkdirSync(TOOLS_DIR, { recursive: true });
    log(`installing into ${TOOLS_DIR}: ${missing.join(' ')}`);
    const r = spawnSync('npm', ['install', '--prefix', TOOLS_DIR, '--no-audit', '--no-fund', '--save-exact', ...missing], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm install failed (${r.status})`);
  }
  // Claude Code's wrapper package replaces bin/claude.exe by the platform binary in its postinstall;
  // if install scripts were skipped, run it now.
  const claudeDir = path.join(TOOLS_DIR, 'node_modules', '@anthropic-ai', 'claude-code');
  const exe = path.join(claudeDir, 'bin', 'claude.exe');
  if (existsSync(exe) && statSync(exe).size < 1024 * 1024 && existsSync(path.join(claudeDir, 'install.cjs'))) {
    log('running @anthropic-ai/claude-code install.cjs (platform binary)');
    spawnSync(process.execPath, ['install.cjs'], { cwd: claudeDir, stdio: 'inherit' });
  }
}

// ---------------------------------------------------------------- process runner
// stopWhen (optional): polled every 250 ms; once true, the CLI is given `grace` ms to write its files and is
// then stopped (an interactive CLI that does not exit by itself); such a run counts as finished, not failed.
function runCli(bin, args, { cwd, env, timeout, stopWhen, grace = 3000 }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    let timedOut = false;
    let stopped = false;
    const poll = stopWhen && setInterval(() => {
      if (stopped || !stopWhen()) return;
      stopped = true;
      clearInterval(poll);
      setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, grace);
    }, 250);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeout);
    child.on('error', (e) => err.push(Buffer.from(String(e))));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      // reap helpers the CLI left behind in its process group
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none left */ }
      resolve({ code, signal, timedOut, stopped, ms: Date.now() - started, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

// ---------------------------------------------------------------- scrubbing
const claudeEncode = (p) => p.replace(/[^a-zA-Z0-9]/g, '-');
function scrubber(home) {
  const pairs = [
    [claudeEncode(home), claudeEncode(PLACEHOLDER_HOME)],
    [home, PLACEHOLDER_HOME],
    [TOOLS_DIR, PLACEHOLDER_TOOLS],
    // the same paths written relative to the root (opencode's session `path`)
    [home.slice(1), PLACEHOLDER_HOME.slice(1)],
    [TOOLS_DIR.slice(1), PLACEHOLDER_TOOLS.slice(1)],
  ];
  return (s) => pairs.reduce((acc, [from, to]) => acc.split(from).join(to), s);
}

// ---------------------------------------------------------------- checks
function describeFile(file) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let bad = 0;
  if (file.endsWith('.jsonl')) for (const l of lines) { try { JSON.parse(l); } catch { bad++; } }
  else if (file.endsWith('.json')) { try { JSON.parse(text); } catch { bad = 1; } }
  return { lines: lines.length, bytes: Buffer.byteLength(text), bad };
}

const mdCell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const shellQuote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

// ---------------------------------------------------------------- tools
async function runTool(tool, mock, scratch) {
  const version = VERSIONS.tools[tool.key].version;
  const pkg = VERSIONS.tools[tool.key].package;
  const outDir = path.join(OUT_ROOT, `${tool.key}-${version}`);
  const actual = installedVersion(pkg);
  if (actual !== version) throw new Error(`${pkg} is ${actual}, expected ${version}`);
  const cases = onlyCases ? tool.cases.filter((c) => onlyCases.has(c.id)) : tool.cases;
  if (onlyCases) for (const c of cases) rmSync(path.join(outDir, c.id), { recursive: true, force: true });
  else rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const bin = tool.bin(TOOLS_DIR);
  const rows = [];
  const status = [];
  const unkept = [];
  for (const c of cases) {
    const caseRoot = path.join(scratch, tool.key, c.id);
    const home = path.join(caseRoot, 'home');
    const project = path.join(home, 'project');
    mkdirSync(path.join(home, '.tmp'), { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, 'README.md'), '# demo project\n\nA scratch folder for the corpus run.\n');
    tool.setup({ home, mockUrl: mock.url });
    mock.setCwd(project);
    const env = cleanEnv({
      PATH: process.env.PATH,
      HOME: home,
      USER: 'user',
      LOGNAME: 'user',
      SHELL: '/bin/bash',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      TERM: 'dumb',
      NO_COLOR: '1',
      TMPDIR: path.join(home, '.tmp'),
      CLAUDE_CODE_TMPDIR: path.join(home, '.tmp'),
      NO_PROXY: '127.0.0.1,localhost',
      ...tool.env({ mockUrl: mock.url, home }),
    });
    const scrub = scrubber(home);
    const prev = [];
    const stepInfo = [];
    let failed = null;
    for (const [i, step] of c.steps.entries()) {
      if (step.mock) mock.setScenario(step.mock);
      const before = mock.state.requests.length;
      let args;
      try { args = step.args(prev, { home, toolsDir: TOOLS_DIR }); } catch (e) { failed = `step ${i + 1}: ${e.message}`; break; }
      log(`${tool.key}/${c.id} step ${i + 1}: ${step.bin ? path.basename(step.bin(TOOLS_DIR)) : tool.display} ${args.map(shellQuote).join(' ')}`);
      const stopWhen = step.stopWhen && (() => step.stopWhen(mock.state.requests.slice(before)));
      const r = await runCli(step.bin ? step.bin(TOOLS_DIR) : bin, args, { cwd: project, env, timeout: timeoutMs, stopWhen });
      const reqs = mock.state.requests.slice(before).filter((q) => q.api && q.api !== 'unknown');
      const unknown = mock.state.requests.slice(before).filter((q) => q.api === 'unknown').map((q) => `${q.method} ${q.path}`);
      prev.push(r);
      const display = scrub(step.commandDisplay || `${tool.display} ${(step.argsDisplay || args).map(shellQuote).join(' ')}`);
      stepInfo.push({ step, display, r, reqs, unknown });
      if (step.stdout) {
        const dest = path.join(outDir, c.id, step.stdout);
        mkdirSync(path.dirname(dest), { recursive: true });
        writeFileSync(dest, scrub(r.stdout));
      }
      status.push({ case: c.id, step: i + 1, code: r.stopped ? 'stopped by the generator' : r.code, timedOut: r.timedOut, ms: r.ms, requests: reqs.length, unknown, stderrTail: scrub(r.stderr).trim().split('\n').slice(-3).join(' / ') });
      if ((r.code !== 0 && !r.stopped) || r.timedOut) { failed = `step ${i + 1} exited ${r.timedOut ? 'by timeout' : r.code}`; log(`  FAILED: ${failed}; stderr: ${r.stderr.slice(-400)}`); break; }
    }
    // tool-written files
    const kept = tool.collect({ home });
    for (const k of kept) {
      const dest = path.join(outDir, c.id, scrub(k.rel));
      mkdirSync(path.dirname(dest), { recursive: true });
      const buf = readFileSync(k.src);
      if (buf.includes(0)) copyFileSync(k.src, dest);
      else writeFileSync(dest, scrub(buf.toString('utf8')));
    }
    // every other file the tool wrote under HOME (not kept), so a reader knows what exists and where;
    // bulky caches (tool.bulky: regexes on the HOME-relative path) are summed per folder
    const keptSet = new Set(kept.map((k) => k.src));
    const ours = new Set(['project/README.md', ...(tool.ownFiles || [])]);
    const bulky = new Map();
    const others = [];
    for (const f of walk(home)) {
      const rel = path.relative(home, f);
      if (keptSet.has(f) || ours.has(rel)) continue;
      const hit = [/^\.tmp\/[^/]+\//, ...(tool.bulky || [])].map((re) => rel.match(re)).find(Boolean);
      if (hit) { const b = bulky.get(hit[0]) || { files: 0, bytes: 0 }; b.files++; b.bytes += statSync(f).size; bulky.set(hit[0], b); continue; }
      others.push(`\`${scrub(rel)}\` (${statSync(f).size} B)`);
    }
    for (const [dir, b] of bulky) others.push(`\`${scrub(dir)}\`… (${b.files} files, ${b.bytes} B)`);
    if (others.length) unkept.push({ case: c.id, files: others });
    // table rows
    for (const [i, s] of stepInfo.entries()) {
      const scripted = s.step.mock ? `${MOCK_SCRIPTS[s.step.mock]} — ${s.reqs.length} model request(s): ${summarizeRequests(s.reqs)}` : 'no model request (the step reads the tool\'s own store)';
      if (s.step.stdout) rows.push({ file: path.join(c.id, s.step.stdout), what: `stdout of step ${i + 1}`, c, cmd: s.display, scripted });
    }
    for (const k of kept) rows.push({ file: path.join(c.id, scrub(k.rel)), what: 'written by the tool under `$HOME`', c, cmd: stepInfo.map((s, i) => `step ${i + 1}: ${s.display}`).join('; '), scripted: stepInfo.filter((s) => s.step.mock).map((s) => MOCK_SCRIPTS[s.step.mock]).join(' / then / ') });
    if (failed) status.push({ case: c.id, failed });
  }
  for (const row of rows) Object.assign(row, describeFile(path.join(outDir, row.file)));
  if (onlyCases) {
    // A subset run: each case's own SOURCE.md, its file paths relative to the case folder.
    for (const c of cases) {
      const caseRows = rows.filter((r) => r.c === c).map((r) => ({ ...r, file: path.relative(c.id, r.file) }));
      writeToolSource(tool, version, pkg, path.join(outDir, c.id), caseRows, status.filter((st) => st.case === c.id), mock, unkept.filter((u) => u.case === c.id));
    }
    refreshToolSource(tool, outDir);
  } else writeToolSource(tool, version, pkg, outDir, rows, status, mock, unkept);
  return { tool: tool.key, version, outDir, rows, status };
}

function summarizeRequests(reqs) {
  const byKey = new Map();
  for (const q of reqs) {
    const k = `${q.api} ${q.model || ''} → ${q.scenario ?? '-'}`.trim();
    byKey.set(k, (byKey.get(k) || 0) + 1);
  }
  return [...byKey.entries()].map(([k, n]) => `${n}× ${k}`).join(', ') || 'none';
}

function writeToolSource(tool, version, pkg, outDir, rows, status, mock, unkept = []) {
  const envKeys = Object.keys(cleanEnv(tool.env({ mockUrl: mock.url, home: '$HOME' })));
  const parts = [];
  parts.push(`# ${pkg} ${version} — real-writer corpus\n`);
  parts.push(`Written by \`scripts/corpus/generate.mjs\` (\`npm run corpus\`). The real CLI, \`${pkg}@${version}\` from the npm registry (installed into a scratch prefix, not into the project), was run non-interactively against the loopback mock \`scripts/corpus/mock-model-server.mjs\` on 127.0.0.1. Only the model's answers (text, tool calls, ids, token usage) are scripted by the mock; every other byte is the tool's own output.\n`);
  parts.push(`Each case ran with a fresh scratch \`HOME\` (\`${PLACEHOLDER_HOME}\` below) and the working directory \`${PLACEHOLDER_HOME}/project\` (holding one README.md). Environment: a clean env with \`PATH\`, \`HOME\`, \`USER=user\`, \`SHELL=/bin/bash\`, \`LANG=C.UTF-8\`, \`TZ=UTC\`, \`TERM=dumb\`, \`NO_COLOR=1\`, \`TMPDIR=$HOME/.tmp\`, plus ${envKeys.map((k) => `\`${k}\``).join(', ')}.\n`);
  parts.push(tool.configNote(undefined));
  parts.push(`**Path scrubbing** (the only rewrite, done by the script): in file contents and file names, the scratch HOME's absolute path → \`${PLACEHOLDER_HOME}\` (also in the dash-encoded project folder names of Claude Code, Qwen Code and pi, e.g. \`-home-user-project\`, and written without its leading slash, as opencode's session \`path\` has it), and the tools prefix → \`${PLACEHOLDER_TOOLS}\`. Hashes of paths (e.g. Gemini's \`projectHash\`) are left as the tool wrote them, so they are hashes of the original scratch path.\n`);
  if (tool.notes) parts.push(notesSection(tool));
  parts.push(`## Files\n`);
  parts.push('| file | lines | bytes | case / scenario | what | command line | mock scripted |');
  parts.push('|---|---|---|---|---|---|---|');
  for (const r of rows) parts.push(`| \`${r.file}\` | ${r.lines} | ${r.bytes} | ${mdCell(r.c.id + ': ' + r.c.title)} | ${mdCell(r.what)} | \`${mdCell(r.cmd)}\` | ${mdCell(r.scripted)} |`);
  parts.push('\n## Runs\n');
  parts.push('| case | step | exit | ms | model requests | unanswered routes | stderr (last lines, scrubbed) |');
  parts.push('|---|---|---|---|---|---|---|');
  for (const s of status) {
    if (s.failed) parts.push(`| ${s.case} | — | **FAILED** (${mdCell(s.failed)}) | | | | |`);
    else parts.push(`| ${s.case} | ${s.step} | ${s.timedOut ? 'timeout' : s.code} | ${s.ms} | ${s.requests} | ${mdCell(s.unknown.join(', ') || '-')} | ${mdCell(s.stderrTail.slice(0, 300) || '-')} |`);
  }
  if (unkept.length) {
    parts.push('\n## Other files the tool wrote under `$HOME` (not kept)\n');
    for (const u of unkept) parts.push(`- ${u.case}: ${u.files.join(', ')}`);
  }
  const bad = rows.filter((r) => r.bad);
  if (bad.length) parts.push(`\nLines that are not JSON: ${bad.map((r) => `\`${r.file}\` (${r.bad})`).join(', ')}\n`);
  writeFileSync(path.join(outDir, 'SOURCE.md'), parts.join('\n') + '\n');
}

const NOTES_HEADING = '## Format notes (observed in these files)';
const notesSection = (tool) => `${NOTES_HEADING}\n\n${tool.notes.map((n) => `- ${n}`).join('\n')}\n`;

// After a --cases run: the tool's SOURCE.md (written by a full run, its files and runs tables left as they
// are) gets the current format notes and a list of the case folders that have a SOURCE.md of their own.
function refreshToolSource(tool, outDir) {
  const file = path.join(outDir, 'SOURCE.md');
  if (!existsSync(file)) return;
  let text = readFileSync(file, 'utf8');
  const sections = text.split(/\n(?=## )/);
  const own = readdirSync(outDir).filter((d) => existsSync(path.join(outDir, d, 'SOURCE.md'))).sort();
  const ownSection = `## Cases run on their own\n\nThese case folders were (re)generated with \`--cases\`; each has a SOURCE.md of its own (command lines, runs, files) and is not in the tables below: ${own.map((d) => `[\`${d}/\`](${d}/SOURCE.md)`).join(', ')}.\n`;
  const out = [];
  for (const sec of sections) {
    if (sec.startsWith('## Cases run on their own')) continue;
    if (sec.startsWith('## Files') && own.length) out.push(ownSection);
    out.push(sec.startsWith(NOTES_HEADING) && tool.notes ? notesSection(tool) : sec);
  }
  text = out.join('\n');
  writeFileSync(file, text);
}

// ---------------------------------------------------------------- otel
async function runOtel() {
  const version = VERSIONS.otel['@opentelemetry/sdk-trace-base'];
  const outDir = path.join(OUT_ROOT, `otel-js-${version}`);
  rmSync(outDir, { recursive: true, force: true });
  const files = await generateOtel({ toolsDir: TOOLS_DIR, outDir });
  const parts = [];
  parts.push(`# OpenTelemetry JS SDK ${version} — OTLP/JSON corpus\n`);
  parts.push(`Written by \`scripts/corpus/otel.mjs\` (called from \`scripts/corpus/generate.mjs\`) with these npm packages, installed into a scratch prefix: ${Object.entries(VERSIONS.otel).map(([p, v]) => `\`${p}@${v}\``).join(', ')}.\n`);
  parts.push('Spans are created with `BasicTracerProvider` + `SimpleSpanProcessor` + `InMemorySpanExporter`, log records with `LoggerProvider` + `SimpleLogRecordProcessor` + `InMemoryLogRecordExporter`; the files are the bytes of `@opentelemetry/otlp-transformer`\'s `JsonTraceSerializer` / `JsonLogsSerializer` (`serializeRequest`), i.e. what the OTLP/HTTP JSON exporters POST. The script chooses span names, attributes (GenAI semantic conventions: `gen_ai.operation.name` = `invoke_agent` / `chat` / `execute_tool`, `gen_ai.request.model`, `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`, …), explicit start/end times, and statuses; ids are the SDK\'s random ids.\n');
  parts.push('No snake_case variant: the JS SDK\'s JSON serializer only writes the canonical protobuf-JSON mapping (lowerCamelCase field names, hex trace/span ids, int64 as decimal strings, enums as integers). A snake_case file would have to be hand-converted, so none is included.\n');
  writeSource(outDir, parts, files);
  return { tool: 'otel', version, outDir, files };
}

/** SOURCE.md of a library corpus folder: its paragraphs, then a table of the files written. */
function writeSource(outDir, parts, files) {
  parts.push('| file | lines | bytes | content | how |');
  parts.push('|---|---|---|---|---|');
  for (const f of files) {
    const d = describeFile(path.join(outDir, f.file));
    parts.push(`| \`${f.file}\` | ${d.lines} | ${d.bytes} | ${mdCell(f.scenario)} | ${mdCell(f.how)} |`);
  }
  writeFileSync(path.join(outDir, 'SOURCE.md'), parts.join('\n') + '\n');
}

// ---------------------------------------------------------------- ai-sdk
async function runAiSdk(mock) {
  const version = VERSIONS.aiSdk.ai;
  const outDir = path.join(OUT_ROOT, `ai-sdk-${version}`);
  rmSync(outDir, { recursive: true, force: true });
  const files = await generateAiSdk({ toolsDir: TOOLS_DIR, outDir, mock });
  const packages = { ...VERSIONS.aiSdk, ...Object.fromEntries(['@opentelemetry/api', '@opentelemetry/resources', '@opentelemetry/sdk-trace-base', '@opentelemetry/otlp-transformer'].map((p) => [p, VERSIONS.otel[p]])) };
  const parts = [];
  parts.push(`# Vercel AI SDK ${version} — OpenTelemetry spans as OTLP/JSON\n`);
  parts.push(`Written by \`scripts/corpus/ai-sdk.mjs\` (called from \`scripts/corpus/generate.mjs\`, \`--only ai-sdk\`) with these npm packages, installed into a scratch prefix (not into the project): ${Object.entries(packages).map(([p, v]) => `\`${p}@${v}\``).join(', ')}.\n`);
  parts.push('The real AI SDK ran `generateText` and `streamText` (`stopWhen: stepCountIs(4)`) on an `@ai-sdk/openai-compatible` chat model (`gpt-4.1-mini`, provider name `openai`) whose base URL is the loopback mock `scripts/corpus/mock-model-server.mjs` (Chat Completions; scenario `shell-ok`: a tool call `shell {"command":"echo hello"}`, then a text answer; token usage derived from the request and answer sizes). The `shell` tool (a zod input schema) really runs the command with bash. Telemetry is per call (`telemetry: { isEnabled: true, functionId: \'corpus-ai-sdk\', integrations: [...] }`) with one of `@ai-sdk/otel`\'s two integrations, each given a tracer of a `BasicTracerProvider` + `SimpleSpanProcessor` + `InMemorySpanExporter`: `OpenTelemetry` (GenAI semantic conventions: `invoke_agent` > `step N` > `chat` / `execute_tool`, with `gen_ai.input.messages` / `gen_ai.output.messages`) and `LegacyOpenTelemetry` (`ai.generateText` > `ai.generateText.doGenerate` > `ai.toolCall`, with `ai.prompt`, `ai.prompt.messages`, `ai.response.text`, `ai.response.toolCalls`, `ai.toolCall.args` / `.result`, `ai.usage.*`). Span names, attributes, ids and times are the SDK\'s own; both integrations write the run\'s total usage on the root span and each step\'s on its model-call span.\n');
  writeSource(outDir, parts, files);
  return { tool: 'ai-sdk', version, outDir, files };
}

// ---------------------------------------------------------------- main
async function main() {
  if (argv.includes('--index-only')) { writeIndex(); return; }
  ensureTools();
  const scratch = process.env.CORPUS_SCRATCH ? path.resolve(process.env.CORPUS_SCRATCH) : mkdtempSync(path.join(os.tmpdir(), 'atv-corpus-'));
  mkdirSync(scratch, { recursive: true });
  const mock = await startMockServer({ logFile: path.join(scratch, 'mock-requests.jsonl') });
  log(`mock on ${mock.url}; scratch ${scratch}`);
  const results = [];
  try {
    for (const tool of TOOLS) {
      if (only && !only.has(tool.key)) continue;
      try { results.push(await runTool(tool, mock, scratch)); } catch (e) { log(`${tool.key}: ${e.stack || e}`); results.push({ tool: tool.key, error: String(e.message || e) }); }
    }
    // The OTLP documents have no cases: a --cases run leaves them alone unless --only names otel.
    if (only ? only.has('otel') : !onlyCases) {
      try { results.push(await runOtel()); } catch (e) { log(`otel: ${e.stack || e}`); results.push({ tool: 'otel', error: String(e.message || e) }); }
    }
    if (only ? only.has('ai-sdk') : !onlyCases) {
      try { results.push(await runAiSdk(mock)); } catch (e) { log(`ai-sdk: ${e.stack || e}`); results.push({ tool: 'ai-sdk', error: String(e.message || e) }); }
    }
  } finally {
    await mock.close();
    if (!keepScratch && !process.env.CORPUS_SCRATCH) rmSync(scratch, { recursive: true, force: true });
    else log(`scratch kept at ${scratch}`);
  }
  writeIndex();
  let bad = 0;
  for (const r of results) {
    if (r.error) { bad++; log(`${r.tool}: ERROR ${r.error}`); continue; }
    const failed = (r.status || []).filter((s) => s.failed);
    bad += failed.length;
    log(`${r.tool} ${r.version}: ${r.rows ? r.rows.length : r.files.length} file(s) in ${path.relative(REPO, r.outDir)}${failed.length ? `; FAILED cases: ${failed.map((f) => f.case).join(', ')}` : ''}`);
  }
  process.exitCode = bad ? 1 : 0;
}

// What the generator could not get from a tool, said once in the index (details in each SOURCE.md).
const NOT_COVERED = [
  'pi has no subagent tool, so no `subagent` case.',
  'Continue CLI: its `Subagent` tool (`--beta-subagent-tool`) fails in `-p` mode ("No active session found": it asks the chat-history service for a session id that headless mode does not set), so `continue-*/subagent/` holds that errored call; `cn serve` offers no Subagent tool; `continue-*/subagent-tui/` is a real subagent run in the interactive TUI (under util-linux `script`, stopped by the generator). The subagent\'s own messages are not written anywhere by Continue.',
  'opencode keeps its sessions in SQLite (`~/.local/share/opencode/opencode.db`); the binary database is not kept, `opencode export <sessionID>` of each session is.',
  'Qwen Code writes `~/.qwen/usage/token-usage-<month>.jsonl` only with usage statistics on; they are off here (as every tool\'s telemetry is), so that file is not in the corpus.',
  'GitHub Copilot CLI ran with a BYOK provider (`COPILOT_PROVIDER_BASE_URL`, offline): no GitHub login, so no premium-request accounting or GitHub model routing (their `cost` fields are 0).',
];

function writeIndex() {
  const dirs = existsSync(OUT_ROOT) ? walk(OUT_ROOT).filter((f) => f.endsWith('SOURCE.md') && path.dirname(path.dirname(f)) === OUT_ROOT).map((f) => path.basename(path.dirname(f))) : [];
  const lines = ['# Real-writer corpus', '', 'Files written by real tools (agent CLIs run against a loopback mock model API, the OpenTelemetry JS SDK, and the Vercel AI SDK with its OpenTelemetry integrations), regenerated with `npm run corpus` (`scripts/corpus/generate.mjs`). Each folder has a SOURCE.md saying, per file, which tool, version, command line and scenario wrote it. Do not edit these files by hand.', '', ...dirs.sort().map((d) => `- [\`${d}/\`](${d}/SOURCE.md)`), '', '## Not covered', '', ...NOT_COVERED.map((n) => `- ${n}`), ''];
  writeFileSync(path.join(OUT_ROOT, 'README.md'), lines.join('\n'));
}

await main();

/**
 * The Agent Traces view's tree, without VS Code: the sessions a listing found (core/sessions/sessionCatalog.ts)
 * shaped into "This workspace" (sessions that ran inside a workspace folder) and then every session by agent →
 * project → day, newest first, with each row's label, description and tooltip. The adapter
 * (src/vscode/sessions/sessionsView.ts) turns these nodes into tree items.
 */
import { formatCount, formatDuration, formatInt, formatTime, plural } from '../core/display';
import { formatModule } from '../core/formats';
import type { SessionEntry, SessionVerdict } from '../core/sessions/sessionCache';

/** One session as the tree gets it: the catalog's record (its entry and the verdict of its checks). */
export interface TreeSession {
  entry: SessionEntry;
  verdict?: SessionVerdict | null;
  /** The last lines were read by an append and not checked yet (core/sessions/sessionFollower.ts). */
  verdictPending?: true;
}

/** What the tree is told besides the sessions. */
export interface TreeOptions {
  /** Files being written now (modified lately and growing): their rows say `running`. */
  running?: ReadonlySet<string>;
  /** Trace files of the workspace that are no agent-home session: their own group, not under an agent. */
  workspaceFiles?: ReadonlySet<string>;
}

/** A workspace folder as the tree sees it. */
export interface TreeFolder {
  name: string;
  fsPath: string;
}

/** A folder of the tree (the workspace, an agent, a project, a day). */
export interface SessionGroupNode {
  kind: 'group';
  /** Unique in the tree (VS Code keeps expansion by it). */
  id: string;
  role: 'workspace' | 'files' | 'agent' | 'project' | 'day';
  label: string;
  description: string;
  tooltip: string;
  children: SessionTreeNode[];
}

/** One session: a row that opens its file. */
export interface SessionLeafNode {
  kind: 'session';
  id: string;
  entry: SessionEntry;
  label: string;
  description: string;
  tooltip: string;
  /** What the file holds: it could not be read, some events failed, or neither. */
  state: 'unreadable' | 'errors' | 'ok';
  /** What the icon says, as the Test Explorer's: verify's and check's verdict; null when the checks did not run. */
  verdict: SessionVerdict['state'] | null;
  /** The file is being written now (modified lately and growing). */
  running: boolean;
}

export type SessionTreeNode = SessionGroupNode | SessionLeafNode;

/** How times read: local by default; the test passes UTC. */
export interface TreeClock {
  /** `YYYY-MM-DD` of an ISO time. */
  day(iso: string): string;
  /** `HH:MM` of an ISO time. */
  time(iso: string): string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The user's own clock (the machine's time zone). */
export const LOCAL_CLOCK: TreeClock = {
  day: (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? '?' : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  },
  time: (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? '?' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  },
};

/** UTC, the CLI's clock. */
export const UTC_CLOCK: TreeClock = {
  day: (iso) => (Number.isNaN(Date.parse(iso)) ? '?' : new Date(iso).toISOString().slice(0, 10)),
  time: (iso) => (Number.isNaN(Date.parse(iso)) ? '?' : new Date(iso).toISOString().slice(11, 16)),
};

const NO_DAY = 'no date';
const NO_PROJECT = '(no project)';

/** The title of a format (Claude Code), or its name when the registry does not know it. */
function agentTitle(agent: string): string {
  try {
    return formatModule(agent as never).title;
  } catch {
    return agent;
  }
}

/** The last folder of a path, `/` and `\` alike. */
function lastSegment(p: string): string {
  const parts = p.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

const isAbsolutePath = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

/** Path text compared without case on Windows-style paths and with `/` for `\`. */
function norm(p: string): string {
  const s = p.replace(/\\/g, '/').replace(/\/+$/, '');
  return /^[A-Za-z]:\//.test(s) ? s.toLowerCase() : s;
}

/**
 * True when the session ran in one of the folders: its project is the folder or a path inside it, or (a writer that
 * keeps only the project's folder name, Gemini CLI's `.gemini/tmp/<project>`) a bare name equal to the folder's name.
 */
export function inWorkspace(entry: SessionEntry, folders: readonly TreeFolder[]): boolean {
  const p = entry.project;
  if (p === null || p === '') return false;
  if (!isAbsolutePath(p)) return folders.some((f) => lastSegment(f.fsPath) === p);
  const np = norm(p);
  return folders.some((f) => {
    const nf = norm(f.fsPath);
    return np === nf || np.startsWith(nf + '/');
  });
}

function usd(n: number): string {
  if (n === 0) return '$0';
  return n < 0.01 ? '<$0.01' : `$${n.toFixed(2)}`;
}

/** `12k tokens · $0.03 · 1 error`: what a session or a group used. */
function usageText(tokens: number | null, cost: number | null, errors: number, costKnown = true): string[] {
  const out: string[] = [];
  if (tokens !== null) out.push(`${formatCount(tokens)} tokens`);
  if (cost !== null) out.push(usd(cost) + (costKnown ? '' : '+?'));
  if (errors > 0) out.push(plural(errors, 'error'));
  return out;
}

function sessionTokens(e: SessionEntry): number | null {
  const { inputTokens: i, outputTokens: o } = e.usage;
  return i === null && o === null ? null : (i ?? 0) + (o ?? 0);
}

/** The tooltip's lines on the verdict: what verify and check found, and the first finding. */
function verdictLines(v: SessionVerdict | null | undefined): string[] {
  if (!v) return ['Checks: not run (the file could not be read)'];
  const counts = v.errors + v.warnings === 0 ? 'no errors or warnings' : [v.errors > 0 ? plural(v.errors, 'error') : null, v.warnings > 0 ? plural(v.warnings, 'warning') : null].filter(Boolean).join(', ');
  const out = [`Checks: ${v.state === 'pass' ? 'passed' : v.state === 'warn' ? 'passed with warnings' : 'failed'} (verify and check: ${counts})`];
  if (v.chain !== null) out.push(`Chain: ${v.chain}`);
  if (v.first) out.push(`First: line ${v.first.line}, ${v.first.rule} (${v.first.mode}): ${v.first.message.length > 200 ? v.first.message.slice(0, 199) + '…' : v.first.message}`);
  return out;
}

/**
 * One session's row (its id made from `idPrefix` and the file): label, description, tooltip and icon state. The view
 * makes a row again with it when the session's file grows, and keeps the node (VS Code refreshes that row alone).
 */
export function sessionLeaf(s: TreeSession, idPrefix: string, clock: TreeClock, withDay: boolean, running = false): SessionLeafNode {
  const e = s.entry;
  const when = e.startTime ? (withDay ? `${clock.day(e.startTime)} ${clock.time(e.startTime)}` : clock.time(e.startTime)) : '';
  const label = e.error !== null ? `${lastSegment(e.file)} (cannot read)` : (e.title ?? `${lastSegment(e.file)} (no prompt)`);
  const description = [running ? 'running' : '', when, ...usageText(sessionTokens(e), e.usage.costUsd, e.errors)].filter(Boolean).join(' · ');
  const u = e.usage;
  const tip = [
    e.title ?? '(no prompt)',
    '',
    `Agent: ${agentTitle(e.agent)}`,
    `File: ${e.file}`,
    e.project !== null ? `Project: ${e.project}` : null,
    e.sessionId !== null ? `Session: ${e.sessionId}` : null,
    `Started: ${e.startTime ? formatTime(e.startTime) : 'unknown'}`,
    `Ended: ${e.endTime ? formatTime(e.endTime) : 'unknown'}`,
    e.startTime && e.endTime ? `Duration: ${formatDuration(Date.parse(e.endTime) - Date.parse(e.startTime))}` : null,
    `Events: ${formatInt(e.events)}`,
    `Tokens: ${u.inputTokens === null ? '?' : formatInt(u.inputTokens)} in, ${u.outputTokens === null ? '?' : formatInt(u.outputTokens)} out`,
    `Cost: ${u.costUsd === null ? 'unknown (unpriced model)' : `$${u.costUsd.toFixed(4)}`}`,
    e.subagents > 0 ? `Subagents: ${formatInt(e.subagents)} (counted in the usage)` : null,
    `Errors: ${e.errors === 0 ? 'none' : plural(e.errors, 'failed event')}`,
    e.error !== null ? `Cannot read: ${e.error}` : null,
    ...verdictLines(s.verdict),
    s.verdictPending ? 'Checks: of the file as last checked; the lines written since are checked when it stops growing' : null,
    running ? 'Running: the file was written in the last minutes and is growing' : null,
  ].filter((l): l is string => l !== null);
  return {
    kind: 'session',
    id: `${idPrefix}|${e.file}`,
    entry: e,
    label,
    description,
    tooltip: tip.join('\n'),
    state: e.error !== null ? 'unreadable' : e.errors > 0 ? 'errors' : 'ok',
    verdict: s.verdict?.state ?? null,
    running,
  };
}

function group(id: string, role: SessionGroupNode['role'], label: string, sessions: readonly TreeSession[], children: SessionTreeNode[], tooltip = label): SessionGroupNode {
  return { kind: 'group', id, role, label, description: groupDescription(sessions.map((s) => s.entry)), tooltip, children };
}

/** `3 sessions · 40k tokens · $0.12 · 2 errors`: a group's row, the totals of its sessions. */
function groupDescription(entries: readonly SessionEntry[]): string {
  let tokens: number | null = null;
  let cost: number | null = null;
  let unknownCost = false;
  let errors = 0;
  for (const e of entries) {
    const t = sessionTokens(e);
    if (t !== null) tokens = (tokens ?? 0) + t;
    if (e.usage.costUsd !== null) cost = (cost ?? 0) + e.usage.costUsd;
    else if (t !== null && t > 0) unknownCost = true;
    errors += e.errors;
  }
  return [plural(entries.length, 'session'), ...usageText(tokens, cost, errors, !unknownCost)].join(' · ');
}

/**
 * Makes a group's totals again from the rows under it (the view does, in place, for the groups above a session whose
 * file grew); true when its description changed.
 */
export function retotal(node: SessionGroupNode): boolean {
  const description = groupDescription(sessionsUnder(node).map((l) => l.entry));
  if (description === node.description) return false;
  node.description = description;
  return true;
}

/** Entries by a key, in the order each key is first met (the entries are newest first, so the groups are too). */
function byKey(entries: readonly TreeSession[], key: (e: SessionEntry) => string): Map<string, TreeSession[]> {
  const out = new Map<string, TreeSession[]>();
  for (const e of entries) {
    const k = key(e.entry);
    const list = out.get(k);
    if (list) list.push(e);
    else out.set(k, [e]);
  }
  return out;
}

/** Newest first, then by file: the order of the listing, kept whatever order the entries come in. */
function newestFirst({ entry: a }: TreeSession, { entry: b }: TreeSession): number {
  return (b.startTime ?? '').localeCompare(a.startTime ?? '') || a.file.localeCompare(b.file);
}

/**
 * The view's top level: "This workspace" (when some session ran inside a workspace folder), then "Workspace trace
 * files" (the workspace's trace files that are no agent's session, when there are some), then one group per agent,
 * each with its projects and each project with its days; agents, projects, days and sessions newest first.
 */
export function sessionTree(sessions: readonly TreeSession[], folders: readonly TreeFolder[], clock: TreeClock = LOCAL_CLOCK, options: TreeOptions = {}): SessionTreeNode[] {
  const running = options.running ?? new Set<string>();
  const loose = options.workspaceFiles ?? new Set<string>();
  const all = [...sessions].sort(newestFirst);
  const files = all.filter((s) => loose.has(s.entry.file));
  const sorted = files.length === 0 ? all : all.filter((s) => !loose.has(s.entry.file));
  const leafOf = (s: TreeSession, prefix: string, withDay: boolean) => sessionLeaf(s, prefix, clock, withDay, running.has(s.entry.file));
  const out: SessionTreeNode[] = [];
  const here = sorted.filter((s) => inWorkspace(s.entry, folders));
  if (here.length > 0) {
    const names = folders.map((f) => f.name).join(', ');
    out.push(group('workspace', 'workspace', 'This workspace', here, here.map((s) => leafOf(s, 'workspace', true)), `Sessions that ran in ${names}`));
  }
  if (files.length > 0) {
    out.push(group('files', 'files', 'Workspace trace files', files, files.map((s) => leafOf(s, 'files', true)), 'Trace files in the workspace folders that are no agent’s session (seed runtimes’ traces, OTLP files, traces kept outside their tool’s folder)'));
  }
  for (const [agent, ofAgent] of byKey(sorted, (e) => e.agent)) {
    const agentId = `agent|${agent}`;
    const projects: SessionTreeNode[] = [];
    for (const [project, ofProject] of byKey(ofAgent, (e) => e.project ?? '')) {
      const projectId = `${agentId}|${project}`;
      const days: SessionTreeNode[] = [];
      for (const [day, ofDay] of byKey(ofProject, (e) => (e.startTime ? clock.day(e.startTime) : NO_DAY))) {
        const dayId = `${projectId}|${day}`;
        days.push(group(dayId, 'day', day, ofDay, ofDay.map((s) => leafOf(s, dayId, false))));
      }
      const label = project === '' ? NO_PROJECT : lastSegment(project);
      projects.push(group(projectId, 'project', label, ofProject, days, project === '' ? 'Sessions with no working folder' : project));
    }
    out.push(group(agentId, 'agent', agentTitle(agent), ofAgent, projects));
  }
  return out;
}

/** The session rows under a node (itself for a row), each file once: what Verify All and Check All act on. */
export function sessionsUnder(node: SessionTreeNode): SessionLeafNode[] {
  if (node.kind === 'session') return [node];
  const seen = new Set<string>();
  const out: SessionLeafNode[] = [];
  const walk = (n: SessionTreeNode) => {
    if (n.kind === 'session') {
      if (!seen.has(n.entry.file)) {
        seen.add(n.entry.file);
        out.push(n);
      }
    } else n.children.forEach(walk);
  };
  walk(node);
  return out;
}

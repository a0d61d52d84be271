/**
 * Search Agent Sessions… (issue 39, part 2): a quick pick over the core's session search index
 * (core/sessions/sessionSearch.ts), kept in the sessions worker (node/sessionsWorker.ts) with the catalog: the Agent
 * Traces view's listings feed it as they read. The index is kept in the extension's global storage beside the catalog's cache,
 * built in the background with the Agent Traces view's progress and brought up to date each time the view lists
 * again; typed queries (the filter language) are searched as the user types, a moment after the last key; a hit opens
 * its session in the viewer at its event. The index reads local files only.
 */
import * as vscode from 'vscode';
import { FilterError } from '../../core/filter/filterSyntax';
import type { SessionsWorker } from '../../node/workerSessions';
import { searchPickRows } from '../../viewer/sessionSearchPicks';
import type { SearchHit } from '../../core/sessions/sessionSearch';
import type { TraceViewerApi } from '../viewerApi';
import { COMMANDS } from '../commandIds';
import { ruleSettings } from '../settings';
import { openInViewerAt } from '../commands/navigationCommands';
import { SESSIONS_VIEW, sessionRoots, SessionsProvider } from './sessionsView';

/** Milliseconds after the last key before a query is searched. */
const DEBOUNCE_MS = 150;
/** Hits shown at most. */
const PICK_LIMIT = 200;

type HitItem = vscode.QuickPickItem & { hit?: SearchHit };

/** The index's updates (one at a time: a later request runs once the current one ends) and its searches, in the worker. */
export class SessionSearchService {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly worker: SessionsWorker,
    private readonly roots: () => string[] = () => sessionRoots(),
  ) {}

  /** Brings the index up to date in the background, with progress in the Agent Traces view. */
  update(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<void> => {
      try {
        await vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW }, title: 'Indexing agent sessions for search' }, async () => {
          await this.worker.updateIndex(this.roots(), ruleSettings());
        });
      } catch (e) {
        void vscode.window.showWarningMessage(`Agent Trace: could not index the sessions for search: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.update();
        }
      }
    };
    // run() ends after its first await at the earliest, so `running` is cleared only after it is set here.
    this.running = run();
    return this.running;
  }

  /** The quick pick's items for a query: the hits grouped by session, or one row saying what is wrong with it. */
  async items(query: string): Promise<HitItem[]> {
    if (query.trim() === '') return [];
    try {
      const rows = searchPickRows(await this.worker.search(query, PICK_LIMIT));
      if (rows.length === 0) return [{ label: 'No hits', description: this.running ? 'still indexing: more may come' : undefined, alwaysShow: true }];
      return rows.map((r) => (r.separator ? { label: r.label, kind: vscode.QuickPickItemKind.Separator } : { label: r.label, description: r.description, detail: r.detail, alwaysShow: true, hit: r.hit }));
    } catch (e) {
      if (e instanceof FilterError) return [{ label: `$(error) ${e.message}`, description: 'agent:, tool:, status:error, field:, since:7d, text:"…"', alwaysShow: true }];
      throw e;
    }
  }
}

/** Shows the quick pick: live results as the user types; a hit opens its session in the viewer at its event. */
export async function showSessionSearch(service: SessionSearchService, viewers: TraceViewerApi): Promise<void> {
  const qp = vscode.window.createQuickPick<HitItem>();
  qp.title = 'Search Agent Sessions';
  qp.placeholder = 'Words, or fields: agent:codex tool:Bash status:error field:prompt since:7d text:"timeout"';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const run = async (query: string) => {
    const mine = ++asked;
    qp.busy = true;
    try {
      const items = await service.items(query);
      if (mine === asked) qp.items = items;
    } finally {
      if (mine === asked) qp.busy = false;
    }
  };
  qp.onDidChangeValue((v) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(v), DEBOUNCE_MS);
  });
  qp.onDidAccept(() => {
    const hit = qp.selectedItems[0]?.hit;
    if (!hit) return;
    qp.hide();
    void openInViewerAt(viewers, vscode.Uri.file(hit.file), hit.line);
  });
  qp.onDidHide(() => {
    if (timer) clearTimeout(timer);
    qp.dispose();
  });
  qp.show();
  // The index is brought up to date as the pick opens; a query typed meanwhile is searched again when it is.
  void service.update().then(() => {
    if (qp.value) void run(qp.value);
  });
}

/** Registers Search Agent Sessions… and keeps the index up to date when the Agent Traces view lists again. */
export function registerSessionSearch(context: vscode.ExtensionContext, sessions: SessionsProvider, viewers: TraceViewerApi, worker: SessionsWorker): SessionSearchService {
  const service = new SessionSearchService(worker);
  let started = false;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.searchSessions, () => {
      started = true;
      return showSessionSearch(service, viewers);
    }),
    // Each listing of the view (a refresh, a setting changed) updates the index too, once search was used.
    sessions.onDidChangeTreeData(() => {
      if (started) void service.update();
    }),
  );
  return service;
}

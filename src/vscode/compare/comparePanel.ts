import * as vscode from 'vscode';
import { diffTraces } from '../../core/diff/diffTraces';
import { bundlePageHtml } from '../webviewPage';
import { viewerPricing } from '../../viewer/pricing';
import { CompareData, compareData, compareDetail, compareInit, compareRowsPage } from '../../viewer/compareSession';
import type { CompareHostMessage, CompareViewMessage } from '../../protocol/compare';
import { parseViewMessage } from '../../protocol/validate';
import { COMMANDS } from '../commandIds';
import { setting } from '../settings';
import type { TraceModels } from '../traceModels';
import type { TraceViewerApi } from '../viewerApi';

/** The webview panel type of the compare view. */
export const COMPARE_VIEW_TYPE = 'agentTrace.compare';

function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/**
 * One compare view: two traces diffed in core, shown side by side in a webview of its own bundle. The panel
 * only loads, diffs and answers the view's validated messages; everything it shows is built in `src/viewer`.
 */
export class ComparePanel {
  private data: CompareData | undefined;
  private generation = 0;
  private includeVolatile = false;
  private showBookkeeping = false;
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly uris: { a: vscode.Uri; b: vscode.Uri },
    private readonly models: TraceModels,
    private readonly viewers: TraceViewerApi,
  ) {
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m) => void this.onMessage(parseViewMessage('compare', m))),
      panel.onDidDispose(() => this.disposables.forEach((d) => d.dispose())),
    );
  }

  /** Opens a compare view of `a` (left) and `b` (right). */
  static open(extensionUri: vscode.Uri, a: vscode.Uri, b: vscode.Uri, models: TraceModels, viewers: TraceViewerApi): ComparePanel {
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, `${fileName(a)} ↔ ${fileName(b)}`, vscode.ViewColumn.Active, {
      enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media], retainContextWhenHidden: true,
    });
    const w = panel.webview;
    w.html = bundlePageHtml(w, dist, 'compare');
    return new ComparePanel(panel, { a, b }, models, viewers);
  }

  private post(msg: CompareHostMessage): void {
    void this.panel.webview.postMessage(msg);
  }

  private async load(): Promise<void> {
    try {
      const diff = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Comparing ${fileName(this.uris.a)} with ${fileName(this.uris.b)}` },
        async () => diffTraces(await this.models.get(this.uris.a), await this.models.get(this.uris.b), { includeVolatile: this.includeVolatile, prices: viewerPricing(), thresholds: { durationMs: setting('compareDurationThresholdMs'), tokens: setting('compareTokenThreshold') } }),
      );
      this.data = compareData(diff, ++this.generation, this.showBookkeeping);
      this.post(compareInit(this.data, this.includeVolatile));
    } catch (err) {
      this.post({ type: 'compareError', message: err instanceof Error ? err.message : String(err) });
    }
  }

  private async onMessage(m: CompareViewMessage | null): Promise<void> {
    if (m === null) return;
    switch (m.type) {
      case 'compareReady':
        return this.load();
      case 'compareRows':
        if (this.data?.generation === m.generation) this.post({ type: 'compareRows', ...compareRowsPage(this.data, m.from, m.count) });
        return;
      case 'compareSelect': {
        const detail = this.data && (await compareDetail(this.data, m.row));
        if (detail) this.post({ type: 'compareDetail', detail });
        return;
      }
      case 'compareToggleVolatile':
        this.includeVolatile = m.include;
        return this.load();
      case 'compareShowBookkeeping':
        // The same diff, its rows made again (no second diff).
        this.showBookkeeping = m.show;
        if (this.data) {
          this.data = compareData(this.data.diff, ++this.generation, this.showBookkeeping);
          this.post(compareInit(this.data, this.includeVolatile));
        }
        return;
      case 'compareOpen': {
        const uri = this.uris[m.side];
        // Through the viewer's own command: a plain .jsonl is offered the viewer, not opened in it by default.
        await vscode.commands.executeCommand(COMMANDS.openInViewer, uri);
        await this.viewers.revealLine(uri, m.line);
        return;
      }
      default:
        return assertNever(m);
    }
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

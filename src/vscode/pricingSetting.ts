import * as vscode from 'vscode';
import { readPricing } from '../core/usage/prices';
import { setViewerPricing } from '../viewer/pricing';
import { setting } from './settings';

/**
 * Reads `agentTrace.pricing` into the viewer now, on every change and when the workspace is trusted (until then a
 * workspace's own prices are ignored, see {@link setting}); bad entries are named in a warning and left out.
 */
export function watchPricingSetting(context: vscode.ExtensionContext): void {
  const apply = (): void => {
    const { prices, problems } = readPricing(setting('pricing'));
    setViewerPricing(prices);
    if (problems.length > 0) void vscode.window.showWarningMessage(`Agent Trace Viewer: ${problems.join('; ')}`);
  };
  apply();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('agentTrace.pricing') && apply()),
    vscode.workspace.onDidGrantWorkspaceTrust(apply),
  );
}

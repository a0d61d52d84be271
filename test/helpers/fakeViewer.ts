import { fake, FakePanel, Uri } from './fakeVscode';
import { until } from './until';

type HostMessage = import('../../src/protocol').HostMessage;
type TraceDocument = import('../../src/vscode/editor/traceDocument').TraceDocument;

/**
 * Opens `file` in the trace viewer as VS Code does (the custom editor provider's document, then its panel), plays
 * the webview's `ready`, and waits for the host's `init`. The fake VS Code must be installed and the extension
 * activated. `sent` is the panel's record of what the host posted.
 */
export async function openInViewer(file: string): Promise<{ provider: import('vscode').CustomReadonlyEditorProvider; doc: TraceDocument; panel: FakePanel; sent: HostMessage[] }> {
  const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
  const doc = (await provider.openCustomDocument(Uri.file(file) as never, {} as never, {} as never)) as TraceDocument;
  const panel = new FakePanel();
  await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
  await doc.whenLoaded();
  panel.fromWebview.fire({ type: 'ready', state: null });
  const sent = panel.sent as HostMessage[];
  await until(() => sent.find((m) => m.type === 'init'), 'init');
  return { provider, doc, panel, sent };
}

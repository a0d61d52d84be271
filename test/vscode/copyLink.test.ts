// Copy Link to Event (issue 13 item 4): the viewer's selected event, a workspace-relative link with the
// product's own URI scheme, and the link opens that event again through the URI handler.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';
import { until } from '../helpers/until';
import { openInViewer } from '../helpers/fakeViewer';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { activate } = require('../../src/vscode/extension') as typeof import('../../src/vscode/extension');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const ID = 'agent-trace-viewer.agent-trace-viewer';

describe('Copy Link to Event', () => {
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')), extension: { id: ID } };
  const ws = tempDir();
  const file = join(ws, 'runs', 'live.trace.jsonl');
  before(() => {
    fake.config.checkOnOpen = false;
    mkdirSync(join(ws, 'runs'));
    copyFileSync(SAMPLE, file);
    fake.workspaceFolders = [{ uri: Uri.file(ws), name: 'ws', index: 0 }];
    activate(context as never);
  });
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    fake.workspaceFolders = [];
    delete fake.config.checkOnOpen;
  });

  it("links the viewer's selected event with a workspace-relative path, and the link reveals it again", async () => {
    const { doc, panel, sent } = await openInViewer(file);
    // The user selects the event on line 10 (node 8; line 6 is not JSON) in the viewer, then runs the command from the palette.
    panel.fromWebview.fire({ type: 'select', node: 8 });
    await until(() => sent.find((m) => m.type === 'detail'), 'the detail of the selection');
    await fake.commands.get(COMMANDS.copyLinkToEvent)!();
    const copied = [...fake.executed].reverse().find((e) => e[0] === 'clipboard')?.[1] as string;
    // The query encoded once (issue 40): a browser hands it to VS Code as it is.
    assert.equal(copied, `vscode://${ID}/open?path=runs/live.trace.jsonl&line=10`);
    assert.ok(fake.messages.some((m) => m === 'Agent Trace: copied link to line 10 of ' + file + '.'), fake.messages.join('\n'));

    // Pasted in another window of the same workspace: the handler resolves the path against its folders.
    panel.fromWebview.fire({ type: 'select', node: 0 });
    const before = sent.length;
    await fake.uriHandlers[fake.uriHandlers.length - 1].handleUri(Uri.parse(copied));
    assert.ok(sent.slice(before).some((m) => m.type === 'rowsState' && m.reveal?.node === 8), 'the linked event is revealed');
    // A link copied before (its query encoded twice by Uri.toString) still opens.
    panel.fromWebview.fire({ type: 'select', node: 0 });
    const again = sent.length;
    await fake.uriHandlers[fake.uriHandlers.length - 1].handleUri(Uri.parse(`vscode://${ID}/open?path%3Druns%252Flive.trace.jsonl%26line%3D10`));
    assert.ok(sent.slice(again).some((m) => m.type === 'rowsState' && m.reveal?.node === 8), 'an old link is revealed too');

    // code-server: the app's scheme opens nothing in a browser; asExternalUri's https address is what is copied.
    fake.externalUri = (u) => Uri.parse(`https://code.example/callback?vscode-scheme=code-oss&vscode-authority=${u.authority}&vscode-path=${u.path}&vscode-query=${encodeURIComponent(u.query)}`);
    try {
      await fake.commands.get(COMMANDS.copyLinkToEvent)!(Uri.file(file), 10);
    } finally {
      fake.externalUri = undefined;
    }
    const web = [...fake.executed].reverse().find((e) => e[0] === 'clipboard')?.[1] as string;
    assert.match(web, /^https:\/\/code\.example\/callback\?/);
    assert.doesNotMatch(web, /%25/, 'nothing is encoded twice');
    panel.disposed.fire();
    doc.dispose();
  });
});

// `npm start` names its first trace in the server's environment; on activation the extension shows it in the
// viewer whatever VS Code did with the launch URL (issue 13 item 14: a fresh browser opened it as text).
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { fake, installFakeVscode, TabInputCustom, TabInputText, Uri, vscodeFake } from '../helpers/fakeVscode';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { showLaunchFile, LAUNCH_FILE_ENV } = require('../../src/vscode/editor/launchFile') as typeof import('../../src/vscode/editor/launchFile');
const { VIEW_TYPE } = require('../../src/protocol') as typeof import('../../src/protocol');

const FILE = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
const env = { [LAUNCH_FILE_ENV]: FILE };
const opened = () => fake.executed.filter((e) => e[0] === 'vscode.openWith').map((e) => [(e[1] as Uri).fsPath, e[2]]);

describe('the launch trace of npm start opens in the viewer', () => {
  const group = vscodeFake.window.tabGroups.activeTabGroup;
  beforeEach(() => {
    fake.executed.length = 0;
    fake.closedTabs.length = 0;
    group.tabs = [];
  });
  after(() => {
    group.tabs = [];
  });

  it('no tab shows it yet: it opens in the viewer', async () => {
    await showLaunchFile(env);
    assert.deepEqual(opened(), [[FILE, VIEW_TYPE]]);
  });

  it('the launch URL opened it as text: the text tab is replaced by the viewer', async () => {
    const textTab = { input: new TabInputText(Uri.file(FILE)) };
    group.tabs = [textTab];
    await showLaunchFile(env);
    assert.deepEqual(opened(), [[FILE, VIEW_TYPE]]);
    assert.deepEqual(fake.closedTabs, [textTab]);
  });

  it('already in the viewer (a restored window), or no launch file: nothing happens', async () => {
    group.tabs = [{ input: new TabInputCustom(Uri.file(FILE), VIEW_TYPE) }];
    await showLaunchFile(env);
    group.tabs = [];
    await showLaunchFile({});
    assert.deepEqual(opened(), []);
    assert.deepEqual(fake.closedTabs, []);
  });
});

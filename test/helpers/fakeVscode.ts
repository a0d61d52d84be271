/**
 * A small stand-in for the `vscode` module, enough to drive the trace editor's host code in plain Node:
 * events, URIs, a file watcher that tests can trigger, configuration, progress, commands and webview
 * panels that record what they are sent. `installFakeVscode()` makes `require('vscode')` return it.
 */
import Module from 'node:module';
import { join } from 'node:path';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly path: string, private readonly text?: string) {}
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static parse(s: string): Uri {
    return new Uri(s.split(':')[0], s.replace(/^[a-z]+:\/\/[^/]*/, ''), s);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, join(base.path, ...parts));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.text ?? `${this.scheme}://${this.path}`;
  }
}

export class RelativePattern {
  constructor(readonly base: Uri, readonly pattern: string) {}
}
export class Range {
  constructor(readonly startLine: number, readonly startChar: number, readonly endLine: number, readonly endChar: number) {}
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputCustom {
  constructor(readonly uri: Uri, readonly viewType: string) {}
}

/** A webview panel that records messages and lets tests play the webview's side. */
export class FakePanel {
  readonly sent: unknown[] = [];
  readonly fromWebview = new EventEmitter<unknown>();
  readonly viewState = new EventEmitter<void>();
  readonly disposed = new EventEmitter<void>();
  active = true;
  visible = true;
  readonly webview = {
    html: '',
    options: {} as Record<string, unknown>,
    cspSource: 'https://fake.vscode-cdn.net',
    asWebviewUri: (u: Uri) => `https://fake.vscode-cdn.net${u.path}`,
    postMessage: async (m: unknown) => {
      this.sent.push(m);
      return true;
    },
    onDidReceiveMessage: this.fromWebview.event,
  };
  readonly onDidChangeViewState = this.viewState.event;
  readonly onDidDispose = this.disposed.event;
  reveal(): void {}
}

/** Everything the fake records, for assertions. */
export const fake = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as unknown[][],
  providers: new Map<string, unknown>(),
  watchers: [] as { change: EventEmitter<Uri>; create: EventEmitter<Uri>; del: EventEmitter<Uri> }[],
  config: { maxFileSizeMB: 2048, liveUpdates: true, expandAllMaxEvents: 20000 } as Record<string, unknown>,
  messages: [] as string[],
  progress: [] as string[],
};

export const vscodeFake = {
  EventEmitter,
  Uri,
  RelativePattern,
  Range,
  TabInputText,
  TabInputCustom,
  ViewColumn: { Beside: -2, Active: -1 },
  ProgressLocation: { Notification: 15, Window: 10 },
  workspace: {
    createFileSystemWatcher: () => {
      const w = { change: new EventEmitter<Uri>(), create: new EventEmitter<Uri>(), del: new EventEmitter<Uri>() };
      fake.watchers.push(w);
      return { onDidChange: w.change.event, onDidCreate: w.create.event, onDidDelete: w.del.event, dispose: () => undefined };
    },
    getConfiguration: () => ({ get: (k: string, d: unknown) => (k in fake.config ? fake.config[k] : d) }),
    openTextDocument: async () => {
      throw new Error('no text documents in the fake');
    },
  },
  window: {
    registerCustomEditorProvider: (viewType: string, provider: unknown) => {
      fake.providers.set(viewType, provider);
      return { dispose: () => fake.providers.delete(viewType) };
    },
    withProgress: async (opts: { title: string }, task: (p: { report(x: unknown): void }, t: { isCancellationRequested: boolean }) => Promise<unknown>) => {
      fake.progress.push(opts.title);
      return task({ report: () => undefined }, { isCancellationRequested: false });
    },
    showInformationMessage: async (m: string) => void fake.messages.push(m),
    showErrorMessage: async (m: string) => void fake.messages.push(m),
    showTextDocument: async () => undefined,
    tabGroups: { activeTabGroup: { activeTab: undefined } },
    activeTextEditor: undefined,
  },
  commands: {
    registerCommand: (id: string, f: (...args: unknown[]) => unknown) => {
      fake.commands.set(id, f);
      return { dispose: () => fake.commands.delete(id) };
    },
    executeCommand: async (id: string, ...args: unknown[]) => {
      fake.executed.push([id, ...args]);
      return fake.commands.get(id)?.(...args);
    },
    getCommands: async () => [...fake.commands.keys()],
  },
  env: {
    clipboard: { writeText: async (t: string) => void fake.executed.push(['clipboard', t]) },
    openExternal: async (u: Uri) => void fake.executed.push(['openExternal', u.toString()]),
  },
};

let installed = false;
/** Makes `require('vscode')` return the fake (once per process). */
export function installFakeVscode(): void {
  if (installed) return;
  installed = true;
  const m = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return vscodeFake;
    return load.call(this, request, ...rest);
  };
}

/**
 * A small stand-in for the `vscode` module, enough to drive the trace editor's host code in plain Node:
 * events, URIs, a file watcher that tests can trigger, configuration, progress, commands and webview
 * panels that record what they are sent. `installFakeVscode()` makes `require('vscode')` return it.
 */
import Module from 'node:module';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { globRegExp } from '../../src/core/sessions/agentHomes';

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

/**
 * `window.createQuickPick()`: `type` sets the value as a user typing does, `accept` picks an item. Unless a test
 * drives it (`fake.onQuickPick`), `show` answers with `fake.pick(items)` as `showQuickPick` does.
 */
export class FakeQuickPick<T> {
  items: readonly T[] = [];
  value = '';
  title?: string;
  placeholder?: string;
  matchOnDescription = false;
  matchOnDetail = false;
  selectedItems: readonly T[] = [];
  private readonly changed = new EventEmitter<string>();
  private readonly accepted = new EventEmitter<void>();
  private readonly hidden = new EventEmitter<void>();
  readonly onDidChangeValue = this.changed.event;
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hidden.event;
  show(): void {
    if (fake.onQuickPick) return fake.onQuickPick(this as FakeQuickPick<unknown>);
    const p = fake.pick(this.items as unknown[]) as T | undefined;
    if (p === undefined) this.hide();
    else this.accept(p);
  }
  type(value: string): void {
    this.value = value;
    this.changed.fire(value);
  }
  accept(item: T): void {
    this.selectedItems = [item];
    this.accepted.fire();
  }
  hide(): void {
    this.hidden.fire();
  }
  dispose(): void {}
}

function decodeOnce(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    private readonly text?: string,
    readonly authority = '',
    readonly query = '',
    readonly fragment = '',
  ) {}
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(s);
    if (!m) return new Uri(s.split(':')[0], s.replace(/^[a-z]+:\/\/[^/]*/, ''), s);
    // As VS Code's: the query is kept decoded once.
    return new Uri(m[1], decodeURIComponent(m[3]), s, m[2] ?? '', decodeOnce(m[4] ?? ''), m[5] ?? '');
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    // As VS Code's toString: the query percent-encoded (its `=`, `&` and `%` too).
    const text = `${c.scheme}://${c.authority ?? ''}${c.path ?? ''}${c.query ? `?${encodeURIComponent(c.query)}` : ''}${c.fragment ? `#${c.fragment}` : ''}`;
    return new Uri(c.scheme, c.path ?? '', text, c.authority ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, join(base.path, ...parts));
  }
  with(c: { fragment?: string; query?: string }): Uri {
    return Uri.from({ scheme: this.scheme, authority: this.authority, path: this.path, query: c.query ?? this.query, fragment: c.fragment ?? this.fragment });
  }
  get fsPath(): string {
    return this.path;
  }
  toString(_skipEncoding?: boolean): string {
    return this.text ?? `${this.scheme}://${this.path}`;
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}
export class Selection extends Position {
  readonly active: Position;
  constructor(anchor: Position, active: Position) {
    super(anchor.line, anchor.character);
    this.active = active;
  }
}
export class Location {
  constructor(readonly uri: Uri, readonly range: Position) {}
}
export class MarkdownString {
  value = '';
  isTrusted = false;
  supportHtml = false;
  constructor(value?: string) {
    this.value = value ?? '';
  }
  appendMarkdown(s: string): this {
    this.value += s;
    return this;
  }
}
export class Hover {
  constructor(readonly contents: MarkdownString, readonly range?: unknown) {}
}
export class DocumentLink {
  tooltip?: string;
  constructor(readonly range: Range, readonly target: Uri) {}
}
export class DiagnosticRelatedInformation {
  constructor(readonly location: Location, readonly message: string) {}
}
export class Diagnostic {
  source?: string;
  code?: unknown;
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(readonly range: Range, readonly message: string, readonly severity: number) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string, readonly color?: ThemeColor) {}
}
export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };
export const QuickPickItemKind = { Separator: -1, Default: 0 };
export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  resourceUri?: Uri;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(readonly label: string, readonly collapsibleState = 0) {}
}

export class RelativePattern {
  constructor(readonly base: Uri, readonly pattern: string) {}
}
export class Range {
  constructor(readonly startLine: number, readonly startChar: number, readonly endLine: number, readonly endChar: number) {}
  get start(): { line: number; character: number } {
    return { line: this.startLine, character: this.startChar };
  }
  get end(): { line: number; character: number } {
    return { line: this.endLine, character: this.endChar };
  }
}
export class DocumentSymbol {
  children: DocumentSymbol[] = [];
  constructor(readonly name: string, readonly detail: string, readonly kind: number, readonly range: Range, readonly selectionRange: Range) {}
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
  viewColumn = 2;
  /** The columns `reveal` was called with, in order. */
  readonly revealed: (number | undefined)[] = [];
  reveal(column?: number): void {
    this.revealed.push(column);
  }
}

/** Everything the fake records, for assertions. */
export const fake = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as unknown[][],
  providers: new Map<string, unknown>(),
  watchers: [] as { change: EventEmitter<Uri>; create: EventEmitter<Uri>; del: EventEmitter<Uri> }[],
  config: { maxFileSizeMB: 2048, liveUpdates: true, expandAllMaxEvents: 20000 } as Record<string, unknown>,
  /** The user's own (global) settings; `config` above is what the workspace sets, which wins in `get`. */
  userConfig: {} as Record<string, unknown>,
  /** `workspace.isTrusted` (false: Restricted Mode); {@link grantTrust} makes it true as VS Code does. */
  trusted: true,
  messages: [] as string[],
  progress: [] as string[],
  /** Where each progress was shown (`withProgress`'s `location`), in order. */
  progressLocations: [] as unknown[],
  /** What progress notifications reported (`progress.report({ message })`), in order. */
  progressReports: [] as unknown[],
  /** Language features by kind (hover, definition, references) as the extension registered them. */
  language: new Map<string, unknown>(),
  /** Diagnostics by collection name, then by URI string. */
  diagnostics: new Map<string, Map<string, unknown[]>>(),
  /** What the next quick pick answers, given its items (undefined = dismissed). */
  pick: (items: unknown[]): unknown => items[0],
  /** What `env.asExternalUri` answers when set (code-server maps the app's scheme to its own https address). */
  externalUri: undefined as ((u: Uri) => Uri) | undefined,
  /** Drives a `createQuickPick` when set (else it answers with {@link pick}). */
  onQuickPick: undefined as ((qp: FakeQuickPick<unknown>) => void) | undefined,
  /** What the next input box answers, given its options (undefined = dismissed). */
  input: (_options: { value?: string; validateInput?(v: string): unknown }): string | undefined => undefined,
  workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
  uriHandlers: [] as { handleUri(u: Uri): unknown }[],
  /** Text documents shown, with the options they were shown with. */
  shownText: [] as { doc: unknown; options: unknown }[],
  /** Tabs the extension closed. */
  closedTabs: [] as unknown[],
  /** What a notification with items answers (`showInformationMessage(m, ...items)`; undefined = dismissed). */
  answer: (_message: string, _items: string[]): string | undefined => undefined,
  /** Fires `window.onDidChangeActiveTextEditor`. */
  activeEditorChanged: new EventEmitter<unknown>(),
  /** Fires `window.onDidChangeTextEditorSelection`. */
  selectionChanged: new EventEmitter<unknown>(),
  /** Status bar items the extension created. */
  statusBarItems: [] as FakeStatusBarItem[],
  /** Tree views the extension created, by view id. */
  treeViews: new Map<string, { treeDataProvider: unknown; options?: Record<string, unknown>; message?: string }>(),
};

const trustGranted = new EventEmitter<void>();

/** Trusts the workspace and fires `workspace.onDidGrantWorkspaceTrust`, as the user's "Trust" does. */
export function grantTrust(): void {
  fake.trusted = true;
  trustGranted.fire();
}

function diagnosticCollection(name: string) {
  const byUri = new Map<string, unknown[]>();
  fake.diagnostics.set(name, byUri);
  return {
    set: (u: Uri, d: unknown[]) => void byUri.set(u.toString(), d),
    get: (u: Uri) => byUri.get(u.toString()),
    delete: (u: Uri) => void byUri.delete(u.toString()),
    dispose: () => void fake.diagnostics.delete(name),
  };
}

const registerLanguage = (kind: string) => (_selector: unknown, provider: unknown) => {
  fake.language.set(kind, provider);
  return { dispose: () => fake.language.delete(kind) };
};

/** A status bar item that records what it shows. */
export class FakeStatusBarItem {
  text = '';
  tooltip: unknown = undefined;
  command: unknown = undefined;
  backgroundColor: unknown = undefined;
  color: unknown = undefined;
  name = '';
  visible = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

/** Makes `editor` the active text editor and fires the change, as VS Code does when the user switches tabs. */
export function setActiveTextEditor(editor: unknown): void {
  (vscodeFake.window as { activeTextEditor: unknown }).activeTextEditor = editor;
  fake.activeEditorChanged.fire(editor);
}

export const vscodeFake = {
  EventEmitter,
  Uri,
  Position,
  Selection,
  Location,
  MarkdownString,
  Hover,
  Diagnostic,
  DiagnosticRelatedInformation,
  DocumentLink,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  languages: {
    createDiagnosticCollection: diagnosticCollection,
    registerHoverProvider: registerLanguage('hover'),
    registerDefinitionProvider: registerLanguage('definition'),
    registerReferenceProvider: registerLanguage('references'),
    registerDocumentLinkProvider: registerLanguage('links'),
    registerDocumentSymbolProvider: registerLanguage('symbols'),
  },
  RelativePattern,
  ThemeColor,
  ThemeIcon,
  TreeItem,
  TreeItemCollapsibleState,
  QuickPickItemKind,
  Range,
  TabInputText,
  TabInputCustom,
  ViewColumn: { Beside: -2, Active: -1 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  SymbolKind: { Module: 1, Namespace: 2, Object: 18, String: 14, Field: 7, Method: 5, Function: 11, Event: 23 },
  DocumentSymbol,
  ProgressLocation: { Notification: 15, Window: 10 },
  workspace: {
    createFileSystemWatcher: () => {
      const w = { change: new EventEmitter<Uri>(), create: new EventEmitter<Uri>(), del: new EventEmitter<Uri>() };
      fake.watchers.push(w);
      return { onDidChange: w.change.event, onDidCreate: w.create.event, onDidDelete: w.del.event, dispose: () => undefined };
    },
    /** Files below the workspace folders whose path (relative to the folder) a glob matches, as VS Code's search does. */
    findFiles: async (include: string, exclude?: string, max = Infinity) => {
      const alternatives = (g: string) => (g.startsWith('{') && g.endsWith('}') ? splitTopLevel(g.slice(1, -1)) : [g]);
      const inc = alternatives(include).map(globRegExp);
      const exc = exclude ? alternatives(exclude).map(globRegExp) : [];
      const out: Uri[] = [];
      for (const f of fake.workspaceFolders) {
        const walk = async (dir: string): Promise<void> => {
          for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
            const abs = `${dir}/${e.name}`;
            const rel = abs.slice(f.uri.fsPath.length + 1);
            if (out.length >= max || exc.some((r) => r.test(rel) || r.test(`${rel}/x`))) continue;
            if (e.isDirectory()) await walk(abs);
            else if (inc.some((r) => r.test(rel))) out.push(Uri.file(abs));
          }
        };
        await walk(f.uri.fsPath);
      }
      return out;
    },
    getConfiguration: () => ({
      get: (k: string, d: unknown) => (k in fake.config ? fake.config[k] : k in fake.userConfig ? fake.userConfig[k] : d),
      inspect: (k: string) => ({ key: `agentTrace.${k}`, globalValue: fake.userConfig[k], workspaceValue: fake.config[k] }),
    }),
    get isTrusted() {
      return fake.trusted;
    },
    onDidGrantWorkspaceTrust: trustGranted.event,
    openTextDocument: async () => {
      throw new Error('no text documents in the fake');
    },
    fs: {
      stat: async (u: Uri) => {
        const st = await stat(u.fsPath);
        return { size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs, type: 1 };
      },
    },
    get workspaceFolders() {
      return fake.workspaceFolders;
    },
    getWorkspaceFolder: (u: Uri) => fake.workspaceFolders.find((f) => u.fsPath.startsWith(f.uri.fsPath + '/')),
    asRelativePath: (u: Uri | string) => (typeof u === 'string' ? u : u.fsPath),
    registerTextDocumentContentProvider: () => ({ dispose: () => undefined }),
    onDidChangeConfiguration: () => ({ dispose: () => undefined }),
    onDidChangeWorkspaceFolders: () => ({ dispose: () => undefined }),
  },
  window: {
    registerCustomEditorProvider: (viewType: string, provider: unknown) => {
      fake.providers.set(viewType, provider);
      return { dispose: () => fake.providers.delete(viewType) };
    },
    withProgress: async (opts: { title: string; location?: unknown }, task: (p: { report(x: unknown): void }, t: { isCancellationRequested: boolean }) => Promise<unknown>) => {
      fake.progress.push(opts.title);
      fake.progressLocations.push(opts.location);
      return task({ report: (x: unknown) => void fake.progressReports.push(x) }, { isCancellationRequested: false });
    },
    createTreeView: (id: string, options: { treeDataProvider: unknown }) => {
      const view = { treeDataProvider: options.treeDataProvider, options, message: undefined as string | undefined, dispose: () => void fake.treeViews.delete(id) };
      fake.treeViews.set(id, view);
      return view;
    },
    showInformationMessage: async (m: string, ...items: string[]) => {
      fake.messages.push(m);
      return items.length > 0 ? fake.answer(m, items) : undefined;
    },
    onDidChangeActiveTextEditor: (f: (e: unknown) => void) => fake.activeEditorChanged.event(f),
    onDidChangeTextEditorSelection: (f: (e: unknown) => void) => fake.selectionChanged.event(f),
    createStatusBarItem: () => {
      const item = new FakeStatusBarItem();
      fake.statusBarItems.push(item);
      return item;
    },
    showWarningMessage: async (m: string) => void fake.messages.push(m),
    showQuickPick: async (items: unknown[]) => fake.pick(items),
    createQuickPick: () => new FakeQuickPick(),
    showInputBox: async (options: { value?: string; validateInput?(v: string): unknown }) => fake.input(options),
    registerUriHandler: (h: { handleUri(u: Uri): unknown }) => {
      fake.uriHandlers.push(h);
      return { dispose: () => undefined };
    },
    showErrorMessage: async (m: string) => void fake.messages.push(m),
    showTextDocument: async (doc: unknown, options?: unknown) => void fake.shownText.push({ doc, options }),
    tabGroups: {
      activeTabGroup: { activeTab: undefined as unknown, tabs: [] as { input: unknown }[], viewColumn: 1 },
      get all() {
        return [vscodeFake.window.tabGroups.activeTabGroup];
      },
      close: async (tabs: unknown[]) => {
        fake.closedTabs.push(...tabs);
        return true;
      },
    },
    activeTextEditor: undefined as unknown,
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
    uriScheme: 'vscode',
    /** The desktop's answer: the URI as it is (a test sets `fake.externalUri` for code-server's). */
    asExternalUri: async (u: Uri) => (fake.externalUri ? fake.externalUri(u) : u),
    clipboard: { writeText: async (t: string) => void fake.executed.push(['clipboard', t]) },
    openExternal: async (u: Uri) => void fake.executed.push(['openExternal', u.toString()]),
  },
};

/** `a,{b,c},d` split at the commas outside braces. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

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

/**
 * Moving between events: jumps to a node or a line (the host reveals and selects it), back and forward through the
 * events looked at, to the parent and the first child, by the navigation bar's buttons and by Alt+arrows (the tree
 * leaves modified keys to the app).
 */
import type { EventDetail } from '../src/protocol';
import { post } from './api';
import { NavBar } from './navBar';
import { SelectionHistory } from './selectionHistory';
import type { TreeView } from './treeView';

/** See the file comment. */
export class Navigation {
  private readonly history = new SelectionHistory();
  readonly navBar = new NavBar({ back: () => this.goHistory(-1), forward: () => this.goHistory(1), parent: () => this.goParent(), firstChild: () => this.goFirstChild() });

  /** @param current the event the detail pane shows (its parent and children are where the keys go). */
  constructor(private readonly tree: TreeView, private readonly current: () => EventDetail | null) {}

  /** Reveals, selects and focuses a node (parent links, breadcrumbs, ids). */
  jump(node: number): void {
    this.tree.selectedNode = node;
    post({ type: 'revealNode', node, select: true });
    this.tree.focus();
  }

  revealLine(line: number): void {
    post({ type: 'revealLine', line });
    this.tree.focus();
  }

  /** A detail is shown: it joins the history, and the bar's buttons follow it (null: nothing selected). */
  shown(detail: EventDetail | null): void {
    if (detail) this.history.visit(detail.line);
    this.navBar.update(detail, this.history.canBack, this.history.canForward);
  }

  /** Alt+arrows; true when the key was one of them (and handled). */
  altKey(e: KeyboardEvent): boolean {
    const go = e.altKey && !(e.ctrlKey || e.metaKey) ? ALT_KEYS[e.key] : undefined;
    if (!go) return false;
    e.preventDefault();
    go(this);
    return true;
  }

  /** Back (-1) or forward (1) through the events looked at. */
  goHistory(direction: -1 | 1): void {
    const line = direction < 0 ? this.history.back() : this.history.forward();
    if (line !== null) this.revealLine(line);
  }

  goParent(): void {
    const parent = this.current()?.parent;
    if (parent) this.jump(parent.node);
  }

  goFirstChild(): void {
    const child = this.current()?.nav?.children[0];
    if (child) this.jump(child.node);
  }
}

const ALT_KEYS: Record<string, (n: Navigation) => void> = {
  ArrowLeft: (n) => n.goHistory(-1),
  ArrowRight: (n) => n.goHistory(1),
  ArrowUp: (n) => n.goParent(),
  ArrowDown: (n) => n.goFirstChild(),
};

import { fileSystem } from '../io/fileSystem';
import { join } from '../io/paths';
import { platform } from '../io/platform';

/**
 * Folder listings for locating many blobs at once (find reads every blob a trace names). Looking a name up
 * the careful way costs three file-system calls (lstat, realpath, stat: see `locateInRoot`), which cost more
 * than reading a small blob. A listing shows, for each entry, whether it is a plain directory, a plain
 * regular file or something else (a symbolic link, a FIFO) without following it, so a name whose every part
 * the listings show as plain is found inside its root with no call of its own; anything else is left to the
 * careful lookup, so the guards stay the same. The file is still opened without following a final link and
 * checked to be a regular file when it is read (`openBlobFile`).
 */

type Kind = 'dir' | 'file' | 'other';

/** What the listings say about a name under a root. */
export type ListedName = 'file' | 'absent' | 'check';

/** Folders listed once each, for the life of one pass (a find); see the file comment. */
export class FolderListings {
  private readonly lists = new Map<string, Promise<Map<string, Kind> | null>>();

  /** How `rel` (parts joined by `/`) under the real folder `root` reads in the listings. */
  async classify(root: string, rel: string): Promise<ListedName> {
    const parts = rel.split('/');
    let dir = root;
    for (let k = 0; k < parts.length; k++) {
      const entries = await this.list(dir);
      if (entries === null) return 'check';
      const kind = entries.get(parts[k]);
      // Names differing in case are one file where the file system folds case, so a name the listing does not
      // show may still exist there: it is looked up the careful way.
      if (kind === undefined) return platform().foldsCase ? 'check' : 'absent';
      const last = k === parts.length - 1;
      if (kind !== (last ? 'file' : 'dir')) return 'check';
      dir = join(dir, parts[k]);
    }
    return 'file';
  }

  private list(dir: string): Promise<Map<string, Kind> | null> {
    let p = this.lists.get(dir);
    if (!p) {
      p = listFolder(dir);
      this.lists.set(dir, p);
    }
    return p;
  }
}

/** A folder's entries by kind; an empty map when it does not exist, null when it cannot be listed. */
async function listFolder(dir: string): Promise<Map<string, Kind> | null> {
  try {
    const out = new Map<string, Kind>();
    for (const e of await fileSystem().list(dir)) out.set(e.name, e.kind === 'directory' ? 'dir' : e.kind);
    return out;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? new Map() : null;
  }
}

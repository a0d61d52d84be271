import { basename, dirname, join } from '../../io/paths';
import { fileSystem } from '../../io/fileSystem';
import { sha256Hex } from '../../io/platform';

const SOURCE_RE = /\.(lm|lm\.md|lumen|lumen\.md)$/i;
const MAX_FILES = 200;
const MAX_BYTES = 4 * 1024 * 1024;

/** Directories where the run's source is likely: the project that holds `.lumen/trace/`, or next to the trace. */
function candidateDirs(tracePath: string): string[] {
  const dir = dirname(tracePath);
  const p = tracePath.replace(/\\/g, '/');
  const at = p.lastIndexOf('/.lumen/trace/');
  if (at >= 0) {
    const project = tracePath.slice(0, at) || '/';
    return [project, join(project, 'src'), join(project, 'examples')];
  }
  return basename(dir) === 'trace' ? [dirname(dirname(dir)), dirname(dir)] : [dir, dirname(dir)];
}

/**
 * Looks for a Lumen source file whose SHA-256 equals `docHash` (`sha256:<64 hex>`, as the CLI sets it) near the
 * trace. Bounded: a few directories, no recursion, at most 200 files of at most 4 MiB. Returns its path or null.
 */
export async function findDocHashSource(tracePath: string, docHash: string): Promise<string | null> {
  const m = /^sha256:([0-9a-f]{64})$/.exec(docHash);
  if (!m) return null;
  let seen = 0;
  for (const dir of candidateDirs(tracePath)) {
    let names: string[];
    try {
      names = (await fileSystem().list(dir)).map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => SOURCE_RE.test(n)).sort()) {
      if (++seen > MAX_FILES) return null;
      const file = join(dir, name);
      try {
        const info = await fileSystem().stat(file);
        if (!info.isFile() || info.size > MAX_BYTES) continue;
        if (sha256Hex(await fileSystem().readFile(file)) === m[1]) return file;
      } catch {
        // unreadable: not the source
      }
    }
  }
  return null;
}

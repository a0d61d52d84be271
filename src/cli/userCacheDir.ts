import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';

/** The user's cache directory for agent-trace, made private if new; null when there is none to trust. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const base = env.AGENT_TRACE_CACHE_DIR
    ?? (process.platform === 'win32' ? (env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'agent-trace') : null)
      : path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'agent-trace'));
  if (!base) return null;
  try {
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
    const st = fs.statSync(base);
    // Only a directory of this user's that nobody else can write to (POSIX; Windows keeps LOCALAPPDATA private).
    if (process.platform !== 'win32' && ((st.mode & 0o022) !== 0 || (process.getuid && st.uid !== process.getuid()))) return null;
    return base;
  } catch {
    return null;
  }
}

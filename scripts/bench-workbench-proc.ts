// Process facts for the workbench benchmark (Linux /proc): which process is the extension host of one
// code-server, its resident memory, and a garbage collection inside it through Node's inspector.
import { readdirSync, readFileSync } from 'node:fs';

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/**
 * The `--type=extensionHost` process started by the code-server whose command line names `marker` (its
 * workspace folder, unique per run), so other code-servers on the machine are never measured.
 */
export function extensionHostPid(marker: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || !cmdline(pid).includes('--type=extensionHost')) continue;
    for (let p = parentOf(pid); p > 1; p = parentOf(p)) if (cmdline(p).includes(marker)) return pid;
  }
  return undefined;
}

/** Resident set size of a process in MiB (0 when it is gone). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `ms` until stopped; `peak` is the highest sample. */
export function sampleRss(pid: number, ms = 50): { peak: () => number; stop: () => void } {
  let peak = rssMiB(pid);
  const t = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), ms);
  return { peak: () => peak, stop: () => clearInterval(t) };
}

/**
 * Collects garbage in a Node process: SIGUSR1 opens its inspector (port 9229), then two full collections
 * through the DevTools protocol. Needs `--experimental-websocket` on Node 20. False when it did not work.
 */
export async function collectGarbage(pid: number): Promise<boolean> {
  // An inspector that never answers must not hold up the benchmark.
  return Promise.race([gcThroughInspector(pid), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000).unref())]);
}

async function gcThroughInspector(pid: number): Promise<boolean> {
  const WS = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!WS) return false;
  try {
    process.kill(pid, 'SIGUSR1');
    let url: string | undefined;
    for (let i = 0; i < 40 && !url; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const list = (await fetch('http://127.0.0.1:9229/json/list').then((r) => r.json(), () => [])) as { webSocketDebuggerUrl?: string }[];
      url = list[0]?.webSocketDebuggerUrl;
    }
    if (!url) return false;
    const ws = new WS(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('inspector connection failed'));
    });
    let next = 1;
    const call = (method: string) =>
      new Promise<void>((resolve) => {
        const id = next++;
        ws.onmessage = (e) => {
          if ((JSON.parse(String(e.data)) as { id?: number }).id === id) resolve();
        };
        ws.send(JSON.stringify({ id, method }));
      });
    await call('HeapProfiler.enable');
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    ws.close();
    return true;
  } catch {
    return false;
  }
}

interface WebSocketLike {
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

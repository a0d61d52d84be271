// Process facts for the workbench benchmark (Linux /proc): which process is the extension host of one
// code-server, its resident memory, and a garbage collection or a CPU profile inside it through Node's inspector.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

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
export function sampleRss(pid: number, ms = 50): { peak: () => number; stop: () => void; timeline: () => string } {
  let peak = rssMiB(pid);
  const t0 = performance.now();
  // Every 250 ms, the highest sample of that quarter second (BENCH_WORKBENCH_TRACE prints it: where the peak is).
  const quarters: number[] = [];
  const t = setInterval(() => {
    const now = rssMiB(pid);
    peak = Math.max(peak, now);
    const q = Math.floor((performance.now() - t0) / 250);
    quarters[q] = Math.max(quarters[q] ?? 0, now);
  }, ms);
  const timeline = () => Array.from(quarters, (v, q) => `${(q / 4).toFixed(2)}s:${(v ?? 0).toFixed(0)}`).join(' ');
  return { peak: () => peak, stop: () => clearInterval(t), timeline };
}

/** A DevTools-protocol session with a Node process's inspector: `call` sends a method and resolves with its result. */
interface Inspector {
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}

/**
 * Opens a Node process's inspector: SIGUSR1 starts it (port 9229), then a DevTools-protocol connection. Needs
 * `--experimental-websocket` on Node 20. Null when it did not work.
 */
async function openInspector(pid: number): Promise<Inspector | null> {
  const WS = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!WS) return null;
  try {
    process.kill(pid, 'SIGUSR1');
    let url: string | undefined;
    for (let i = 0; i < 40 && !url; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const list = (await fetch('http://127.0.0.1:9229/json/list').then((r) => r.json(), () => [])) as { webSocketDebuggerUrl?: string }[];
      url = list[0]?.webSocketDebuggerUrl;
    }
    if (!url) return null;
    const ws = new WS(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('inspector connection failed'));
    });
    let next = 1;
    const waiting = new Map<number, (result: Record<string, unknown>) => void>();
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: Record<string, unknown> };
      if (m.id !== undefined) waiting.get(m.id)?.(m.result ?? {});
    };
    return {
      call: (method, params) =>
        new Promise((resolve) => {
          const id = next++;
          waiting.set(id, resolve);
          ws.send(JSON.stringify({ id, method, ...(params ? { params } : {}) }));
        }),
      close: () => ws.close(),
    };
  } catch {
    return null;
  }
}

/** Collects garbage in a Node process (two full collections through its inspector). False when it did not work. */
export async function collectGarbage(pid: number): Promise<boolean> {
  // An inspector that never answers must not hold up the benchmark.
  return Promise.race([gcThroughInspector(pid), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000).unref())]);
}

async function gcThroughInspector(pid: number): Promise<boolean> {
  const inspector = await openInspector(pid);
  if (!inspector) return false;
  await inspector.call('HeapProfiler.enable');
  await inspector.call('HeapProfiler.collectGarbage');
  await inspector.call('HeapProfiler.collectGarbage');
  inspector.close();
  return true;
}

/**
 * Starts a CPU profile of a Node process through its inspector; `stop` writes it to `file` (a .cpuprofile that
 * Chrome's DevTools and VS Code open). Null when the inspector could not be opened.
 */
export async function startCpuProfile(pid: number): Promise<{ stop: (file: string) => Promise<void> } | null> {
  const inspector = await openInspector(pid);
  if (!inspector) return null;
  await inspector.call('Profiler.enable');
  await inspector.call('Profiler.setSamplingInterval', { interval: 500 });
  await inspector.call('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await inspector.call('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      inspector.close();
    },
  };
}

interface WebSocketLike {
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

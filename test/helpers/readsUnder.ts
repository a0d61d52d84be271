import { fileSystem, FileSystem, setFileSystem } from '../../src/core/io/fileSystem';

/** Paths under `dir` opened or read through the core's file system (its io seam) while `f` runs, in order. */
export async function tracesRead(dir: string, f: () => Promise<unknown>): Promise<string[]> {
  const real = fileSystem();
  const seen: string[] = [];
  const note = (p: unknown) => {
    if (String(p).startsWith(dir)) seen.push(String(p));
  };
  setFileSystem(new Proxy(real, {
    get(target, name: keyof FileSystem) {
      const v = target[name] as unknown;
      if (typeof v !== 'function') return v;
      if (name === 'open' || name === 'readFile' || name === 'readSync') return (p: unknown, ...rest: unknown[]) => (note(p), (v as (...a: unknown[]) => unknown).call(target, p, ...rest));
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  }));
  try {
    await f();
  } finally {
    setFileSystem(real);
  }
  return seen;
}

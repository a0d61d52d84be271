/**
 * The OS's path functions for the core, through its platform seam (`platform.ts`): what `node:path` gives in
 * Node (Windows paths on Windows), POSIX paths in the report's page. Same names and meaning as `node:path`'s.
 */
import { platform } from './platform';

export function basename(path: string, suffix?: string): string {
  return platform().path.basename(path, suffix);
}

export function dirname(path: string): string {
  return platform().path.dirname(path);
}

export function extname(path: string): string {
  return platform().path.extname(path);
}

export function join(...paths: string[]): string {
  return platform().path.join(...paths);
}

export function resolve(...paths: string[]): string {
  return platform().path.resolve(...paths);
}

export function relative(from: string, to: string): string {
  return platform().path.relative(from, to);
}

export function isAbsolute(path: string): boolean {
  return platform().path.isAbsolute(path);
}

/** The separator of the OS's paths (`node:path`'s `sep`). */
export function pathSep(): string {
  return platform().path.sep;
}

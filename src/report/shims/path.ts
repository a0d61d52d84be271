// node:path (POSIX) in the report page: the trace lives at one in-memory path, so these stay simple.
export const sep = '/';
export function basename(p: string, ext?: string): string {
  const b = p.replace(/\/+$/, '').split('/').pop() ?? '';
  return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b;
}
export function dirname(p: string): string {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return i > 0 ? p.slice(0, i) : i === 0 ? '/' : '.';
}
export function extname(p: string): string {
  const m = /(\.[^./]*)$/.exec(basename(p));
  return m ? m[1] : '';
}
export function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}
function normalize(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return (p.startsWith('/') ? '/' : '') + out.join('/');
}
export function join(...parts: string[]): string {
  return normalize(parts.filter((x) => x !== '').join('/')) || '.';
}
export function resolve(...parts: string[]): string {
  let p = '';
  for (const part of parts) p = part.startsWith('/') ? part : `${p}/${part}`;
  return normalize(p.startsWith('/') ? p : `/${p}`);
}
export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
export const posix = { sep, basename, dirname, extname, isAbsolute, join, resolve, relative };
export default posix;

/**
 * A compact JSON rendering of a parsed value cut at about `max` characters (then `…`), built with an explicit
 * stack: a line nested thousands of levels deep has a short label instead of overflowing the call stack the way
 * `JSON.stringify` does. Strings inside are cut too, so a huge string costs no more than a small one.
 */
export function jsonPreview(value: unknown, max = 60): string {
  let out = '';
  // Each entry is either text to append or a value to render.
  const stack: ({ text: string } | { value: unknown })[] = [{ value }];
  while (stack.length > 0 && out.length <= max) {
    const top = stack.pop()!;
    if ('text' in top) {
      out += top.text;
      continue;
    }
    const v = top.value;
    if (Array.isArray(v)) {
      stack.push({ text: ']' });
      for (let i = Math.min(v.length, max) - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push({ text: ',' });
      }
      out += '[';
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v).slice(0, max);
      stack.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (v as Record<string, unknown>)[keys[i]] });
        stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i].slice(0, max))}:` });
      }
      out += '{';
    } else if (typeof v === 'string') out += JSON.stringify(v.length > max ? v.slice(0, max) : v);
    else out += v === undefined ? 'undefined' : String(v);
  }
  return out.length > max || stack.length > 0 ? out.slice(0, max) + '…' : out;
}

/**
 * Polls `f` every 20 ms until it returns something other than `undefined` or `false`, and returns that;
 * fails with "timed out waiting for <what>" after `ms`. Tests wait for the state they assert, never sleep.
 */
export async function until<T>(f: () => T | undefined | false, what = 'the condition', ms = 5000): Promise<T> {
  for (let t = 0; t < ms; t += 20) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

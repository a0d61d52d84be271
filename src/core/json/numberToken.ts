/**
 * The source text of the first number written as the value of `"key"` in a JSON line, or null. `JSON.parse` keeps
 * numbers as doubles, so `18446744073709551616` would print as `18446744073709552000` and `1e+299` would pass as
 * an integer; messages and exact range checks use the token as written instead.
 */
export function numberToken(text: string, key: string): string | null {
  const quoted = JSON.stringify(key);
  for (let at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + 1)) {
    const m = /^\s*:\s*(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at + quoted.length, at + quoted.length + 400));
    if (m) return m[1];
  }
  return null;
}

const U64_MAX = 18446744073709551615n;

/** Why a number token is not an exact `u64` as serde reads it, or null when it is one. */
export function u64TokenProblem(token: string): string | null {
  if (!/^(0|[1-9]\d*)$/.test(token)) return /^-/.test(token) && !/[.eE]/.test(token) ? `invalid value: integer \`${token}\`, expected u64` : `invalid type: floating point \`${token}\`, expected u64`;
  return BigInt(token) > U64_MAX ? `invalid value: integer \`${token}\` is larger than u64 can hold, expected u64` : null;
}

/** A number for a message: exact as written when a double cannot show it exactly. */
export function exactNumberText(value: number, text: string, key: string): string {
  return Number.isSafeInteger(value) ? String(value) : numberToken(text, key) ?? String(value);
}

/**
 * How Rust's serde_json (default features: no `arbitrary_precision`, no `float_roundtrip`) reads a JSON number
 * token and writes it back. Used to rebuild hash pre-images byte for byte.
 *
 * Reading: an integer token that fits u64 (or i64 when negative) stays an integer and is written back as its
 * digits. Everything else (a fraction, an exponent, `-0`, an integer beyond the 64-bit range) becomes an f64,
 * computed the way serde_json's `f64_from_parts` does, and is written in ryu layout.
 */

/** Thrown when serde_json would refuse the number (e.g. `1e400`: "number out of range"). */
export class NumberRangeError extends Error {}

const U64_MAX = '18446744073709551615';
const I64_MIN_ABS = '9223372036854775808';
/** serde_json's POW10 table: the f64 literals 1e0 … 1e308. */
const POW10: number[] = Array.from({ length: 309 }, (_, i) => Number(`1e${i}`));

/** True when a valid JSON number token is an integer serde_json keeps as u64 or i64. */
export function isSerdeInteger(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 46 || c === 101 || c === 69) return false; // . e E
  }
  if (raw.charCodeAt(0) === 45) {
    if (raw === '-0') return false; // serde_json turns -0 into the float -0.0
    const digits = raw.length - 1;
    return digits < 19 || (digits === 19 && raw.slice(1) <= I64_MIN_ABS);
  }
  return raw.length < 20 || (raw.length === 20 && raw <= U64_MAX);
}

/**
 * serde_json's output for a valid JSON number token: the integer digits when it is a 64-bit integer,
 * otherwise the f64 it parses to, in ryu layout. Throws {@link NumberRangeError} where serde_json errors.
 */
export function serdeNumberText(raw: string): string {
  return isSerdeInteger(raw) ? raw : formatF64(serdeParseF64(raw));
}

/**
 * The f64 serde_json (without `float_roundtrip`) parses from a valid JSON number token: the digits are
 * accumulated into a u64 significand (digits past u64 overflow are dropped and counted in the exponent),
 * then `significand as f64` is multiplied or divided by POW10[|exp|]. That is not always correctly rounded,
 * so `Number(raw)` is used only where both agree by construction.
 */
export function serdeParseF64(raw: string): number {
  const neg = raw.charCodeAt(0) === 45;
  let i = neg ? 1 : 0;
  let digits = '';
  let exponent = 0;
  let overflow = false;
  // Integer part.
  for (; i < raw.length && isDigit(raw.charCodeAt(i)); i++) {
    if (overflow) exponent++;
    else if (wouldOverflow(digits, raw[i])) {
      overflow = true;
      exponent++;
    } else digits = digits === '0' ? raw[i] : digits + raw[i];
  }
  if (raw[i] === '.') {
    // parse_decimal checks every fraction digit again, even after the integer part overflowed.
    let fracOverflow = false;
    for (i++; i < raw.length && isDigit(raw.charCodeAt(i)); i++) {
      if (fracOverflow) continue;
      if (wouldOverflow(digits, raw[i])) fracOverflow = true;
      else {
        digits = digits === '0' ? raw[i] : digits + raw[i];
        exponent--;
      }
    }
  }
  if (raw[i] === 'e' || raw[i] === 'E') {
    const expText = raw.slice(i + 1);
    const expNeg = expText[0] === '-';
    const expDigits = expText.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
    if (expDigits.length > 10 || Number(expDigits) > 2147483647) {
      // serde_json's parse_exponent_overflow: infinity is an error, a huge negative exponent gives zero.
      if (!/^0*$/.test(digits) && !expNeg) throw new NumberRangeError('number out of range');
      return neg ? -0 : 0;
    }
    exponent = saturate(expNeg ? exponent - Number(expDigits) : exponent + Number(expDigits));
  }
  const f = fromParts(digits === '' ? '0' : digits, exponent);
  return neg ? -f : f;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** True when significand * 10 + digit would exceed u64::MAX (serde_json's `overflow!`). */
function wouldOverflow(digits: string, digit: string): boolean {
  if (digits.length < 19 || digits === '0') return false;
  if (digits.length > 19) return true;
  return digits + digit > U64_MAX;
}

function saturate(x: number): number {
  return Math.max(-2147483648, Math.min(2147483647, x));
}

/** serde_json's `f64_from_parts` for a non-negative significand (decimal digits) and a base-10 exponent. */
function fromParts(digits: string, exponent: number): number {
  // `significand as f64` rounds to nearest, ties to even; Number() of a decimal integer string does the same.
  let f = digits.length <= 15 ? Number(digits) : Number(BigInt(digits));
  for (;;) {
    const abs = Math.abs(exponent);
    if (abs < POW10.length) {
      if (exponent >= 0) {
        f *= POW10[abs];
        if (!Number.isFinite(f)) throw new NumberRangeError('number out of range');
      } else f /= POW10[abs];
      return f;
    }
    if (f === 0) return f;
    if (exponent >= 0) throw new NumberRangeError('number out of range');
    f /= 1e308;
    exponent += 308;
  }
}

/**
 * Writes a finite f64 in the layout of the ryu crate's `format64` (what serde_json's float serializer prints):
 * `1.0`, `1e16`, `1e-7`, `0.0001`, `-0.0`, `1.5e300`. Non-finite values are written as `null`, as serde_json does.
 */
export function formatF64(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, as ryu does.
  const e = Math.abs(x).toExponential();
  const at = e.indexOf('e');
  const d = e.slice(0, at).replace('.', '');
  const kk = Number(e.slice(at + 1)) + 1; // the value is 0.d × 10^kk
  const len = d.length;
  const k = kk - len;
  if (k >= 0 && kk <= 16) return `${sign}${d}${'0'.repeat(k)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${d.slice(0, kk)}.${d.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${d}`;
  const exp = kk - 1;
  return len === 1 ? `${sign}${d}e${exp}` : `${sign}${d[0]}.${d.slice(1)}e${exp}`;
}

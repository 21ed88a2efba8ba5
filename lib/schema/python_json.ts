/**
 * A serializer that writes exactly what Python's `json.dumps(value, sort_keys=True)`
 * writes with its default options (`ensure_ascii=True`, separators `", "` and
 * `": "`), and the code-point string order Python's `sorted()` uses. The schema
 * hash of the seed depends on these bytes, so they are the contract.
 *
 * Numbers: jn hashes what `JSON.parse` leaves of a number, while Python reads
 * its spelling. The SDK parses every message before jn sees it, so the
 * spelling is gone and this edge cannot be matched. Every integer-valued
 * number prints as an int (all digits, never an exponent), every other one as
 * Python's `repr(float)`, so exactly these spellings hash unlike the seed:
 *
 * - an integral value spelled with a fraction or an exponent: `1.0`, `1e3`,
 *   `1E+2`, `2.50e1` (Python `1.0`, `1000.0`, `100.0`, `25.0`; jn `1`,
 *   `1000`, `100`, `25`), also with more digits than a double holds
 *   (`1.00000000000000001`: Python `1.0`, jn `1`);
 * - negative zero `-0.0` (Python `-0.0`, jn `0`);
 * - such a float from 1e16 on: `1e16` (Python `1e+16`, jn `10000000000000000`);
 * - an integer beyond 2^53: `12345678901234567890` (Python exact, jn
 *   `12345678901234567168`).
 *
 * Numbers reach the hash only through malformed schemas (a numeric `type`,
 * numbers in `required`), so a real server's hash is not affected.
 * tests/schema/hash_test.ts runs these cases against Python.
 *
 * @module
 */

/**
 * Compares two strings by code point, as Python compares `str`. JavaScript's
 * default comparison uses UTF-16 code units, which orders an astral character
 * (a surrogate pair, 0xD800–0xDBFF) before a BMP character in 0xE000–0xFFFF;
 * Python orders it after.
 */
export function comparePython(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  const restA = a.length - i;
  const restB = b.length - j;
  return restA === restB ? 0 : restA < restB ? -1 : 1;
}

/** Serialises `value` byte-for-byte like Python's `json.dumps(value, sort_keys=True)`. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return pythonNumber(value);
    case "bigint":
      return value.toString();
    case "string":
      return pythonString(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => pythonJsonDumps(v)).join(", ")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => comparePython(a, b));
      return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
    }
    default:
      throw new TypeError(`Cannot serialise a value of type "${typeof value}" as JSON`);
  }
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/**
 * Python's `py_encode_basestring_ascii`: everything outside printable ASCII
 * (0x20–0x7E) is escaped. Escaping each UTF-16 code unit on its own yields the
 * surrogate pairs Python writes for astral characters, and lone surrogates
 * come out as Python writes them too. `/` is not escaped.
 */
function pythonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) {
      out += short;
      continue;
    }
    const code = s.charCodeAt(i);
    out += code >= 0x20 && code <= 0x7e ? ch : `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return out + '"';
}

function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "Infinity";
  if (n === -Infinity) return "-Infinity";
  if (Number.isInteger(n)) return BigInt(n).toString();
  return pythonFloatRepr(n);
}

/**
 * Python's `repr(float)`: the shortest round-trip digits (which JavaScript's
 * `toExponential()` also yields), in positional notation when the decimal
 * exponent lies in [-4, 16), otherwise as `d.ddde±XX`; positional numbers
 * always carry a fractional part (`2.0`).
 */
export function pythonFloatRepr(n: number): string {
  if (!Number.isFinite(n)) return pythonNumber(n);
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const sign = n < 0 ? "-" : "";
  const [mantissa, exponent] = Math.abs(n).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(exponent);
  const point = exp + 1; // digits are 0.DIGITS × 10^point
  if (point <= -4 || point > 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exp < 0 ? "-" : "+";
    return `${sign}${digits[0]}${frac}e${expSign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

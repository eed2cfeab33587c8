// @ts-check
// Exact JSON, as the server's Python reads and writes it (docs/spec/events.md "Canonical encoding").
//
// JSON.parse is not enough for a verifier: it turns 3.0 into 3 and rounds integers past 2^53, so a bundle
// edited that way would hash as if it were untouched. This parser keeps what Python's decoder sees:
//   - an integer is a Number when it is safe, else a BigInt (Python ints have no limit);
//   - a number with a fraction or exponent is a PyFloat (Python float), kept apart from integers;
// and canonical() writes the bytes msgspec writes (keys sorted by code point, no whitespace, non-ASCII
// as itself, floats as msgspec prints them), so SHA-256 over them is the server's hash.

/** A JSON number with a fraction or an exponent: a Python float, kept apart from the integers. */
export class PyFloat {
  /** @param {number} value */
  constructor(value) {
    this.value = value;
  }
}

export class JsonError extends Error {}

const WS = new Set([" ", "\t", "\n", "\r"]);

/**
 * Parse JSON text. Throws JsonError with the offset on anything Python's msgspec would refuse.
 * @param {string} text
 * @returns {any} the value (objects, arrays, strings, booleans, null, numbers, BigInts and PyFloats): its reader
 *   says what shape it expects
 */
export function parse(text) {
  let i = 0;
  /** @param {string} what @returns {never} */
  const fail = (what) => {
    throw new JsonError(`${what} at character ${i}`);
  };
  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  /** @returns {unknown} */
  function item() {
    skip();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return string();
    if (c === "-" || (c >= "0" && c <= "9")) return number();
    if (text.startsWith("true", i)) return ((i += 4), true);
    if (text.startsWith("false", i)) return ((i += 5), false);
    if (text.startsWith("null", i)) return ((i += 4), null);
    return fail(c === undefined ? "unexpected end of the text" : `unexpected ${JSON.stringify(c)}`);
  }
  function object() {
    i++;
    /** @type {Record<string, unknown>} */
    const out = {};
    skip();
    if (text[i] === "}") return (i++, out);
    for (;;) {
      skip();
      if (text[i] !== '"') fail("expected a key");
      const key = string();
      skip();
      if (text[i] !== ":") fail("expected ':'");
      i++;
      // defineProperty: a key named __proto__ is data like any other, and the last duplicate wins as in Python
      Object.defineProperty(out, key, { value: item(), enumerable: true, writable: true, configurable: true });
      skip();
      if (text[i] === ",") i++;
      else if (text[i] === "}") return (i++, out);
      else fail("expected ',' or '}'");
    }
  }
  function array() {
    i++;
    /** @type {unknown[]} */
    const out = [];
    skip();
    if (text[i] === "]") return (i++, out);
    for (;;) {
      out.push(item());
      skip();
      if (text[i] === ",") i++;
      else if (text[i] === "]") return (i++, out);
      else fail("expected ',' or ']'");
    }
  }
  function string() {
    i++;
    let out = "";
    let start = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail("unterminated string");
      if (c === 0x22) {
        out += text.slice(start, i++);
        return checkSurrogates(out);
      }
      if (c < 0x20) fail("a control character inside a string");
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        /** @type {Record<string, string>} */
        const escapes = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        const simple = escapes[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("a bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else fail("a bad escape");
        start = i;
      } else i++;
    }
  }
  /** @param {string} s */
  function checkSurrogates(s) {
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = s.charCodeAt(j + 1);
        if (!(d >= 0xdc00 && d <= 0xdfff)) fail("a lone UTF-16 surrogate in a string");
        j++;
      } else if (c >= 0xdc00 && c <= 0xdfff) fail("a lone UTF-16 surrogate in a string");
    }
    return s;
  }
  function number() {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) fail("a bad number");
    i += m[0].length;
    if (m[2] === undefined && m[3] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? (Object.is(n, -0) ? 0 : n) : BigInt(m[0]);
    }
    const f = Number(m[0]);
    if (!Number.isFinite(f)) fail("a number out of range");
    return new PyFloat(f);
  }
  const out = item();
  skip();
  if (i !== text.length) fail("text after the JSON value");
  return out;
}

/** Code-point order (Python's str order); JavaScript's default sort compares UTF-16 units.
 * @param {string} a @param {string} b */
export function compareKeys(a, b) {
  const x = [...a];
  const y = [...b];
  for (let j = 0; j < Math.min(x.length, y.length); j++) {
    const d = Number(x[j].codePointAt(0)) - Number(y[j].codePointAt(0));
    if (d) return d;
  }
  return x.length - y.length;
}

/** @type {Record<string, string>} */
const ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** @param {string} s */
function quote(s) {
  return (
    '"' +
    s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] || "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) +
    '"'
  );
}

/** A float as Python's repr (`sep` "+" and 2-digit exponents) or msgspec (no "+", no padding) prints it.
 * @param {number} x @param {"msgspec" | "python"} [style] */
export function formatFloat(x, style = "msgspec") {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant, expText] = Math.abs(x).toExponential().split("e"); // shortest digits that read back as x
  const digits = mant.replace(".", "");
  const e = Number(expText);
  let body;
  if (e >= (style === "python" ? -4 : -5) && e < 16) {
    if (e >= digits.length - 1) body = digits + "0".repeat(e - digits.length + 1) + ".0";
    else if (e >= 0) body = digits.slice(0, e + 1) + "." + digits.slice(e + 1);
    else body = "0." + "0".repeat(-e - 1) + digits;
  } else {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    const ex = style === "python" ? (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0") : String(e);
    body = m + "e" + ex;
  }
  return sign + body;
}

/** canonical(body) of docs/spec/events.md, as a string (UTF-8 encode it to hash).
 * @param {unknown} v @returns {string} */
export function canonical(v) {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return formatFloat(v);
    return String(v);
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return quote(v);
  if (v instanceof PyFloat) return formatFloat(v.value);
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (typeof v === "object") {
    const o = /** @type {Record<string, unknown>} */ (v);
    const keys = Object.keys(o).sort(compareKeys);
    return "{" + keys.map((k) => quote(k) + ":" + canonical(o[k])).join(",") + "}";
  }
  throw new TypeError(`cannot encode ${typeof v}`);
}

/** Readable JSON for people (indentation; big integers and floats as written).
 * @param {unknown} v @param {number} [indent] */
export function pretty(v, indent = 1) {
  /** @param {number} n */
  const pad = (n) => " ".repeat(n * indent);
  /** @param {unknown} x @param {number} depth @returns {string} */
  const walk = (x, depth) => {
    if (Array.isArray(x)) {
      if (!x.length) return "[]";
      if (x.every((y) => y === null || typeof y !== "object" || y instanceof PyFloat))
        return "[" + x.map((y) => walk(y, 0)).join(", ") + "]";
      return "[\n" + x.map((y) => pad(depth + 1) + walk(y, depth + 1)).join(",\n") + "\n" + pad(depth) + "]";
    }
    if (x && typeof x === "object" && !(x instanceof PyFloat)) {
      const o = /** @type {Record<string, unknown>} */ (x);
      const keys = Object.keys(o);
      if (!keys.length) return "{}";
      return (
        "{\n" +
        keys.map((k) => pad(depth + 1) + quote(k) + ": " + walk(o[k], depth + 1)).join(",\n") +
        "\n" +
        pad(depth) +
        "}"
      );
    }
    return canonical(x);
  };
  return walk(v, 0);
}

// ---- Python's equality and str(), where verify's checks compare values of any JSON type ----

/** @param {unknown} v @returns {number | bigint | undefined} */
function numeric(v) {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return v;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

/** Python's `a == b` for values decoded from JSON (1 == 1.0 == True; dicts by content).
 * @param {unknown} a @param {unknown} b @returns {boolean} */
export function pyEq(a, b) {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    if (typeof x === "bigint" || typeof y === "bigint") {
      const fx = typeof x === "bigint" ? x : Number.isInteger(x) ? BigInt(x) : null;
      const fy = typeof y === "bigint" ? y : Number.isInteger(y) ? BigInt(y) : null;
      return fx !== null && fy !== null && fx === fy;
    }
    return x === y;
  }
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, j) => pyEq(v, b[j]));
  }
  const oa = /** @type {Record<string, unknown>} */ (a);
  const ob = /** @type {Record<string, unknown>} */ (b);
  const ka = Object.keys(oa);
  const kb = Object.keys(ob);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && pyEq(oa[k], ob[k]));
}

/** Python's str(v) for a scalar (how an f-string would print it). @param {unknown} v */
export function pyStr(v) {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null) return "None";
  if (v instanceof PyFloat) return formatFloat(v.value, "python");
  return String(v);
}

/** A JSON object (not an array, not null). @param {unknown} v @returns {v is Record<string, any>} */
export function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat);
}

/** An int as Python sees it (bool is not one here: msgspec refuses true for an int field).
 * @param {unknown} v @returns {v is number | bigint} */
export function isInt(v) {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

// @ts-check
// SHA-256 and HMAC-SHA256: the browser's WebCrypto where the page may use it (https, localhost), else a
// small SHA-256 of our own (FIPS 180-4) so the desk still verifies when served over plain http on a LAN.
// Both give the same bytes; the tests run the spec's vectors through each.

const subtle = globalThis.crypto && globalThis.crypto.subtle;
/** @type {string | null} */
let forced = null; // "js" to use our own even where WebCrypto exists (tests, or a referee who prefers it)

export function engineName() {
  return useWebCrypto() ? "WebCrypto" : "built-in JavaScript SHA-256";
}

/** @param {"js" | null} name */
export function forceEngine(name) {
  forced = name;
}

function useWebCrypto() {
  return subtle && forced !== "js";
}

/** @typedef {Uint8Array<ArrayBuffer>} Bytes bytes in memory of their own (what WebCrypto takes) */

const enc = new TextEncoder();

/** @param {string} s */
export function utf8(s) {
  return enc.encode(s);
}

/** @param {Bytes} bytes */
export function hex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** @param {string} h */
export function unhex(h) {
  if (!/^([0-9a-fA-F]{2})*$/.test(h)) throw new Error(`not hex: ${h.slice(0, 20)}`);
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16);
  return out;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** @param {Bytes} bytes @returns {Promise<Bytes>} */
export async function sha256(bytes) {
  if (useWebCrypto()) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return jsSha256(bytes);
}

/** A key for many HMACs (a game seed signs every block of every roll). */
/**
 * @typedef {{sign: (msg: Bytes) => Promise<Bytes>}} HmacKey
 * @param {Bytes} keyBytes
 * @returns {Promise<HmacKey>}
 */
export async function hmacKey(keyBytes) {
  if (useWebCrypto()) {
    const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return { sign: async (msg) => new Uint8Array(await subtle.sign("HMAC", key, msg)) };
  }
  return { sign: async (msg) => jsHmac(keyBytes, msg) };
}

/** @param {Bytes} keyBytes @param {Bytes} msgBytes */
export async function hmac(keyBytes, msgBytes) {
  return (await hmacKey(keyBytes)).sign(msgBytes);
}

// ---- SHA-256 in JavaScript ----

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** FIPS 180-4 SHA-256. @param {Bytes} msg */
export function jsSha256(msg) {
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const bitLen = msg.length * 8;
  const padded = new Uint8Array(Math.ceil((msg.length + 9) / 64) * 64);
  padded.set(msg);
  padded[msg.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const w = new Uint32Array(64);
  /** @param {number} x @param {number} n */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  h.forEach((x, i) => ov.setUint32(i * 4, x));
  return out;
}

/** RFC 2104 HMAC-SHA256 over jsSha256. @param {Bytes} key @param {Bytes} msg */
export function jsHmac(key, msg) {
  const k = key.length > 64 ? jsSha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const ipad = block.map((b) => b ^ 0x36);
  const opad = block.map((b) => b ^ 0x5c);
  return jsSha256(concat(opad, jsSha256(concat(ipad, msg))));
}

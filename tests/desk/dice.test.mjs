// The desk's umpire1 dice (service/desk/js/umpire1.js) against the spec's vectors (tests/dice_vectors.json), through
// both SHA-256 engines: WebCrypto (node's) and the desk's own JavaScript SHA-256 (what a page served over plain http
// uses). Run by tests/test_desk_units.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { forceEngine, hex, hmac, jsSha256, sha256, utf8 } from "../../service/desk/js/crypto.js";
import { parse } from "../../service/desk/js/json.js";
import { runVectors } from "../../service/desk/js/selftest.js";
import { applyShuffle, blockMessage, roller, seedMessage, shuffleSides } from "../../service/desk/js/umpire1.js";

const VECTORS = parse(readFileSync(new URL("../dice_vectors.json", import.meta.url), "utf8"));

for (const engine of ["webcrypto", "js"]) {
  test(`every dice vector, the 20,000-roll digest included, with the ${engine} engine`, async () => {
    forceEngine(engine === "js" ? "js" : null);
    try {
      const results = await runVectors(VECTORS, { digest: true });
      assert.equal(results.length, 6 + VECTORS.rolls.length);
      for (const r of results) assert.ok(r.ok, `${r.name}: got ${JSON.stringify(r.got)}, want ${JSON.stringify(r.want)}`);
    } finally {
      forceEngine(null);
    }
  });
}

test("SHA-256 and HMAC: FIPS 180-4 and RFC 4231 vectors, the JavaScript engine agreeing with WebCrypto", async () => {
  assert.equal(hex(jsSha256(utf8("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(hex(jsSha256(utf8(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const key = new Uint8Array(20).fill(0x0b); // RFC 4231 test case 1
  const want = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
  assert.equal(hex(await hmac(key, utf8("Hi There"))), want);
  forceEngine("js");
  try {
    assert.equal(hex(await hmac(key, utf8("Hi There"))), want);
    for (const n of [0, 55, 56, 63, 64, 65, 1000]) {
      const msg = new Uint8Array(n).map((_, i) => (i * 7) & 0xff);
      assert.equal(hex(await sha256(msg)), hex(new Uint8Array(await crypto.subtle.digest("SHA-256", msg))), `${n} bytes`);
    }
  } finally {
    forceEngine(null);
  }
});

test("the messages HMACed are the spec's (docs/spec/dice.md, Derivation 1 and 2)", () => {
  assert.equal(seedMessage("g1", ["a", "b"], null), "umpire1:seed:g1:a:b");
  assert.equal(seedMessage("g1", [], "beacon"), "umpire1:seed:g1:beacon");
  assert.equal(blockMessage(12, 0), "umpire1:roll:12:0");
});

test("a shuffle takes n-1 dice, d(n) down to d2, and swaps from the top", () => {
  assert.deepEqual(shuffleSides(4), [4, 3, 2]);
  assert.deepEqual(shuffleSides(1), []);
  assert.deepEqual(applyShuffle(["a", "b", "c"], [1, 1]), ["b", "c", "a"]); // i=2 <-> 0: c b a; then i=1 <-> 0
  assert.deepEqual(applyShuffle(["a", "b", "c"], [3, 2]), ["a", "b", "c"]); // each swaps with itself
  assert.throws(() => applyShuffle(["a", "b", "c"], [1]), RangeError);
});

test("a die has 1 to 2^32 sides: anything else is refused before a block is read", async () => {
  const roll = await roller(new Uint8Array(32));
  await assert.rejects(roll.faces(0, [0]), RangeError);
  await assert.rejects(roll.faces(0, [2 ** 32 + 1]), RangeError);
  const trace = [];
  const [face] = await roll.faces(0, [2 ** 32], trace); // every lane accepted: the face is the lane + 1
  assert.equal(face, trace[0].lanes[0].x + 1);
});

// The desk's checks (service/desk/js/verify.js) name what `umpire verify` names (service/replay.py): the same status
// and first bad seq and roll for the chain, the dice and the sealed inputs, on a golden bundle and on tampered ones
// (cases in $DESK_CASES, each with Python's report, written by tests/test_desk_units.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { PyFloat, parse } from "../../service/desk/js/json.js";
import { bundleError, diffValues, holdsFloat, publicForm, seqRuns, verifyAll } from "../../service/desk/js/verify.js";

const CASES = JSON.parse(readFileSync(process.env.DESK_CASES, "utf8"));
const plain = (v) => (v instanceof PyFloat ? v.value : typeof v === "bigint" ? Number(v) : (v ?? null));
const pick = (c) => ({ status: c.status, first_bad_seq: plain(c.first_bad_seq), first_bad_k: plain(c.first_bad_k) });

/** What the desk concludes of a bundle's text, in the shape of tests/desk_browser.py's python_checks. */
async function deskChecks(text) {
  let b;
  try {
    b = parse(text);
  } catch {
    return { format: true };
  }
  if (bundleError(b)) return { format: true };
  const r = await verifyAll(b, () => null);
  const checks = { chain: pick(r.chain), dice: pick(r.dice), sealed: pick(r.sealed) };
  return r.parent ? { parent: pick(r.parent), ...checks } : checks;
}

test("a golden bundle, and tampered ones, judged as umpire verify judges them", async () => {
  assert.ok(CASES.verify.length >= 20);
  const golden = CASES.verify[0];
  assert.deepEqual(await deskChecks(golden.text), golden.python);
  assert.equal(golden.python.chain.status, "pass");
  assert.equal(golden.python.dice.status, "pass");
  const disagree = [];
  for (const c of CASES.verify) {
    const have = await deskChecks(c.text);
    if (JSON.stringify(have) !== JSON.stringify(c.python)) disagree.push({ what: c.what, python: c.python, have });
  }
  assert.deepEqual(disagree, []);
  // the tampering is caught: most cases fail a check the desk makes (an edited command is the replay's to catch)
  const caught = CASES.verify.filter((c) => c.python.format || Object.values(c.python).some((x) => x.status === "fail"));
  assert.ok(caught.length > CASES.verify.length / 2, `${caught.length} of ${CASES.verify.length} caught`);
});

test("the chain check and a failing one say what they found in the words umpire verify uses", async () => {
  assert.ok(CASES.worded.length >= 3);
  for (const c of CASES.worded) {
    const r = await verifyAll(parse(c.text), () => null);
    assert.ok(Object.keys(c.python).some((name) => r[name].detail.includes(c.says)), `${c.what}: ${c.says}`);
    for (const [name, python] of Object.entries(c.python)) {
      const have = r[name];
      assert.deepEqual(
        { status: have.status, detail: have.detail, ...pick(have) },
        { status: python.status, detail: python.detail, ...pick(python) },
        `${c.what}: ${name}`,
      );
    }
  }
});

test("the public form of a bundle with nothing sealed is the bundle itself", () => {
  const b = parse(CASES.verify[0].text);
  assert.equal(publicForm(b), b);
});

test("diffValues names the paths that differ, <absent> for a missing key", () => {
  assert.deepEqual(diffValues({ a: 1, b: [1, 2], c: { d: "x" } }, { a: 1, b: [1, 3], e: 0 }), [
    { path: "b[1]", a: 2, b: 3 },
    { path: "c", a: { d: "x" }, b: "<absent>" },
    { path: "e", a: "<absent>", b: 0 },
  ]);
});

test("holdsFloat finds a float anywhere in a body, as events/canonical.py holds_float does, at any size", () => {
  assert.equal(holdsFloat(parse('{"seq":1,"data":{"n":2,"list":[1,[2,{"x":3}]]}}')), false);
  for (const text of ['{"data":{"n":2.0}}', '{"data":[1,[2,{"x":1e16}]]}', '{"data":{"x":-0.5}}']) {
    assert.equal(holdsFloat(parse(text)), true, text);
  }
  const big = { data: { list: Array.from({ length: 300_000 }, (_, i) => i) } }; // a spread of it overflowed the stack
  assert.equal(holdsFloat(big), false);
  big.data.list.push(new PyFloat(0.5));
  assert.equal(holdsFloat(big), true);
});

test("seqRuns writes ascending seqs as runs, as service/replay.py _seqs does", () => {
  assert.equal(seqRuns([3, 4, 20, 21, 23, 24, 29, 30, 31, 32, 58]), "seqs 3–4, 20–21, 23–24, 29–32, 58");
  assert.equal(seqRuns([7]), "seq 7");
});

// The desk's exact JSON (service/desk/js/json.js): its canonical bytes are the server's (events/canonical.py) on
// random values the Python side made (cases in $DESK_CASES, written by tests/test_desk_units.py), it refuses what
// msgspec refuses, and it keeps integers past 2^53 and floats as Python reads them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { hex, utf8 } from "../../service/desk/js/crypto.js";
import { PyFloat, canonical, formatFloat, parse, pretty, pyEq, pyStr } from "../../service/desk/js/json.js";

const CASES = JSON.parse(readFileSync(process.env.DESK_CASES, "utf8"));

test("canonical bytes are the server's, on random JSON (key order by code point, escapes, big ints, floats)", () => {
  assert.ok(CASES.canonical.length >= 100);
  for (const [text, want] of CASES.canonical) assert.equal(hex(utf8(canonical(parse(text)))), want, text);
});

test("what msgspec refuses, the desk's parser refuses", () => {
  assert.ok(CASES.refused.length > 0);
  for (const text of CASES.refused) assert.throws(() => parse(text), undefined, text);
});

test("numbers are read as Python reads them: ints exact past 2^53, floats kept apart from ints", () => {
  assert.equal(parse("9007199254740993"), 9007199254740993n);
  assert.equal(parse("-0"), 0);
  assert.ok(parse("3.0") instanceof PyFloat);
  assert.equal(canonical(parse("[3.0, 3, 1e16, 1e-6]")), "[3.0,3,1e16,1e-6]");
  assert.equal(formatFloat(1e16, "python"), "1e+16");
  assert.equal(formatFloat(0.0001, "python"), "0.0001");
  assert.equal(formatFloat(0.00001, "python"), "1e-05");
});

test("a key named __proto__ is data, and the last duplicate wins", () => {
  const v = parse('{"__proto__": 1, "a": 1, "a": 2}');
  assert.equal(canonical(v), '{"__proto__":1,"a":2}');
});

test("Python's == and str() where the checks compare values of any JSON type", () => {
  assert.ok(pyEq(1, parse("1.0")) && pyEq(true, 1) && pyEq(parse('{"a": [1]}'), parse('{"a": [1.0]}')));
  assert.ok(!pyEq("1", 1) && !pyEq([1], [1, 2]) && !pyEq(2n ** 60n + 1n, 2 ** 60) && pyEq(2n ** 60n, 2 ** 60));
  assert.deepEqual([true, null, parse("2.50")].map(pyStr), ["True", "None", "2.5"]);
  assert.equal(pretty(parse('{"b": [1, 2], "a": {"c": null}}')), '{\n "b": [1, 2],\n "a": {\n  "c": null\n }\n}');
});

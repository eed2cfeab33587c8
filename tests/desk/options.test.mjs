// The lobby's option fields (service/desk/js/options.js) on the four rulesets' options schemas, as GET
// /rulesets/{id} serves them (cases in $DESK_CASES, written by tests/test_desk_units.py): which options get a field
// and of what kind, what a field shows, and the options a field's entry leaves in the JSON box.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { optionFields, shown, withOption } from "../../service/desk/js/options.js";

const SCHEMAS = JSON.parse(readFileSync(process.env.DESK_CASES, "utf8")).options_schemas;
const fieldsOf = (id) => Object.fromEntries(optionFields(SCHEMAS[id]).map((f) => [f.key, f]));

test("each option of one value gets a field of its kind; a data set or a setup by zone is JSON only", () => {
  const kinds = (id) => Object.fromEntries(optionFields(SCHEMAS[id]).map((f) => [f.key, f.kind]));
  assert.deepEqual(kinds("corvette-command"), {
    year: "number", month: "number", end_year: "number", end_month: "number", convoys: "number",
    radar_hfdf_operators: "yes-no", time_of_contact: "yes-no", revised_map: "yes-no", two_player: "yes-no",
    data_file: "text",
  });
  assert.deepEqual(kinds("aa1942-convoy"), { rounds: "number", setup: "one-of" });
  assert.deepEqual(kinds("battlefleet-1900"), { scenario: "text", fog: "one-of", turns: "number", read_message_rolls: "yes-no" });
  assert.deepEqual(kinds("uboat-leader"), { campaign: "text", duration: "one-of", data_file: "text" });
  const bf = fieldsOf("battlefleet-1900");
  assert.deepEqual([bf.turns.min, bf.turns.max, bf.turns.default], [1, 60, 12]);
  assert.deepEqual(bf.fog.choices, ["blur", "open"]);
  assert.ok(bf.scenario.examples.includes("yellow-sea-1904"));
  assert.match(fieldsOf("corvette-command").two_player.description, /two escorts/);
});

test("a field shows the option as set, else its default; null and no default show empty", () => {
  const cc = fieldsOf("corvette-command");
  assert.equal(shown({}, cc.two_player), false);
  assert.equal(shown({ two_player: true }, cc.two_player), true);
  assert.equal(shown({}, cc.year), "1941");
  assert.equal(shown({ convoys: 1 }, cc.convoys), "1");
  assert.equal(shown({}, cc.convoys), ""); // null: at the end date
  assert.equal(shown({}, fieldsOf("aa1942-convoy").setup), ""); // the ruleset fills it in (AA-R16)
});

test("a field writes its option, and leaves it out at its default (each one left out takes its default)", () => {
  const cc = fieldsOf("corvette-command");
  assert.deepEqual(withOption({ convoys: 1 }, cc.two_player, true), { convoys: 1, two_player: true });
  assert.deepEqual(withOption({ convoys: 1, two_player: true }, cc.two_player, false), { convoys: 1 });
  assert.deepEqual(withOption({ convoys: 1 }, cc.convoys, "3"), { convoys: 3 });
  assert.deepEqual(withOption({ convoys: 1 }, cc.convoys, ""), {}); // empty: null, its default
  assert.deepEqual(withOption({}, cc.year, "1942"), { year: 1942 });
  assert.deepEqual(withOption({ year: 1942 }, cc.year, "1941"), {});
  const aa = fieldsOf("aa1942-convoy");
  assert.deepEqual(withOption({ rounds: 1 }, aa.setup, "empty"), { rounds: 1, setup: "empty" });
  assert.deepEqual(withOption({ rounds: 1, setup: "empty" }, aa.setup, ""), { rounds: 1 });
  const bf = fieldsOf("battlefleet-1900");
  assert.deepEqual(withOption({ scenario: "yellow-sea-1904" }, bf.scenario, "torpedo-attack"), { scenario: "torpedo-attack" });
  assert.deepEqual(withOption({}, bf.fog, "open"), { fog: "open" });
  // what the box holds beside the field stays as typed (a data set of one's own)
  assert.deepEqual(withOption({ data: { x: 1 } }, bf.turns, "6"), { data: { x: 1 }, turns: 6 });
});

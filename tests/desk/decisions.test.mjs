// The desk's copy of the client's decision helpers (service/desk/js/client/decisions.js, made from openapi/client-ts):
// what a Battlefleet move form refuses before it is sent.
import assert from "node:assert/strict";
import { test } from "node:test";

import { initial, irrevocable, problem, turnsNeed } from "../../service/desk/js/client/decisions.js";

// Mikasa under a 90° arrow to starboard, 69-115 mm this turn, on a 70 mm circle (a frontend trial's refused move)
const J1 = {
  division: "J1", lead: "Mikasa", ships: ["Mikasa"], pose: { x: 0, y: 0, h: 0 }, stop: false,
  distance_mm: { min: 110, max: 115 },
  turns: [{ arrow: 90, to: "starboard", min_deg: 90, max_deg: 180 }],
  turns_need: { base_mm: 0, radius_mm: 70 },
};
const ui = { kind: "move", divisions: [J1] };
const draft = (distance_mm, deg) => ({ kind: "move", divisions: [{ distance_mm, turns_deg: [deg] }] });

test("BF-R5: a larger turn needs more distance, and the form says so before sending", () => {
  assert.equal(turnsNeed(J1, [90]), 110); // 90° of arc on a 70 mm circle, rounded up
  assert.equal(turnsNeed(J1, [135]), 115); // more than the allowance: all of it (2.1, the turn cut short)
  assert.equal(turnsNeed(J1, [0]), 0);
  assert.equal(turnsNeed({ ...J1, turns_need: null }, [180]), 0);
  assert.equal(problem(ui, draft(110, 90)), null);
  assert.match(problem(ui, draft(110, 180)), /J1: its turns need at least 115 mm/);
  assert.equal(problem(ui, draft(115, 180)), null);
  assert.equal(problem(ui, draft(null, 180)), null); // distance left out: the rules raise it to what the turns need
  assert.match(problem(ui, draft(109, null)), /110-115 mm/); // below the range itself, whatever the turns
});

test("an arrow's band to port takes the turn's size whatever its sign, as the server does (a frontend trial)", () => {
  const port = { ...J1, turns: [{ arrow: 45, to: "port", min_deg: 45, max_deg: 89 }], distance_mm: { min: 0, max: 115 } };
  const move = { kind: "move", divisions: [port] };
  assert.equal(problem(move, draft(115, -60)), null);
  assert.equal(problem(move, draft(115, 60)), null); // +60 to a port arrow: 60 to port, which the server accepts
  assert.match(problem(move, draft(115, 30)), /45-89/);
  // a starboard arrow's turn is positive only: the server refuses -90 there (BF-R5, rules/movement.py)
  assert.equal(problem(ui, draft(115, 90)), null);
  assert.match(problem(ui, draft(115, -90)), /90-180/);
});

test("a text's length counts characters as the server does (code points), not UTF-16 units", () => {
  const form = { kind: "form", controls: [{ kind: "text", name: "text", label: "message", min_length: 1, max_length: 3 }] };
  const text = (value) => [{ kind: "text", value }];
  assert.equal(problem(form, text("🚢🚢🚢")), null); // 3 characters, 6 UTF-16 units
  assert.match(problem(form, text("🚢🚢🚢🚢")), /at most 3 characters/);
  assert.match(problem(form, text("")), /at least 1 character/);
});

test("what a send picks in an irrevocable pick is named, wherever the pick sits in the form (BF-R13, 6.3)", () => {
  const strike = { kind: "pick", field: "surrender", label: "strike their colours (irrevocable)", irrevocable: true,
    options: [{ value: "Mikasa", label: "Mikasa" }, { value: "Fuji", label: "Fuji" }] };
  const routine = { kind: "pick", field: "drop_out", label: "drop out", options: [{ value: "Fuji", label: "Fuji" }] };
  const ui = { kind: "form", controls: [routine, { kind: "variants", label: "either", variants: [{ label: "a", controls: [strike] }] }] };
  assert.deepEqual(irrevocable(ui, { drop_out: ["Fuji"] }), []);
  assert.deepEqual(irrevocable(ui, { drop_out: ["Fuji"], surrender: [] }), []);
  assert.deepEqual(irrevocable(ui, { surrender: ["Mikasa", "Fuji"] }), ["strike their colours (irrevocable): Mikasa, Fuji"]);
  assert.deepEqual(irrevocable(null, { surrender: ["Mikasa"] }), []);
});

test("an irrevocable pick is read in the variant sent and in an item by its fixed arguments, and named once", () => {
  const pick = (irrevocable) => ({ kind: "pick", field: "ships", label: irrevocable ? "scuttle" : "repair", irrevocable,
    options: [{ value: "Mikasa", label: "Mikasa" }] });
  const ui = { kind: "form", controls: [{ kind: "variants", label: "what", variants: [
    { label: "scuttle", fixed: { act: "scuttle" }, controls: [pick(true)] },
    { label: "repair", fixed: { act: "repair" }, controls: [pick(false)] },
  ] }, { kind: "items", field: "crews", label: "crews", items: [
    { label: "Fuji", fixed: { ship: "Fuji" }, controls: [{ ...pick(true), field: "strike" }] },
  ] }] };
  assert.deepEqual(irrevocable(ui, { act: "repair", ships: ["Mikasa"] }), []);
  assert.deepEqual(irrevocable(ui, { act: "scuttle", ships: ["Mikasa"] }), ["scuttle: Mikasa"]);
  assert.deepEqual(irrevocable(ui, { crews: [{ ship: "Fuji", strike: ["Mikasa"] }] }), ["scuttle: Mikasa"]);
});

test("UL-30: a boat's move form starts where it is, on its side and in its area (a play trial: it surfaced unasked)", () => {
  const sides = (to) => [{ side: "submerged", speed: 1, to, off: false }, { side: "surfaced", speed: 2, to: ["L3", "M2", "M3"], off: false }];
  const ui = (to) => ({ kind: "sides", boats: [{ boat: "U-47", area: "M2", sides: sides(to) }] });
  assert.deepEqual(initial(ui(["L2", "M2", "S2"])), { kind: "sides", boat: "U-47", side: "submerged", to: "M2" });
  assert.deepEqual(initial(ui(["L2", "S2"])), { kind: "sides", boat: "U-47", side: "submerged", to: "L2" }); // may not stay
});

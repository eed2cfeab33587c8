// The desk's copy of the client's decision helpers (service/desk/js/client/decisions.js, made from openapi/client-ts):
// what a Battlefleet move form refuses before it is sent.
import assert from "node:assert/strict";
import { test } from "node:test";

import { problem, turnsNeed } from "../../service/desk/js/client/decisions.js";

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

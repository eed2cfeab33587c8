// The desk's pure drawing helpers: Battlefleet's table geometry (service/desk/js/pictures/bf-geometry.js, after
// domain/battlefleet_1900/geometry.py) and the per-ruleset registry (service/desk/js/pictures/index.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import * as geo from "../../service/desk/js/pictures/bf-geometry.js";
import { newGameOptions, orderedViews } from "../../service/desk/js/pictures/index.js";

const close = (a, b) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < 1e-9, `${a} vs ${b}`));

test("a base's corners and funnel from its bow, heading clockwise from north", () => {
  const east = { x: 100, y: 200, h: 90 };
  close(geo.point(east, 10, 0), [90, 200]); // 10 mm aft of a bow heading east
  close(geo.point(east, 0, 5), [100, 195]); // 5 mm to starboard: south
  const corners = geo.baseCorners({ x: 0, y: 0, h: 0 }, 40, 11); // half width floored, as geometry.base does
  [[-5, 0], [5, 0], [5, -40], [-5, -40]].forEach((p, i) => close(corners[i], p));
  close(geo.funnel({ x: 0, y: 0, h: 180 }, 15), [0, 15]);
});

test("arcs: port mirrors starboard; a sector's bearings come from the heading and half-degrees", () => {
  assert.deepEqual(geo.sided([[20, 90]], "port"), [[-90, -20]]);
  assert.deepEqual(geo.sided([[20, 90]], "starboard"), [[20, 90]]);
  const s = geo.sector([0, 0], 350, 0, 60, 100, 1000); // from 350° for 30°: across north
  assert.deepEqual([s.from, s.to, s.span], [350, 20, 30]);
  assert.equal(geo.sector([0, 0], 0, -360, 360, 10, 100).span, 360);
  assert.equal(geo.reach([5, 3, null, null], 250), 500);
  assert.equal(geo.reach([null, null], 250), 0);
});

test("frames keep the table's proportions and never go under the least width", () => {
  const f = geo.fit([[0, 0], [10, 10]], 5, [1800, 1200]);
  assert.equal(f.w, 600);
  assert.equal(f.h, 400);
  assert.equal(geo.viewBox(geo.frame(0, 0, 100, 50), 1200), "0 1150 100 50");
});

test("the registry: a ruleset's drawn views first, in its order; an unknown ruleset's sorted; no options", () => {
  assert.deepEqual(orderedViews("battlefleet-1900", ["phase", "zeta", "table", "alpha"]), ["table", "phase", "alpha", "zeta"]);
  assert.deepEqual(orderedViews("a-future-ruleset", ["b", "a"]), ["a", "b"]);
  assert.deepEqual(newGameOptions("a-future-ruleset"), {});
});

test("an odds figure in words: a category as shares, a quantity with its mean's 95% interval", async () => {
  const { caption } = await import("../../service/desk/js/pictures/histogram.js");
  assert.equal(
    caption({ shares: { japan: 30, russia: 62, drawn: 8 }, actual_label: "russia" }),
    "russia 62%, japan 30%, drawn 8% · the real game: russia",
  );
  const q = { median: 4, p25: 3, p75: 5, p5: 1, p95: 7, mean: 4.25, min: 0, max: 9, ci95: [3.9, 4.6] };
  assert.equal(
    caption(q),
    "median 4 · middle half 3 to 5 · 90% within 1 to 7 · mean 4.3 (95% interval 3.9 to 4.6) · range 0 to 9",
  );
});

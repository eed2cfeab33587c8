// @ts-check
// Battlefleet 1900: the table to scale (bases, land, the turn's markers, a chosen ship's gun and torpedo arcs), the
// ship log as a sheet, the gunnery log as a table, the phase (who owes, who has submitted).
// Geometry is in bf-geometry.js; the arcs come from the data set the game pinned (Game.dataSet, hash-checked).

import { errorText, h, put, s } from "../dom.js";
import { canonical } from "../json.js";
import * as geo from "./bf-geometry.js";

const SEAT_CLASS = ["seat0", "seat1", "seat2", "seat3"];
const seatClass = (ctx, seat) => SEAT_CLASS[Math.max(0, ctx.seats.indexOf(seat)) % SEAT_CLASS.length];
const words = (t) => String(t).replace(/_/g, " ");

function nowText(n) {
  const step = `turn ${n.turn}, ${words(n.step)} step`;
  return n.over ? `${step} · the battle is over${n.result ? `: ${words(n.result)}` : ""}` : step;
}

function legend(items) {
  return h(
    "div",
    { class: "legend" },
    items.map(([cls, text]) => [h("span", { class: `key ${cls}` }, ""), ` ${text}  `]),
  );
}

// ---- the table ----

const ZOOMS = [
  ["fleets", "the fleets"],
  ["ship", "the chosen ship's reach"],
  ["table", "the whole table"],
];

/**
 * What the reader chose on the table: the ship whose arcs are shown, the frame, the arcs ticked (label -> shown;
 * main guns and torpedoes until the reader chooses) and how far each ship reaches (for the chosen ship's frame).
 * @typedef {{ship: string | null, zoom: string | null, arcs: Record<string, boolean>, reachOf: Record<string, number>}} TableState
 * @typedef {import("./index.js").PictureContext} PictureContext
 */

/** @returns {TableState} */
function tableState() {
  return { ship: null, zoom: null, arcs: {}, reachOf: {} };
}

/**
 * The table to scale.
 * @param {any} d the table view
 * @param {PictureContext} ctx
 * @param {TableState} ui
 */
export function table(d, ctx, ui) {
  const fig = h("figure", { class: "picture bf-table" });
  const redraw = () => put(fig, drawTable(d, ctx, ui, redraw));
  redraw();
  return fig;
}

/**
 * @param {any} d
 * @param {PictureContext} ctx
 * @param {TableState} ui
 * @param {() => void} redraw
 */
function drawTable(d, ctx, ui, redraw) {
  const depth = d.bounds[1];
  const placed = d.bases.filter((b) => b.pose);
  const unseen = d.bases.filter((b) => !b.pose);
  const chosen = placed.find((b) => b.ship === ui.ship) || null;
  const zoom = ui.zoom === "ship" && !chosen ? "fleets" : ui.zoom || "fleets";
  const corners = placed.flatMap((b) => geo.baseCorners(b.pose, b.length, b.width));
  const markers = d.markers.length ? d.markers : publicMarkers(ctx);
  const marks = markers.map((m) => [m.x, m.y]);
  let f;
  if (zoom === "table" || !corners.length) f = geo.frame(0, 0, d.bounds[0], d.bounds[1]);
  else if (zoom === "ship") {
    const c = geo.funnel(chosen.pose, chosen.funnel);
    const r = ui.reachOf[chosen.ship] || 4 * d.bracket_mm;
    f = geo.fit([c], r + 40, d.bounds);
  } else f = geo.fit([...corners, ...marks], 120, d.bounds);
  const unitText = f.w / 95; // label size in mm: about 13 px across the picture
  const P = (p) => geo.toPicture(p, depth).join(",");
  const layers = [];
  // the table's edge and land
  layers.push(s("rect", { x: 0, y: 0, width: d.bounds[0], height: d.bounds[1], class: "bf-sea" }));
  for (const poly of d.land) layers.push(s("polygon", { points: poly.map(P).join(" "), class: "bf-land" }));
  // brackets round the chosen ship, and its arcs (drawn when the ship log and the data set arrive)
  const arcs = s("g", { id: "bf-arcs" });
  if (chosen) {
    const c = geo.toPicture(geo.funnel(chosen.pose, chosen.funnel), depth);
    for (let k = 1; k <= 4; k++) {
      layers.push(s("circle", { cx: c[0], cy: c[1], r: k * d.bracket_mm, class: "bf-bracket" }));
      layers.push(
        s("text", { x: c[0] + 4, y: c[1] - k * d.bracket_mm + unitText, class: "bf-note", "font-size": unitText * 0.8 }, `bracket ${k}`),
      );
    }
    layers.push(arcs);
  }
  // a move being planned (the Play page's ctx.moves, from `awaiting`'s ui): how far each division's lead may go
  // straight on, and the band each of its turns may take, out to that distance
  for (const m of ctx.moves || []) layers.push(moveLimits(m, depth, unitText));
  // the turn's markers: a line from the firer's funnel to where the estimate landed
  const poseOf = Object.fromEntries(placed.map((b) => [b.ship, b]));
  for (const m of markers) {
    const firer = poseOf[m.firer];
    const from = firer ? geo.toPicture(geo.funnel(firer.pose, firer.funnel), depth) : null;
    const at = geo.toPicture([m.x, m.y], depth);
    layers.push(
      s(
        "g",
        { class: `bf-marker ${m.outcome}`, dataset: { firer: m.firer, target: m.target } },
        s(
          "title",
          {},
          `${m.firer} at ${m.target}: ${m.outcome}, estimate landed here — the target's base from ${m.lead} to ${m.exit} mm` +
            (m.length ? `, ${m.length} mm funnel to funnel` : ""),
        ),
        from ? s("line", { x1: from[0], y1: from[1], x2: at[0], y2: at[1] }) : null,
        s("circle", { cx: at[0], cy: at[1], r: Math.max(6, f.w / 250) }),
      ),
    );
  }
  // the reader's own succession pivots still to pass
  for (const p of d.pivots) {
    for (const t of p.route) {
      const [x, y] = geo.toPicture([t.x, t.y], depth);
      const r = Math.max(5, f.w / 300);
      layers.push(
        s(
          "g",
          { class: "bf-pivot" },
          s("title", {}, `${p.ship}'s succession pivot: turns ${t.turns.join(", ")}°`),
          s("path", { d: `M${x - r},${y - r} L${x + r},${y + r} M${x - r},${y + r} L${x + r},${y - r}` }),
        ),
      );
    }
  }
  // the bases, to scale, at their poses
  for (const b of placed) {
    const pts = geo.baseCorners(b.pose, b.length, b.width);
    const bow = geo.toPicture(geo.point(b.pose, 0, 0), depth);
    const label = geo.toPicture(geo.point(b.pose, b.length / 2, b.width / 2 + unitText * 0.6), depth);
    const small = b.length < f.w / 100; // under ~12 px across: a ring marks where the (to-scale) base is
    const mid = geo.toPicture(geo.point(b.pose, b.length / 2, 0), depth); // a click anywhere near the base picks it
    layers.push(
      s(
        "g",
        {
          class: `bf-base ${seatClass(ctx, b.seat)} ${b.status} ${b.pose.exact ? "exact" : "sighted"} ${b === chosen ? "chosen" : ""}`,
          dataset: { ship: b.ship },
          onclick: () => {
            ui.ship = ui.ship === b.ship ? null : b.ship;
            redraw();
          },
        },
        s(
          "title",
          {},
          `${b.ship} (${b.seat}), ${words(b.status)}; bow at (${b.pose.x}, ${b.pose.y}) mm, heading ${b.pose.h}°` +
            (b.pose.exact ? "" : " — a sighting, not its exact pose") +
            ". Click to show its arcs.",
        ),
        s("circle", { cx: mid[0], cy: mid[1], r: Math.max(b.length / 2, f.w / 120), class: "hit-area" }),
        s("polygon", { points: pts.map(P).join(" "), dataset: { corners: canonical(pts.map((p) => p.map(Math.round))) } }),
        s("circle", { cx: bow[0], cy: bow[1], r: Math.max(1.5, f.w / 700), class: "bow" }),
        small ? s("circle", { cx: mid[0], cy: mid[1], r: f.w / 110, class: "locator" }) : null,
        s("text", { x: label[0], y: label[1], "font-size": unitText, class: "bf-name" }, b.ship),
      ),
    );
  }
  // a scale bar, a bracket long, in the frame's lower left corner
  const sb = [f.x + f.w * 0.03, depth - f.y - f.h * 0.04];
  const bar = f.w > 2 * d.bracket_mm ? d.bracket_mm : 100;
  layers.push(
    s(
      "g",
      { class: "bf-scale" },
      s("path", { d: `M${sb[0]},${sb[1] - unitText * 0.5} V${sb[1]} H${sb[0] + bar} V${sb[1] - unitText * 0.5}` }),
      s("text", { x: sb[0], y: sb[1] - unitText * 0.8, "font-size": unitText }, bar === d.bracket_mm ? `${bar} mm: one range bracket` : `${bar} mm`),
    ),
  );
  const svg = s(
    "svg",
    {
      viewBox: geo.viewBox(f, depth),
      class: "bf-svg",
      role: "img",
      "aria-label": "the table, to scale",
      preserveAspectRatio: "xMidYMid meet",
    },
    layers,
  );
  const list = h("div", { id: "bf-arc-list" });
  if (chosen) drawArcs(chosen, d, ctx, ui, arcs, list, depth, redraw);
  const controls = h(
    "div",
    { class: "bf-controls" },
    "Show ",
    ZOOMS.map(([id, text]) =>
      h(
        "button",
        {
          type: "button",
          class: zoom === id ? "active" : "secondary",
          disabled: id === "ship" && !chosen,
          dataset: { zoom: id },
          onclick: () => ((ui.zoom = id), redraw()),
        },
        text,
      ),
    ),
    h(
      "label",
      {},
      " · ship ",
      h(
        "select",
        {
          id: "bf-ship",
          onchange: (e) => ((ui.ship = e.target.value || null), redraw()),
        },
        h("option", { value: "" }, "none chosen"),
        placed.map((b) => h("option", { value: b.ship, selected: b === chosen }, `${b.ship} (${b.seat})`)),
      ),
    ),
  );
  const notes = [];
  if (unseen.length)
    notes.push(
      h(
        "p",
        { class: "notice", id: "bf-unseen" },
        `Not on this picture: ${unseen.map((b) => b.ship).join(", ")} — `,
        d.now.over
          ? "not in sight."
          : "their positions are hidden from this reader (fog); the referee's view shows every ship, a seat's view its own ships and its sightings.",
      ),
    );
  if (placed.some((b) => !b.pose.exact))
    notes.push(h("p", { class: "hint" }, "Dashed bases are sightings: where this reader saw the ship, not its exact pose."));
  return [
    controls,
    placed.length ? null : notes,
    svg,
    legend([
      [`bf-key ${SEAT_CLASS[0]}`, ctx.seats[0] || "first seat"],
      [`bf-key ${SEAT_CLASS[1]}`, ctx.seats[1] || "second seat"],
      ["bf-key hit", "hit marker"],
      ["bf-key splash", "splash (short or over)"],
      ["bf-key pivot", "succession pivot"],
      ["bf-key land", "land"],
    ]),
    placed.length ? notes : null,
    list,
    h(
      "figcaption",
      {},
      `${nowText(d.now)} · table ${d.bounds[0]} × ${d.bounds[1]} mm, north up · ${markers.length} marker(s) this turn · click a ship for its arcs`,
    ),
  ];
}

/** The turn's markers as the log shows them (SalvoMeasured events since the turn began, when the fog lets them be
 * public); the table view itself lists them only for the referee under fog. */
function publicMarkers(ctx) {
  const events = (ctx.game && ctx.game.events.slice(0, ctx.at)) || [];
  const out = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i].body;
    if (e.type === "TurnStarted") break;
    const m = e.type === "SalvoMeasured" ? e.data : null;
    if (m && Array.isArray(m.marker)) {
      out.unshift({ firer: m.firer, target: m.target, x: m.marker[0], y: m.marker[1], outcome: m.outcome, lead: m.lead, exit: m.exit });
    }
  }
  return out;
}

/** The arcs a ship has now: its lettered positions, its pattern guns' groups with a gun left, its tubes with
 * torpedoes left; each from the data set's arcs, out to what the weapon reaches. */
export function arcsOf(entry, data, bracketMm) {
  const out = [];
  for (const w of entry.weapons) {
    const r = geo.reach(w.pen, bracketMm);
    for (const p of w.positions) {
      const pos = data.positions[p.pos];
      if (!pos) continue;
      out.push({
        cat: w.cat,
        label: `${w.bore} ${p.pos}`,
        arcs: pos.arcs,
        r,
        live: !p.destroyed,
        why: p.destroyed ? "destroyed" : `${p.guns} gun(s)`,
      });
    }
    const groups = new Map();
    for (const g of w.guns) {
      const key = `${g.side} ${g.group}`;
      const n = groups.get(key) || { side: g.side, group: g.group, ok: 0, all: 0 };
      n.all += 1;
      if (g.status === "ok") n.ok += 1;
      groups.set(key, n);
    }
    for (const n of groups.values()) {
      out.push({
        cat: w.cat,
        label: `${w.bore} ${n.side} ${n.group}`,
        arcs: geo.sided([data.patterns[n.group]], n.side),
        r,
        live: n.ok > 0,
        why: `${n.ok} of ${n.all} gun(s) able`,
      });
    }
  }
  const cls = data.classes[entry.cls] || { torpedoes: [] };
  for (const t of entry.torpedoes) {
    const spec = (cls.torpedoes || []).find((x) => x.id === t.id) || {};
    out.push({
      cat: "torpedo",
      label: `${t.id} ${t.side ? `${t.side} ` : ""}(${t.pos})`,
      arcs: geo.sided(data.tube_arcs[t.pos] || [], t.side),
      r: spec.range_mm || 0,
      live: t.left > 0,
      why: `${t.left} torpedo(es) left`,
    });
  }
  return out;
}

/**
 * A ship's arcs on the table and in a list, from the ship log and the data set the game pinned.
 * @param {any} b the ship's base
 * @param {any} d the table view
 * @param {PictureContext} ctx
 * @param {TableState} ui
 * @param {Element} layer
 * @param {Element} list
 * @param {number} depth
 * @param {() => void} redraw
 */
async function drawArcs(b, d, ctx, ui, layer, list, depth, redraw) {
  put(list, h("p", { class: "loading" }, `drawing ${b.ship}'s arcs…`));
  let entry;
  let data;
  let from;
  try {
    if (!ctx.game) throw new Error("this page does not read the game's data set");
    const [log, set] = await Promise.all([ctx.view("ship-log"), ctx.game.dataSet()]);
    entry = log.ships.find((/** @type {any} */ x) => x.ship === b.ship);
    data = set.data;
    from = set.from;
  } catch (e) {
    put(list, h("p", { class: "notice" }, `No arcs: ${errorText(e)}`));
    return;
  }
  if (!entry) return put(list, h("p", { class: "notice" }, `${b.ship} is not in the ship log at this point.`));
  const arcs = arcsOf(entry, data, d.bracket_mm);
  const reachNow = Math.max(0, ...arcs.filter((a) => a.live).map((a) => a.r));
  if (ui.reachOf[b.ship] !== reachNow) {
    ui.reachOf[b.ship] = reachNow; // the "chosen ship's reach" frame now knows how far to look
    if (ui.zoom === "ship") return redraw();
  }
  const centre = geo.funnel(b.pose, b.funnel);
  const shown = ui.arcs;
  const rows = [];
  for (const a of arcs) {
    const on = shown[a.label] ?? (a.cat === "main" || a.cat === "torpedo");
    const paths = a.arcs.map(([x, y]) => {
      const sec = geo.sector(centre, b.pose.h, x, y, a.r, depth);
      return [
        sec,
        s(
          "path",
          {
            d: sec.d,
            class: `bf-arc ${a.cat} ${a.live ? "live" : "dead"}`,
            display: on ? null : "none",
            dataset: { label: a.label, from: sec.from, span: sec.span, r: a.r },
          },
          s("title", {}, `${a.label}: ${sec.span}° from bearing ${sec.from}°, out to ${a.r} mm (${a.why})`),
        ),
      ];
    });
    layer.append(...paths.map(([, p]) => p));
    const box = h("input", {
      type: "checkbox",
      checked: on,
      "aria-label": `show ${a.label}`,
      onchange: (e) => {
        shown[a.label] = e.target.checked;
        for (const [, p] of paths) p.setAttribute("display", e.target.checked ? "inline" : "none");
      },
    });
    rows.push(
      h(
        "tr",
        { class: a.live ? "" : "muted", dataset: { label: a.label } },
        h("td", {}, h("label", {}, box, " ", h("span", { class: `key bf-key ${a.cat}` }, ""), ` ${a.label}`)),
        h("td", {}, words(a.cat)),
        h("td", { class: "num" }, paths.map(([sec]) => `${sec.span}°`).join(" + ")),
        h("td", { class: "num" }, paths.map(([sec]) => `${sec.from}° → ${sec.to}°`).join(", ")),
        h("td", { class: "num" }, a.r ? `${a.r} mm` : "—"),
        h("td", {}, a.why),
      ),
    );
  }
  put(
    list,
    h(
      "table",
      { class: "grid small", id: "bf-arcs-table" },
      h("caption", {}, `${b.ship} (${entry.cls} class): its arcs off heading ${b.pose.h}°, from the funnel — tick to draw`),
      h(
        "tr",
        {},
        ["arc", "weapon", "span", "bearings (clockwise from north)", "reach", "now"].map((t) => h("th", {}, t)),
      ),
      rows,
    ),
    h("p", { class: "hint", id: "bf-arcs-source" }, `Arcs from ${from}; greyed arcs have no gun or torpedo left.`),
  );
}

// ---- the ship log ----

function boxesRow(values, destroyed, damaged) {
  return h(
    "span",
    { class: "bf-boxes" },
    values.map((v, i) =>
      h(
        "i",
        {
          class: i < destroyed ? "x" : i < destroyed + damaged ? "dmg" : "",
          title: i < destroyed ? "destroyed" : i < destroyed + damaged ? "damaged" : "intact",
        },
        String(v),
      ),
    ),
  );
}

const GUN_MARK = { ok: "", damaged: "dmg", destroyed: "x" };

function weaponRows(w) {
  const pen = w.pen.map((p) => (p === null ? "–" : p)).join("/");
  const head = h("th", {}, `${w.bore} `, h("small", { class: "muted" }, `${w.cat}, ROF ${w.rof}, pen ${pen}${w.boat ? ", boat guns" : ""}`));
  const positions = w.positions.map((p) =>
    h(
      "span",
      {
        class: `bf-pos ${p.destroyed ? "x" : p.slashes ? "dmg" : ""}`,
        title: `${p.pos}: ${p.guns} gun(s), ${p.slashes} slash(es)${p.destroyed ? ", destroyed" : ""}${p.magazine_flooded ? ", magazine flooded" : ""}; last fired turn ${p.last_fired || "—"}`,
      },
      `${p.pos}${"/".repeat(p.slashes)}${p.magazine_flooded ? " ≈" : ""}`,
    ),
  );
  const bySide = {};
  for (const g of w.guns) (bySide[g.side] ||= []).push(g);
  const pattern = Object.entries(bySide).map(([side, gs]) =>
    h(
      "span",
      { class: "bf-guns" },
      `${side} `,
      gs.map((g) => h("i", { class: GUN_MARK[g.status] ?? g.status, title: `${g.mount}: ${g.group}, ${g.status}` })),
    ),
  );
  return h("tr", {}, head, h("td", {}, positions, pattern));
}

function shipCard(e, ctx) {
  const flags = [e.fleet_flagship ? "fleet flagship" : e.flagship ? "division flagship" : null].filter(Boolean);
  const status = e.status === "sinking" ? `sinking (${e.sinking_turns} turn(s) left)` : words(e.status);
  const comp = e.compartments.filter((c) => c.level || c.counterflooded);
  const facts = [
    ["Damage control", `${e.dc_dice_left} of ${e.dc_boxes} dice left${e.dc_damaged ? `, ${e.dc_damaged} box(es) hit` : ""}`],
    ["Flooding", comp.length ? comp.map((c) => `${c.compartment} ${c.level}${c.contained ? " contained" : ""}${c.counterflooded ? " counter-flooded" : ""}`).join(", ") : "none"],
    ["Points · list · trim", `${e.points} · ${e.listing} · ${e.trim}`],
    ["Fires", `${e.fires_external} external, ${e.fires_internal} internal`],
    ["Bridge · CT · TR · searchlight", `${e.bridge}${e.bridge_destroyed ? " (destroyed)" : ""} · ${e.ct} · ${e.tr} · ${e.searchlight}`],
    ["Rudder", e.rudder_jammed ? `jammed ${e.rudder_jammed}${e.rudder_secured ? ", secured" : ""}` : "free"],
  ];
  const state = [
    e.able_to_move ? null : "cannot move",
    e.able_to_fire ? null : "cannot fire",
    e.guns_abandoned ? "guns abandoned" : null,
    e.scuttling ? "scuttling" : null,
  ].filter(Boolean);
  return h(
    "section",
    { class: `bf-sheet ${seatClass(ctx, e.seat)} ${e.status}`, dataset: { ship: e.ship } },
    h(
      "h4",
      {},
      e.ship,
      h("small", {}, ` ${e.cls} · ${e.seat} · division ${e.division}${flags.length ? ` · ${flags.join(", ")}` : ""}`),
      h("span", { class: `bf-status ${e.status}` }, status),
    ),
    h(
      "p",
      {},
      "Propulsion ",
      boxesRow(e.propulsion.boxes, e.propulsion.destroyed, e.propulsion.damaged),
      ` top box ${e.propulsion.top_box} mm`,
      e.propulsion.margin ? ` · margin ${e.propulsion.margin}` : "",
      e.propulsion.list_boxes ? ` · ${e.propulsion.list_boxes} box(es) lost to list` : "",
    ),
    e.speed
      ? h("p", {}, `Speed: moved ${e.speed.last_mm} mm last turn; ${e.speed.min_mm}–${e.speed.max_mm} mm this turn`)
      : h("p", { class: "muted small" }, "Speed: its owner's (and the referee's) to see"),
    h("table", { class: "plain bf-weapons" }, e.weapons.map(weaponRows)),
    e.torpedoes.length
      ? h(
          "p",
          {},
          "Torpedoes ",
          e.torpedoes.map((t) => h("span", { class: `bf-pos ${t.left ? "" : "x"}` }, `${t.id}${t.side ? ` ${t.side}` : ""}: ${t.left} left`)),
          e.torpedo_depth ? ` · depth ${e.torpedo_depth}` : "",
        )
      : null,
    h(
      "table",
      { class: "plain small" },
      facts.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v))),
    ),
    state.length ? h("p", { class: "bf-state" }, state.join(" · ")) : null,
    e.pose ? h("p", { class: "muted small" }, `Bow at (${e.pose.x}, ${e.pose.y}) mm, heading ${e.pose.h}°${e.pose.exact ? "" : " (sighted)"}`) : null,
  );
}

export function shipLog(d, ctx) {
  const bySeat = {};
  for (const e of d.ships) (bySeat[e.seat] ||= []).push(e);
  return h(
    "figure",
    { class: "picture" },
    Object.entries(bySeat).map(([seat, ships]) =>
      h("div", {}, h("h4", { class: "bf-side" }, `${seat[0].toUpperCase()}${seat.slice(1)}: ${ships.length} ship(s)`), h("div", { class: "bf-sheets" }, ships.map((e) => shipCard(e, ctx)))),
    ),
    legend([
      ["bf-key box-x", "destroyed"],
      ["bf-key box-dmg", "damaged"],
      ["bf-key box", "intact"],
    ]),
    h("figcaption", {}, nowText(d.now)),
  );
}

// ---- the gunnery log ----

function arrowText(a) {
  if (a.stop) return "stop";
  const how = a.turn === "together" ? "together" : a.turn === "succession" ? "in succession" : "";
  return `${a.arrow ?? ""}° to ${a.to ?? "?"} ${how}`.trim();
}

export function gunneryLog(d, ctx) {
  const turns = [...new Set(d.divisions.flatMap((v) => v.orders.map((o) => o.turn)))].sort((a, b) => a - b);
  const orders = h(
    "table",
    { class: "grid small", id: "bf-orders" },
    h("caption", {}, "Each division's command column, turn by turn"),
    h("tr", {}, h("th", {}, "turn"), d.divisions.map((v) => h("th", { class: seatClass(ctx, v.seat) }, `${v.division} (${v.seat}) `, h("small", {}, v.flagship ? `⚑ ${v.flagship}` : "no flagship")))),
    turns.map((t) =>
      h(
        "tr",
        {},
        h("td", { class: "num" }, t),
        d.divisions.map((v) => {
          const o = v.orders.find((x) => x.turn === t);
          return h("td", {}, o ? (o.arrows.length ? o.arrows.map(arrowText).join("; ") : "straight on") : "");
        }),
      ),
    ),
  );
  const rows = d.ships.flatMap((sh) =>
    sh.rows.map((r, i) =>
      h(
        "tr",
        { class: `bf-row ${r.outcome}`, dataset: { ship: sh.ship, turn: r.turn } },
        i === 0 ? h("th", { rowspan: sh.rows.length, class: seatClass(ctx, sh.seat) }, sh.ship) : null,
        h("td", { class: "num" }, r.turn),
        h("td", {}, r.target),
        h("td", { class: "num" }, `${r.estimate} mm`),
        h("td", { class: `bf-outcome ${r.outcome}` }, words(r.outcome)),
        h("td", { class: "num" }, r.bracket ?? "—"),
        h("td", { class: "num" }, r.rounds),
        h("td", { class: "small" }, r.guns.map((g) => `${g.mount}${g.side ? ` ${g.side}` : ""} ${g.ammo} ×${g.rounds}`).join(", ")),
        h("td", { class: "small" }, r.codes.join(" ") || "—"),
      ),
    ),
  );
  return h(
    "figure",
    { class: "picture" },
    orders,
    rows.length
      ? h(
          "table",
          { class: "grid small", id: "bf-salvos" },
          h("caption", {}, "Each ship's target rows: the estimate, what the tape showed, the rounds and the damage codes"),
          h("tr", {}, ["ship", "turn", "target", "estimate", "outcome", "bracket", "rounds", "guns", "codes"].map((t) => h("th", {}, t))),
          rows,
        )
      : h("p", { class: "empty" }, "No salvo fired yet."),
    d.pending
      ? h("div", { class: "notice" }, h("p", {}, "This reader's own estimates, sealed until every seat is in:"), h("pre", { class: "json small" }, canonical(d.pending)))
      : null,
    h("figcaption", {}, nowText(d.now)),
  );
}

// ---- the phase ----

export function phase(d) {
  const submitted = Object.fromEntries(d.submitted.map((x) => [x.seat, x.commitment]));
  // the referee of an umpired game reads each seat's sealed submission (`orders`); nobody else is sent one
  const orders = Object.fromEntries(d.submitted.filter((x) => x.orders).map((x) => [x.seat, x.orders]));
  const seats = d.owing.map((seat) =>
    h(
      "li",
      { class: submitted[seat] ? "in" : "owes", dataset: { seat } },
      h("b", {}, seat),
      submitted[seat]
        ? [" has submitted (sealed: commitment ", h("code", { title: submitted[seat] }, `${submitted[seat].slice(0, 12)}…`), ")"]
        : " owes its orders for this step",
      orders[seat] ? h("pre", { class: "json small" }, canonical(orders[seat])) : null,
    ),
  );
  return h(
    "figure",
    { class: "picture bf-phase" },
    h("p", { class: "bf-now" }, h("b", {}, `Turn ${d.now.turn} of ${d.turns}`), ` · ${words(d.now.step)} step · fog ${d.fog}`),
    d.now.over
      ? h("p", { class: "verdict pass" }, `The battle is over${d.now.result ? `: ${words(d.now.result)}` : ""}.`)
      : d.owing.length
        ? h("ul", { class: "plain bf-owing" }, seats)
        : h("p", { class: "muted" }, "Nobody owes anything in this step."),
    d.waiting_for.length ? h("p", {}, `Waiting for: ${d.waiting_for.join(", ")}.`) : null,
    d.mine ? h("div", {}, h("p", {}, "This reader's own sealed submission:"), h("pre", { class: "json small" }, canonical(d.mine))) : null,
    d.messages.length
      ? h(
          "div",
          {},
          h("h5", {}, "Fleet orders this reader may read"),
          h(
            "ul",
            { class: "plain" },
            d.messages.map((m) => h("li", {}, `turn ${m.turn}, ${m.from_seat} → ${m.to_seat}: ${m.text}${m.signal ? ` (${m.signal})` : ""}`)),
          ),
        )
      : null,
    h("figcaption", {}, nowText(d.now)),
  );
}

/** One division's movement limits: the lead's straight run from its least to its most distance, and a wedge per
 * turn band (starboard positive, port negative; "either" both ways) out to the most distance. */
function moveLimits(m, depth, unitText) {
  const P = (p) => geo.toPicture(p, depth);
  const at = (deg, r) => {
    const [ux, uy] = geo.unit(deg);
    return [m.pose.x + ux * r, m.pose.y + uy * r];
  };
  const { min, max } = m.distance_mm;
  const g = s("g", { class: "bf-move", "data-division": m.division });
  const wedge = (a, b) => {
    const steps = Math.max(2, Math.ceil(Math.abs(b - a) / 5));
    const pts = [P([m.pose.x, m.pose.y])];
    for (let i = 0; i <= steps; i++) pts.push(P(at(a + ((b - a) * i) / steps, max)));
    return s("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: "bf-move-band" });
  };
  for (const t of m.turns) {
    if (t.to === "starboard" || t.to === "either") g.append(wedge(m.pose.h + t.min_deg, m.pose.h + t.max_deg));
    if (t.to === "port" || t.to === "either") g.append(wedge(m.pose.h - t.max_deg, m.pose.h - t.min_deg));
  }
  const [a, b] = [P(at(m.pose.h, min)), P(at(m.pose.h, max))];
  g.append(s("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "bf-move-run" }));
  g.append(s("text", { x: b[0] + 6, y: b[1], class: "bf-note", "font-size": unitText * 0.8 }, `${m.division} ${min}-${max} mm`));
  return g;
}

/** @type {import("./index.js").RulesetPictures} */
export const desk = {
  pictures: {
    table: { draw: table, state: tableState },
    "ship-log": { draw: shipLog },
    "gunnery-log": { draw: gunneryLog },
    phase: { draw: phase },
  },
  newGame: { scenario: "yellow-sea-1904" },
};

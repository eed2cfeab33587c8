// @ts-check
// Axis & Allies 1942 convoy disruption: the convoy zones' status board, the IPC ledger per round as a chart,
// and the campaign sheet.

import { h, s } from "../dom.js";

export const POWER_COLOURS = { USSR: "#a33b2b", Germany: "#4d4d4d", UK: "#b8925a", Japan: "#e39b1b", USA: "#5b8c3a" };
const colour = (p) => POWER_COLOURS[p] || "#777";

function chip(power, n) {
  return h(
    "span",
    { class: "sub", style: `--c:${colour(power)}`, title: `${n} ${power} submarine(s)` },
    `${power} ×${n}`,
  );
}

export function szStatus(d) {
  const tile = (z) =>
    h(
      "div",
      { class: `sz ${z.active ? "" : "inactive"}`, style: `--c:${colour(z.owner)}`, dataset: { sz: z.sz } },
      h("div", { class: "sz-head" }, h("b", {}, `SZ ${z.sz}`), h("span", {}, z.owner)),
      h(
        "div",
        { class: "sz-cap", title: `${z.chips} chip(s) of raid damage on the zone; ${z.cap_left} IPC(s) of raids left` },
        Array.from({ length: z.value }, (_, i) => h("i", { class: i < z.value - z.cap_left ? "hit" : "" })),
        h("small", {}, ` ${z.cap_left} of ${z.value} left`),
      ),
      z.active ? null : h("div", { class: "sz-off" }, `off: ${z.lost_territories.join(", ") || "lost"}`),
      h(
        "div",
        { class: "sz-subs" },
        Object.entries(z.submarines || {}).map(([p, n]) => chip(p, n)),
      ),
    );
  const others = d.other_zones_with_submarines || [];
  return h(
    "figure",
    { class: "picture" },
    h("div", { class: "sz-board" }, d.convoy_zones.map(tile)),
    others.length
      ? h(
          "p",
          { class: "sz-elsewhere" },
          "Submarines elsewhere: ",
          others.map((z) =>
            h(
              "span",
              {},
              `SZ ${z.sz} `,
              Object.entries(z.submarines).map(([p, n]) => chip(p, n)),
              " ",
            ),
          ),
        )
      : null,
    h(
      "div",
      { class: "legend" },
      h("span", { class: "key cap-key" }, ""),
      " a raid chip on the zone (the 4-IPC cap follows the chips; they come off in the owner's Purchase & Repair)  ·  a faded tile is a zone switched off by a lost territory",
    ),
    h("figcaption", {}, now(d.now)),
  );
}

function now(n) {
  return n ? `Round ${n.round}, ${n.power}, ${n.phase}${n.over ? " · game over" : ""}` : "";
}

const SERIES = [
  ["income", "income", "s-income"],
  ["spent", "spent", "s-spent"],
  ["raid_ipcs_lost", "lost to raids", "s-lost"],
  ["raid_damage_inflicted", "raid damage done", "s-done"],
];

/** One small chart per power: each round's income, spending and raid losses as bars. */
function ledgerChart(powers) {
  const rounds = Math.max(1, ...powers.map((p) => p.rounds.length));
  const max = Math.max(1, ...powers.flatMap((p) => p.rounds.flatMap((r) => SERIES.map(([k]) => r[k] || 0))));
  // a panel is as wide as its bars, or as its title (the power, then its treasury, on two lines at 11px bold: about
  // 7.5 units a character), whichever is wider: titles wider than their panel ran into the next one's
  const lines = powers.flatMap((p) => [p.power, `treasury ${p.treasury}`]);
  const titleW = 7.5 * Math.max(...lines.map((t) => t.length));
  const PW = Math.max(40 + rounds * (SERIES.length * 9 + 14), 34 + titleW);
  const TOP = 32; // the two title lines above the plot
  const PH = TOP + 130;
  const plotH = 100;
  const y = (v) => TOP + plotH - (v / max) * plotH;
  const panels = powers.map((p, pi) => {
    const x0 = pi * (PW + 12);
    const bars = [];
    p.rounds.forEach((r, ri) => {
      SERIES.forEach(([k, label, cls], si) => {
        const v = r[k] || 0;
        const x = x0 + 34 + ri * (SERIES.length * 9 + 14) + si * 9;
        bars.push(
          s(
            "rect",
            { x, y: y(v), width: 8, height: Math.max(0, TOP + plotH - y(v)), class: cls },
            s("title", {}, `${p.power}, round ${r.round}: ${label} ${v}`),
          ),
        );
      });
      bars.push(
        s(
          "text",
          { x: x0 + 34 + ri * (SERIES.length * 9 + 14) + (SERIES.length * 9) / 2, y: TOP + plotH + 14, class: "tick" },
          `R${r.round}`,
        ),
      );
    });
    return s(
      "g",
      {},
      s(
        "text",
        { x: x0 + 34, y: 12, class: "panel-title", fill: colour(p.power) },
        s("tspan", { x: x0 + 34 }, p.power),
        s("tspan", { x: x0 + 34, dy: 13 }, `treasury ${p.treasury}`),
      ),
      s("line", { x1: x0 + 30, y1: TOP + plotH, x2: x0 + PW, y2: TOP + plotH, class: "axis" }),
      s("text", { x: x0 + 26, y: y(max) + 4, class: "tick end" }, String(max)),
      s("text", { x: x0 + 26, y: TOP + plotH + 4, class: "tick end" }, "0"),
      bars,
    );
  });
  return s(
    "svg",
    {
      viewBox: `0 0 ${powers.length * (PW + 12)} ${PH}`,
      class: "chart",
      role: "img",
      "aria-label": "IPCs per round per power",
    },
    panels,
  );
}

export function ipcLedger(d) {
  const table = h(
    "table",
    { class: "grid" },
    h(
      "tr",
      {},
      [
        "Power",
        "Seat",
        "Treasury",
        "Income now",
        "Capital",
        "Convoy zones",
        "Income",
        "Spent",
        "Lost to raids",
        "Raid damage done",
        "Raids",
      ].map((t) => h("th", {}, t)),
    ),
    d.powers.map((p) =>
      h(
        "tr",
        {},
        h("th", { style: `color:${colour(p.power)}` }, p.power),
        h("td", {}, p.seat),
        h("td", { class: "num" }, p.treasury),
        h("td", { class: "num" }, p.income_now),
        h("td", {}, p.holds_capital ? "held" : "lost"),
        h("td", {}, p.convoy_zones.join(", ")),
        ["income", "spent", "raid_ipcs_lost", "raid_damage_inflicted", "raids"].map((k) =>
          h("td", { class: "num" }, p.totals ? p.totals[k] : ""),
        ),
      ),
    ),
  );
  const legend = h(
    "div",
    { class: "legend" },
    SERIES.map(([, label, cls]) => [h("span", { class: `key ${cls}` }, ""), ` ${label}  `]),
  );
  return h(
    "figure",
    { class: "picture" },
    ledgerChart(d.powers),
    legend,
    table,
    h("figcaption", {}, `${now(d.now)} · totals over the rounds played`),
  );
}

export function campaignSheet(d) {
  const rounds = d.rounds.map((r) =>
    h(
      "table",
      { class: "grid" },
      h("caption", {}, `Round ${r.round}`),
      h(
        "tr",
        {},
        [
          "Power",
          "Income",
          "Spent",
          "Raid damage suffered",
          "Lost to raids",
          "Raid damage done",
          "Raids",
          "Captured",
          "Liberated",
          "Returned",
          "Lost",
          "Subs placed",
          "Subs lost",
        ].map((t) => h("th", {}, t)),
      ),
      r.powers.map((p) =>
        h(
          "tr",
          {},
          h("th", { style: `color:${colour(p.power)}` }, p.power),
          ["income", "spent", "raid_damage_suffered", "raid_ipcs_lost", "raid_damage_inflicted", "raids"].map((k) =>
            h("td", { class: "num" }, p[k]),
          ),
          ["captured", "liberated", "returned", "lost"].map((k) => h("td", {}, (p[k] || []).join(", "))),
          h("td", { class: "num" }, p.submarines_placed),
          h("td", { class: "num" }, p.submarines_lost),
        ),
      ),
    ),
  );
  const occupied = (d.occupied || []).map((o) =>
    h("li", {}, `${o.territory} (of ${o.original_owner}) held by ${o.held_by}`),
  );
  return h(
    "figure",
    { class: "picture" },
    rounds,
    occupied.length ? [h("h5", {}, "Occupied now"), h("ul", { class: "plain" }, occupied)] : null,
    h("figcaption", {}, now(d.now)),
  );
}

/** The board as data: every sea zone with its convoy owner, coasts and neighbours; the canals; who holds what. */
export function map(d) {
  const zones = h(
    "table",
    { class: "grid" },
    h("caption", {}, "Sea zones"),
    h(
      "tr",
      {},
      ["SZ", "Convoy zone of", "Coasts", "Next to"].map((t) => h("th", {}, t)),
    ),
    d.sea_zones.map((z) =>
      h(
        "tr",
        { class: z.convoy_owner ? "convoy" : "" },
        h("th", {}, `SZ ${z.sz}`),
        h(
          "td",
          { style: z.convoy_owner ? `color:${colour(z.convoy_owner)};font-weight:600` : "" },
          z.convoy_owner || "",
        ),
        h("td", { class: "small" }, z.bordering_land.join(", ")),
        h("td", { class: "small" }, z.adjacent_sea_zones.join(", ")),
      ),
    ),
  );
  const canals = (d.canals || []).map((c) =>
    h(
      "li",
      {},
      h("b", {}, c.name),
      ` joins SZ ${c.sea_zones.join(" and ")}; held by ${c.held_by}${c.open_this_turn ? ", open" : ", closed"} (${c.territories.join(", ")})`,
    ),
  );
  const changed = (d.territories || []).filter((t) => t.original_owner && t.held_by !== t.original_owner);
  return h(
    "figure",
    { class: "picture" },
    canals.length ? [h("h5", {}, "Canals"), h("ul", { class: "plain small" }, canals)] : null,
    changed.length
      ? [
          h("h5", {}, "Held by another power"),
          h(
            "ul",
            { class: "plain small" },
            changed.map((t) => h("li", {}, `${t.name} (${t.original_owner}'s, ${t.ipc} IPC) held by ${t.held_by}`)),
          ),
        ]
      : null,
    zones,
    h("figcaption", {}, now(d.now)),
  );
}

/** @type {import("./index.js").RulesetPictures} */
export const desk = {
  pictures: {
    "sz-status": { draw: szStatus },
    "ipc-ledger": { draw: ipcLedger },
    "campaign-sheet": { draw: campaignSheet },
    map: { draw: map },
  },
  newGame: { rounds: 1 },
};

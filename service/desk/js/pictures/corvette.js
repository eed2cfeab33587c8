// @ts-check
// Corvette Command: the convoy map, the corvette sheet (ship log), the U-boat being fought, the campaign sheet.

import { h, s } from "../dom.js";

const CELL_W = 58;
const CELL_H = 48;
const SIDE = 120; // room for the ports' names on each side
const TOP = 40;
const COUNTERS = {
  U: { label: "U", title: "a U-boat counter", cls: "c-u" },
  R: { label: "R", title: "a random event counter", cls: "c-r" },
  blank: { label: "·", title: "a blank counter", cls: "c-blank" },
  spent: { label: "✕", title: "re-entered: the counter already acted", cls: "c-spent" },
};

const title = (t) => t.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());

export function map(d) {
  if (!d.map)
    return h(
      "p",
      { class: "empty" },
      "No convoy at sea at this point: the map shows a convoy between sailing and arrival.",
    );
  const C = d.channels;
  const N = d.columns;
  const W = SIDE * 2 + N * CELL_W;
  const H = TOP + C * CELL_H + 30;
  const cx = (col) => SIDE + col * CELL_W + CELL_W / 2;
  const cy = (ch) => TOP + ch * CELL_H + CELL_H / 2;
  const portAt = {};
  const parts = [];
  // zones: a band over their columns, their names drawn over every band (a long name may reach into the next)
  const names = [];
  d.zones.forEach((z, i) => {
    const cols = z.boxes.map((b) => b[1]);
    const lo = Math.min(...cols);
    const hi = Math.max(...cols);
    parts.push(
      s("rect", {
        x: SIDE + lo * CELL_W,
        y: TOP - 22,
        width: (hi - lo + 1) * CELL_W,
        height: C * CELL_H + 22,
        class: `zone z${i % 3}`,
      }),
    );
    names.push(s("text", { x: SIDE + ((lo + hi + 1) / 2) * CELL_W, y: TOP - 7, class: "zone-name" }, title(z.name)));
  });
  parts.push(...names);
  // the boxes' numbers under them: a move's label names its box as "channel c, box b"
  parts.push(s("text", { x: SIDE - 8, y: TOP + C * CELL_H + 13, class: "channel-name" }, "box"));
  for (let col = 0; col < N; col++)
    parts.push(s("text", { x: cx(col), y: TOP + C * CELL_H + 13, class: "box-number" }, String(col)));
  // boxes
  for (let ch = 0; ch < C; ch++) {
    parts.push(s("text", { x: SIDE - 8, y: cy(ch) + 4, class: "channel-name" }, `channel ${ch}`));
    for (let col = 0; col < N; col++) {
      const ordered = d.convoy && d.convoy.orders_channel === ch;
      parts.push(
        s("rect", {
          x: SIDE + col * CELL_W + 2,
          y: TOP + ch * CELL_H + 2,
          width: CELL_W - 4,
          height: CELL_H - 4,
          class: ordered ? "box ordered" : "box",
        }),
      );
    }
  }
  // ports, left (west) or right (east) of their boxes
  for (const [name, p] of Object.entries(d.ports || {})) {
    const chs = p.boxes.map((b) => b[0]);
    const col = p.boxes[0][1];
    const y = (cy(Math.min(...chs)) + cy(Math.max(...chs))) / 2;
    const west = col < N / 2;
    const x = west ? 14 : W - 14;
    portAt[name] = [west ? SIDE - 40 : W - SIDE + 40, y];
    const offset = Object.keys(portAt).filter((n) => Math.abs(portAt[n][1] - y) < 14 && n !== name).length * 16;
    parts.push(
      s("text", { x, y: y + 4 + offset, class: `port-name ${west ? "west" : "east"}` }, name),
      ...p.boxes.map((b) =>
        s("line", { x1: west ? SIDE - 40 : W - SIDE + 40, y1: y, x2: cx(b[1]), y2: cy(b[0]), class: "port-link" }),
      ),
    );
  }
  // the convoy's track
  const c = d.convoy;
  if (c && c.path && c.path.length) {
    const pts = c.path.map((p) => (typeof p === "string" ? portAt[p] : [cx(p[1]), cy(p[0])])).filter(Boolean);
    parts.push(s("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "track" }));
    pts.forEach((p, i) => i && parts.push(s("circle", { cx: p[0], cy: p[1], r: 3, class: "track-dot" })));
  }
  // revealed counters
  for (const r of d.revealed || []) {
    const kind = COUNTERS[r.kind] || { label: r.kind.slice(0, 2), title: r.kind, cls: "c-other" };
    const [ch, col] = r.box;
    parts.push(
      s(
        "g",
        { class: `counter ${kind.cls}` },
        s("title", {}, `${kind.title} at channel ${ch}, box ${col}`),
        s("rect", { x: cx(col) - 13, y: cy(ch) - 13, width: 26, height: 26, rx: 3 }),
        s("text", { x: cx(col), y: cy(ch) + 5 }, kind.label),
      ),
    );
  }
  // the convoy now
  if (c && Array.isArray(c.position)) {
    const [ch, col] = c.position;
    const dir = c.direction === "west" ? -1 : 1;
    const x = cx(col) + dir * 14;
    const y = cy(ch) - 14;
    parts.push(
      s(
        "g",
        { class: "convoy" },
        s("title", {}, `the convoy, ${c.direction}bound`),
        s("path", {
          d: `M${x - dir * 12},${y - 7} L${x + dir * 8},${y - 7} L${x + dir * 14},${y} L${x + dir * 8},${y + 7} L${x - dir * 12},${y + 7} Z`,
        }),
      ),
    );
  }
  const svg = s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "cc-map", role: "img", "aria-label": "the convoy map" },
    parts,
  );
  const legend = h(
    "div",
    { class: "legend" },
    h("span", { class: "key c-u" }, "U"),
    " U-boat  ",
    h("span", { class: "key c-r" }, "R"),
    " random event  ",
    h("span", { class: "key c-blank" }, "·"),
    " blank  ",
    h("span", { class: "key c-spent" }, "✕"),
    " spent  ",
    h("span", { class: "key track-key" }, ""),
    " the convoy's track  ",
    h("span", { class: "key ordered-key" }, ""),
    " ordered channel",
  );
  const caption = c
    ? `${title(c.direction || "")}bound, ${c.speed} convoy to ${c.destination}; weather ${d.weather ?? "—"}; ${d.now ? d.now.date : ""}`
    : "";
  return h("figure", { class: "picture" }, svg, legend, h("figcaption", {}, caption));
}

function boxes(n, filled, cls = "") {
  return h(
    "span",
    { class: `boxes ${cls}` },
    Array.from({ length: n }, (_, i) => h("i", { class: i < filled ? "on" : "" })),
  );
}

const STATIONS = {
  lookout: "Lookout",
  asdic: "ASDIC",
  aa: "AA gun",
  gun: "Main gun",
  depth_charge: "Depth charges",
  engineer: "Engineer",
};

function sheet(e) {
  const skills = Object.entries(e.skills || {}).map(([k, v]) =>
    h(
      "tr",
      {},
      h("th", {}, STATIONS[k] || k),
      h("td", {}, boxes(Math.max(3, v), v, "pips")),
      h("td", { class: "num" }, v),
    ),
  );
  const equipment = Object.entries(e.equipment || {}).map(([k, v]) =>
    h(
      "tr",
      {},
      h("th", {}, k.toUpperCase()),
      h("td", {}, v.fitted ? "✓ fitted" : "not yet"),
      h("td", {}, `due ${v.due}`),
      h("td", {}, v.months_late ? `${v.months_late} month(s) late` : ""),
    ),
  );
  const harder = Object.entries(e.task_harder || {}).map(([k, v]) =>
    h("li", {}, `${STATIONS[k] || k}: ${v.counters} task-harder counter(s)`, v.officer_lost ? " · officer lost" : ""),
  );
  const kills = e.kills || {};
  return h(
    "div",
    { class: "sheet" },
    h("h4", {}, `Corvette sheet — ${e.seat}`),
    h(
      "div",
      { class: "sheet-grid" },
      h("section", {}, h("h5", {}, "Crew skills"), h("table", { class: "plain" }, skills)),
      h(
        "section",
        {},
        h("h5", {}, "Ship"),
        h("p", {}, "Hull damage ", boxes(3, e.hull_damage, "hull"), ` ${e.hull_damage} of 3 (sunk at 3)`),
        h(
          "p",
          {},
          "Depth charges ",
          boxes(e.depth_charges.of, e.depth_charges.left, "ammo"),
          ` ${e.depth_charges.left} of ${e.depth_charges.of}`,
        ),
        e.hedgehog
          ? h(
              "p",
              {},
              "Hedgehog ",
              boxes(e.hedgehog.of, e.hedgehog.left, "ammo"),
              ` ${e.hedgehog.left} of ${e.hedgehog.of}`,
            )
          : h("p", { class: "muted" }, "No Hedgehog fitted"),
        harder.length ? h("ul", { class: "plain" }, harder) : h("p", { class: "muted" }, "No task-harder counters"),
      ),
      h("section", {}, h("h5", {}, "Equipment"), h("table", { class: "plain" }, equipment)),
      h(
        "section",
        {},
        h("h5", {}, "Record"),
        h(
          "p",
          {},
          `U-boats: ${kills.confirmed || 0} confirmed, ${kills.probable || 0} probable, ${kills.possible || 0} possible`,
        ),
        (e.awards || []).length
          ? h(
              "ul",
              { class: "plain" },
              e.awards.map((a) => h("li", {}, h("b", {}, a.award), ` — ${a.reason} (${a.date})`)),
            )
          : h("p", { class: "muted" }, "No awards yet"),
        (e.officers_lost || []).length ? h("p", {}, `Officers lost: ${e.officers_lost.join(", ")}`) : null,
        (e.skills_used_since_review || []).length
          ? h("p", { class: "muted" }, `Skills used since the last review: ${e.skills_used_since_review.join(", ")}`)
          : null,
      ),
    ),
  );
}

export function shipLog(d) {
  return h(
    "figure",
    { class: "picture" },
    d.escorts.map(sheet),
    h("figcaption", {}, d.now ? `${d.now.date}${d.now.over ? " · campaign over" : ""}` : ""),
  );
}

export function engagement(d) {
  const u = d.uboat;
  if (!u)
    return h(
      "p",
      { class: "empty" },
      `No U-boat engaged at this point.${d.pending_uboats ? ` ${d.pending_uboats} more waiting.` : ""}`,
    );
  const facts = [
    ...(d.escort && d.escort !== "captain"
      ? [["Section", `${d.escort}'s${d.helped_by ? `, ${d.helped_by} helping with its ASDIC (CC-R38)` : ", alone"}`]]
      : []),
    ["Type", u.type],
    ["Attack / evade", `${u.attack} / ${u.evade}`],
    ["Range", `${u.range_band} (${u.range})`],
    ["Surfaced", u.surfaced ? "yes" : "no, submerged"],
    ["Detected", u.detected ? `yes (${u.consecutive} in a row)` : "no"],
    ["Hits on it", u.hits],
    ["Attacks left", u.attacks_left],
    ["Step", u.step],
  ];
  const rest = Object.entries(u).filter(
    ([k]) =>
      ![
        "uboat",
        "type",
        "attack",
        "evade",
        "range",
        "range_band",
        "surfaced",
        "detected",
        "consecutive",
        "hits",
        "attacks_left",
        "step",
      ].includes(k),
  );
  return h(
    "figure",
    { class: "picture" },
    h(
      "div",
      { class: "uboat-card" },
      h("h4", {}, u.uboat),
      h(
        "table",
        { class: "plain" },
        facts.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, String(v)))),
      ),
      h(
        "details",
        {},
        h("summary", {}, "everything else"),
        h(
          "table",
          { class: "plain small" },
          rest.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, JSON.stringify(v)))),
        ),
      ),
    ),
    h("figcaption", {}, d.pending_uboats ? `${d.pending_uboats} more U-boat(s) waiting` : ""),
  );
}

export function campaignSheet(d) {
  const rows = [...(d.convoys || []), ...(d.current ? [{ ...d.current, current: true }] : [])];
  const table = h(
    "table",
    { class: "grid" },
    h(
      "tr",
      {},
      ["#", "Convoy", "Route", "Sailed", "Weather", "Encounters", "Ships lost", "Tonnage", "VP", "Result"].map((t) =>
        h("th", {}, t),
      ),
    ),
    rows.map((c) =>
      h(
        "tr",
        { class: c.current ? "current" : "" },
        h("td", {}, c.number),
        h("td", {}, `${c.card} (${c.code}) ${c.speed}, ${c.size} ships`),
        h("td", {}, `${c.from} → ${c.to}`),
        h("td", {}, c.sailed, h("br"), c.arrived ? `arrived ${c.arrived}` : c.current ? "at sea" : ""),
        h(
          "td",
          {},
          h(
            "span",
            { class: "weather" },
            (c.weather || []).map((w) => h("i", { class: `w-${w}`, title: w }, w[0].toUpperCase())),
          ),
        ),
        h(
          "td",
          {},
          (c.encounters || []).map((e) => h("div", {}, `${e.uboat}: ${e.fate}${e.hits ? ` (${e.hits} hits)` : ""}`)),
        ),
        h("td", { class: "num" }, c.ships_lost),
        h("td", { class: "num" }, c.tonnage != null ? c.tonnage.toLocaleString("en") : ""),
        h("td", { class: "num" }, c.vp ?? ""),
        h("td", {}, c.result ?? (c.current ? "at sea" : "")),
      ),
    ),
  );
  const years = (d.years || []).map((y) => h("li", {}, `${y.year}: ${y.vp} VP${y.status ? ` — ${y.status}` : ""}`));
  return h(
    "figure",
    { class: "picture" },
    rows.length ? table : h("p", { class: "empty" }, "No convoy sailed yet."),
    years.length ? h("ul", { class: "plain" }, years) : null,
    (d.skill_growth || []).length ? h("p", {}, `Skill growth: ${JSON.stringify(d.skill_growth)}`) : null,
  );
}

/** @type {import("./index.js").RulesetPictures} */
export const desk = {
  pictures: {
    map: { draw: map },
    "ship-log": { draw: shipLog },
    engagement: { draw: engagement },
    "campaign-sheet": { draw: campaignSheet },
  },
  newGame: { convoys: 1 },
};

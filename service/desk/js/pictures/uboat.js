// @ts-check
// U-Boat Leader: the campaign sheet (VP against the sheet's levels, every boat's line, the map's Areas, one line per
// turn, the decks), a U-boat's log (its card rows, stress against its bands, XP, torpedoes, its history) and the
// Tactical Display of the contact in hand (its areas in rings around the convoy, the ships and boats in each).

import { h, put, s } from "../dom.js";

const words = (t) => String(t).replace(/_/g, " ");

function nowText(n) {
  return n.over ? `the campaign is over (turn ${n.turn})` : `turn ${n.turn}, ${n.segment} segment`;
}

/** Stress as a track of boxes 0…: Okay up to bands[0], Shaken up to bands[1], Unfit beyond; the boat's stress marked. */
function stressTrack(stress, bands) {
  const last = Math.max(bands[1] + 2, stress);
  return h(
    "span",
    { class: "ul-stress", title: `stress ${stress}: Okay to ${bands[0]}, Shaken to ${bands[1]}, Unfit above` },
    Array.from({ length: last + 1 }, (_, i) =>
      h("i", { class: `${i <= bands[0] ? "okay" : i <= bands[1] ? "shaken" : "unfit"}${i === stress ? " at" : ""}` }, String(i)),
    ),
  );
}

function levelsTrack(d) {
  const score = d.final_vp ?? d.vp;
  const top = Math.max(score, ...d.levels.map((l) => l.vp)) + 4;
  const pct = (v) => `${(100 * Math.max(0, v)) / top}%`;
  return h(
    "div",
    { class: "ul-levels", title: `${score} VP against the sheet's levels` },
    d.levels.map((l) =>
      h("span", { class: `ul-level ${l.reached ? "reached" : ""}`, style: `left:${pct(l.vp)}` }, `${l.name} ${l.vp}`),
    ),
    // shifted by as much of its own width as it is along the track: at 0 it starts there, never out of the track
    h("span", { class: "ul-vp", style: `left:${pct(score)};transform:translateX(-${pct(score)})`, id: "ul-vp" }, `${score} VP`),
  );
}

export function campaignSheet(d) {
  const areaName = Object.fromEntries(d.areas.map((a) => [a.id, a.name]));
  const boats = h(
    "table",
    { class: "grid small", id: "ul-boats" },
    h(
      "tr",
      {},
      ["Boat", "Level", "Stress", "XP", "Patrols", "Where", "Missions", "Torpedoes", "Mines", "Ammo", "Contact", "Fate"].map((t) =>
        h("th", {}, t),
      ),
    ),
    d.boats.map((b) =>
      h(
        "tr",
        { class: `ul-boat ${b.fate.replace(" ", "-")}`, dataset: { boat: b.boat } },
        h("th", {}, b.boat, h("small", { class: "muted" }, ` type ${b.cls}`)),
        h("td", {}, b.level),
        h("td", {}, stressTrack(b.stress, b.bands), ` ${b.band}`),
        h("td", { class: "num" }, b.xp_to_promote === null ? String(b.xp) : `${b.xp} of ${b.xp_to_promote}`),
        h("td", { class: "num" }, `${b.patrols} of ${b.patrol_limit}`),
        h("td", {}, `${areaName[b.where] || words(b.where)}${b.space === "port" || b.space === "open" ? "" : ` (${b.space})`}`),
        h("td", {}, b.missions.map(words).join(", ") || "—"),
        h("td", { class: "num" }, b.torpedoes),
        h("td", { class: "num" }, b.mines),
        h("td", { class: "num" }, b.ammo),
        h("td", { class: "num" }, b.space === "port" ? "—" : (b.contact_modifier > 0 ? "+" : "") + b.contact_modifier),
        h("td", { class: `ul-fate ${b.fate.replace(" ", "-")}` }, b.fate),
      ),
    ),
  );
  const areas = h(
    "div",
    { class: "ul-areas", id: "ul-areas" },
    d.areas.map((a) =>
      h(
        "section",
        { class: `ul-area ${a.kind}`, dataset: { area: a.id } },
        h("h5", {}, a.name, h("small", { class: "muted" }, a.kind === "port" ? ` port, refit ${a.refit}` : ` move ${a.move ?? "—"}, patrol ${a.patrol ?? "—"}`)),
        a.kind === "area" && a.contacts_at.length ? h("p", { class: "small" }, `contacts on ${a.contacts_at.join(", ")}${a.no_stop ? " · no stopping" : ""}`) : null,
        a.counters.length || a.warnings
          ? h("p", { class: "small" }, [...a.counters.map(words), ...(a.warnings ? [`${a.warnings} warning(s)`] : [])].join(" · "))
          : null,
        a.boats.length ? h("p", {}, a.kind === "port" ? "in port: " : "at sea: ", h("b", {}, a.boats.join(", "))) : null,
        a.search_box.length ? h("p", {}, "searching: ", h("b", {}, a.search_box.join(", "))) : null,
        a.boxes.map((x) =>
          h("p", { class: "small" }, `${words(x.mission)} box (${x.events} events, ${x.naval} naval)`, x.boats.length ? [": ", h("b", {}, x.boats.join(", "))] : ""),
        ),
        h("p", { class: "small muted" }, `next to ${a.adjacent.map((x) => areaName[x] || x).join(", ")}`),
      ),
    ),
  );
  // the turn in play, marked "now"; once the campaign is over, its last turn as any other (a play trial: a campaign
  // over in its first turn showed an empty table)
  const last = d.this_turn && !d.turns.some((t) => t.turn === d.this_turn.turn) ? [{ ...d.this_turn, current: !d.now.over }] : [];
  const lines = [...d.turns, ...last];
  const turns = h(
    "table",
    { class: "grid small", id: "ul-turns" },
    h("tr", {}, ["Turn", "SO spent", "Options", "VP", "Ships sunk", "Tons", "Boats lost", "Contacts", "Battles"].map((t) => h("th", {}, t))),
    lines.map((t) =>
      h(
        "tr",
        { class: t.current ? "current" : "" },
        h("td", { class: "num" }, t.current ? `${t.turn} (now)` : t.turn),
        h("td", { class: "num" }, t.so_spent_half % 2 ? `${Math.floor(t.so_spent_half / 2)}½` : t.so_spent_half / 2),
        h("td", {}, t.options.map(words).join(", ") || "—"),
        h("td", { class: "num" }, t.vp),
        h("td", { class: "num" }, t.ships_sunk),
        h("td", { class: "num" }, t.tons.toLocaleString("en")),
        h("td", { class: "num" }, t.boats_lost),
        h("td", { class: "num" }, t.contacts),
        h("td", { class: "num" }, t.battles),
      ),
    ),
  );
  const decks = h(
    "p",
    { class: "ul-decks" },
    "Decks: ",
    d.decks.map((x) => h("span", { class: "pill" }, `${x.deck} ${x.remaining} left, ${x.discards} discarded`)),
  );
  const bought = d.options.filter((o) => o.bought);
  return h(
    "figure",
    { class: "picture" },
    h(
      "div",
      { class: "ul-head" },
      h("h4", {}, `${d.name} `, h("small", { class: "muted" }, `${d.duration} campaign, ${d.patrols_per_boat} patrol(s) a boat`)),
      h(
        "p",
        {},
        h("b", {}, `${d.final_vp ?? d.vp} VP`),
        d.final_vp !== null ? " final" : " so far",
        ` · ${d.ships_sunk} ship(s) sunk, ${d.tons.toLocaleString("en")} tons · ${d.boats_lost} boat(s) lost · SO ${d.so}`,
        d.result ? [" · result: ", h("b", { id: "ul-result" }, d.result)] : null,
      ),
      levelsTrack(d),
    ),
    h("h5", {}, "The flotilla"),
    boats,
    h("h5", {}, "The map"),
    areas,
    h("h5", {}, "Turn by turn"),
    turns,
    bought.length ? h("p", {}, "Options bought: ", bought.map((o) => `${words(o.option)} ×${o.bought}`).join(", ")) : null,
    decks,
    h("figcaption", {}, nowText(d.now)),
  );
}

// ---- a U-boat's log ----

function rowTable(b) {
  const row = (name, r) =>
    h(
      "tr",
      { class: b.row_in_use === name ? "in-use" : "" },
      h("th", {}, name === "okay" ? "Okay" : "Shaken", b.row_in_use === name ? " ◀ in use" : ""),
      h("td", {}, r.initiative === "A" ? "A (attacks in the aggressive step)" : "C (attacks in the cautious step)"),
      h("td", { class: "num" }, r.gs),
      h("td", { class: "num" }, r.ts),
      h("td", { class: "num" }, r.ev),
    );
  return h(
    "table",
    { class: "grid small ul-rows" },
    h("tr", {}, ["row", "initiative", "GS", "TS", "EV"].map((t) => h("th", {}, t))),
    row("okay", b.okay),
    row("shaken", b.shaken),
  );
}

function torpedoes(t) {
  return ["normal", "FAT", "T5"].filter((k) => t[k]).map((k) => `${t[k]} ${k}`).join(", ") || "none";
}

function boatSheet(b) {
  return h(
    "section",
    { class: `ul-log ${b.fate.replace(" ", "-")}`, dataset: { boat: b.boat } },
    h(
      "h4",
      {},
      b.boat,
      h("small", { class: "muted" }, ` type ${b.cls} · ${b.level} (${b.levels.join(" → ")})${b.abilities.length ? ` · ${b.abilities.join(", ")}` : ""}`),
      h("span", { class: `ul-fate ${b.fate.replace(" ", "-")}` }, b.fate),
    ),
    h(
      "div",
      { class: "sheet-grid" },
      h(
        "section",
        {},
        h("h5", {}, "Crew"),
        h("p", {}, "Stress ", stressTrack(b.stress, b.bands), ` ${b.stress}: ${b.band}`),
        h("p", {}, `XP ${b.xp}${b.xp_to_promote !== null ? ` (promotion at ${b.xp_to_promote})` : ""} · patrols ${b.patrols}`),
        rowTable(b),
      ),
      h(
        "section",
        {},
        h("h5", {}, "Boat"),
        h("p", {}, `Torpedoes ready: ${torpedoes(b.ready)} · stored: ${torpedoes(b.stored)}`),
        h("p", {}, `Mines ${b.mines} · deck gun ${b.gun ? `yes, ${b.ammo} ammo` : "no"}`),
        h("p", {}, `At ${words(b.where)} (${b.space})${b.missions.length ? ` · missions: ${b.missions.map(words).join(", ")}` : ""}`),
        h("p", {}, h("b", {}, `${b.vp} VP`), ` · ${b.ships_sunk} ship(s) sunk, ${b.tons.toLocaleString("en")} tons`),
      ),
    ),
    h(
      "table",
      { class: "grid small ul-history" },
      h("caption", {}, "Its log"),
      h("tr", {}, ["turn", "what", "", "VP", "XP", "tons"].map((t) => h("th", {}, t))),
      b.history.map((x) =>
        h(
          "tr",
          { class: `ul-${x.what}` },
          h("td", { class: "num" }, x.turn),
          h("td", {}, x.what),
          h("td", {}, x.text),
          h("td", { class: "num" }, x.vp || ""),
          h("td", { class: "num" }, x.xp || ""),
          h("td", { class: "num" }, x.tons ? x.tons.toLocaleString("en") : ""),
        ),
      ),
    ),
  );
}

/**
 * Every boat's log is in the view; the picture shows one, picked with the buttons (`state.boat`).
 * @param {any} d
 * @param {import("./index.js").PictureContext} _ctx
 * @param {{boat: string | null}} state
 */
export function uboatLog(d, _ctx, state) {
  const names = Object.keys(d.boats);
  if (!state.boat || !names.includes(state.boat)) state.boat = names[0];
  const fig = h("figure", { class: "picture" });
  const draw = () =>
    put(
      fig,
      h(
        "div",
        { class: "view-tabs ul-boats", role: "tablist" },
        names.map((n) =>
          h(
            "button",
            { type: "button", class: n === state.boat ? "active" : "", dataset: { boat: n }, onclick: () => ((state.boat = n), draw()) },
            n,
            d.boats[n].fate === "in play" ? "" : ` (${d.boats[n].fate})`,
          ),
        ),
      ),
      boatSheet(d.boats[String(state.boat)]),
      h("figcaption", {}, nowText(d.now)),
    );
  draw();
  return fig;
}

// The stand-in display's areas (data `display`, UL-1): rings of eight around the convoy's four areas, area 1 ahead
// and on clockwise; each convoy area faces the short areas it touches (C1: S7, S8, S1); the Wake astern of L4-L6.
const RINGS = { S: [52, 100], M: [100, 148], L: [148, 196] };
const C_AT = { C1: 8, C2: 2, C3: 4, C4: 6 }; // the ring position each convoy area is centred on
const CX = 230;
const CY = 226;

/** The angle (radians) of ring position `i` (1 ahead, clockwise). @param {number} i */
const angleOf = (i) => ((i - 1) * Math.PI) / 4 - Math.PI / 2;

/** A ring sector between radii r0 and r1 and angles a0 to a1, as an SVG path. */
function sector(r0, r1, a0, a1) {
  const pt = (r, a) => `${(CX + r * Math.cos(a)).toFixed(1)} ${(CY + r * Math.sin(a)).toFixed(1)}`;
  const big = a1 - a0 > Math.PI ? 1 : 0;
  return `M ${pt(r0, a0)} A ${r0} ${r0} 0 ${big} 1 ${pt(r0, a1)} L ${pt(r1, a1)} A ${r1} ${r1} 0 ${big} 0 ${pt(r1, a0)} Z`;
}

/** Where an area of the stand-in display is drawn: its path, and the point its pieces are listed at; null for an
 * area of another data set's display (listed under the drawing instead). @param {string} id */
function placeOf(id) {
  const m = /^([SML])([1-8])$/.exec(id);
  if (m) {
    const [r0, r1] = RINGS[m[1]];
    const a = angleOf(Number(m[2]));
    const mid = (r0 + r1) / 2;
    return { path: sector(r0, r1, a - Math.PI / 8, a + Math.PI / 8), x: CX + mid * Math.cos(a), y: CY + mid * Math.sin(a) };
  }
  if (id in C_AT) {
    const a = angleOf(C_AT[id]);
    return { path: sector(0.01, RINGS.S[0], a - Math.PI / 4, a + Math.PI / 4), x: CX + 27 * Math.cos(a), y: CY + 27 * Math.sin(a) };
  }
  if (id === "W") {
    const a = angleOf(5);
    return { path: sector(RINGS.L[1], RINGS.L[1] + 22, a - (3 * Math.PI) / 8, a + (3 * Math.PI) / 8), x: CX, y: CY + RINGS.L[1] + 13 };
  }
  return null;
}

/** One piece as the drawing writes it: a ship by its label (its name is in the list below), a boat by its id and
 * side. */
function pieceText(p) {
  if ("boat" in p) return `${p.boat} ${p.side === "surfaced" ? "▲" : "▼"}${p.detected ? "!" : ""}`;
  return `[${p.label}]`; // bracketed: a ship's label may read as an area's name (a merchant "M3" beside area M3)
}

function pieceTitle(p) {
  if ("boat" in p) {
    const marks = [p.side, p.detected ? "Detected" : "", p.silent ? "Silent Running" : "", p.deep ? "deep" : ""];
    return `${p.boat}: ${marks.filter(Boolean).join(", ")}`;
  }
  const what = p.escort ? "escort" : "merchant";
  const state = p.known ? `${p.name ?? ""} (${p.deck} ${p.number})` : "not yet revealed";
  return `${p.label}: ${what}, ${state}, speed ${p.speed}${p.damage !== "none" ? `, ${p.damage} damage` : ""}`;
}

export function tacticalDisplay(d) {
  const fig = h("figure", { class: "ul-display" });
  if (!d.ships.length && !d.uboats.length) {
    fig.append(h("p", { class: "muted" }, `No contact on the Tactical Display now (${nowText(d.now)}).`));
    return fig;
  }
  /** @type {Map<string, any[]>} */
  const pieces = new Map();
  for (const p of [...d.ships, ...d.uboats]) pieces.set(p.area, [...(pieces.get(p.area) ?? []), p]);
  const areas = [...["L", "M", "S"].flatMap((r) => [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `${r}${i}`)), "C1", "C2", "C3", "C4", "W"];
  const svg = s("svg", { viewBox: "0 0 460 470", class: "ul-tactical", role: "img", "aria-label": "the Tactical Display" });
  for (const id of areas) {
    const at = placeOf(id);
    if (!at) continue;
    const here = pieces.get(id) ?? [];
    svg.append(s("path", { d: at.path, class: `ul-zone ul-${id[0]}${here.length ? " held" : ""}`, "data-area": id }, s("title", {}, id)));
    svg.append(s("text", { x: at.x, y: at.y - 6 * here.length - 2, class: "ul-zone-name" }, id));
    here.forEach((p, n) => {
      const kind = "boat" in p ? `ul-boat${p.detected ? " detected" : ""}` : p.escort ? "ul-escort" : "ul-merchant";
      svg.append(s("text", { x: at.x, y: at.y - 6 * here.length + 10 + 11 * n, class: `ul-piece ${kind}`, "data-area": id }, pieceText(p), s("title", {}, pieceTitle(p))));
    });
  }
  svg.append(s("text", { x: CX, y: 14, class: "ul-zone-name" }, "ahead"));
  fig.append(svg);
  const elsewhere = [...pieces.keys()].filter((a) => !placeOf(a));
  if (elsewhere.length)
    fig.append(h("p", {}, "In areas of this data set's own display: ", elsewhere.map((a) => `${a}: ${(pieces.get(a) ?? []).map(pieceText).join(", ")}`).join("; ")));
  // each piece once more in words: the drawing's sectors hold a label, not a ship's name
  fig.append(h("ul", { class: "ul-pieces" }, [...d.ships, ...d.uboats].map((p) => h("li", {}, h("b", {}, pieceText(p)), ` in ${p.area}: `, pieceTitle(p).replace(/^[^:]*: /, "")))));
  const head = [d.area ? `Area ${words(d.area)}` : "", d.convoy_type ? `convoy ${d.convoy_type}` : "", d.turn ? `combat turn ${d.turn}` : "", d.step ? `step: ${words(d.step)}` : ""];
  fig.append(
    h("figcaption", {}, head.filter(Boolean).join(" · "), h("br"),
      h("span", { class: "muted" }, "▲ surfaced, ▼ submerged, ! Detected (orange); [M3] a ship by its label, escorts red, merchants grey. The stand-in display: what touches what, as the rules read it (UL-1).")),
  );
  return fig;
}

/** @type {import("./index.js").RulesetPictures} */
export const desk = {
  pictures: {
    "campaign-sheet": { draw: campaignSheet },
    "tactical-display": { draw: tacticalDisplay },
    "uboat-log": { draw: uboatLog, state: () => ({ boat: /** @type {string | null} */ (null) }) },
  },
  newGame: { duration: "short" },
};

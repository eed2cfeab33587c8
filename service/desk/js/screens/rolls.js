// @ts-check
// The roll ledger: every roll with its provenance and check, filtered by seat, purpose, rule, check and seq.

import { badge, die, h, put, scrolling } from "../dom.js";
import { canonical, isObject } from "../json.js";
import { base, go, stateOf } from "../nav.js";

/** The roll ledger's filters, kept while the game is open. */
const kept = () => stateOf("rolls", () => ({ filters: /** @type {Record<string, string>} */ ({}) }));

function neededText(r) {
  const res = r.result;
  if (!isObject(res)) return "";
  const parts = [];
  if (res.target != null) parts.push(`target ${res.target}`);
  if (res.active != null || res.passive != null)
    parts.push(`active ${res.active ?? "—"} vs passive ${res.passive ?? "—"}`);
  for (const m of res.modifiers || []) parts.push(`${m.value > 0 ? "+" : ""}${m.value} ${m.reason}`);
  if (res.total != null) parts.push(`total ${res.total}`);
  return parts.join("; ");
}

function facesEl(r) {
  if (!Array.isArray(r.faces) || !Array.isArray(r.sides)) return canonical(r.faces);
  if (r.faces.length > 8)
    return h(
      "span",
      { class: "faces-long", title: `dice ${canonical(r.sides)}` },
      `${r.faces.length} dice: ${r.faces.join(" ")}`,
    );
  return h(
    "span",
    { class: "faces" },
    r.faces.map((f, i) => die(f, r.sides[i])),
  );
}

/** The mark of a roll made by a simultaneous step's last submission: its sender did not roll for its own orders alone. */
function closedStep(r) {
  return h(
    "span",
    {
      class: "muted small",
      title: `this command closed a simultaneous step, opening every seat's orders at seq ${r.opened}: its rolls are made for each seat's orders (the purpose says whose)`,
    },
    " (closed the step)",
  );
}

const FILTERS = [
  ["seat", "Sent by"], // the seat whose command rolled it (a roll may concern another: its outcome says)
  ["purpose", "Purpose"],
  ["rule", "Rule"],
  ["status", "Check"],
];

export function drawRolls(el, g) {
  const f = kept().filters;
  const selects = FILTERS.map(([key, label]) => {
    const sel = h("select", { id: `filter-${key}`, onchange: (e) => ((f[key] = e.target.value), fill()) });
    return h("label", {}, label, sel);
  });
  const from = h("input", {
    type: "number",
    id: "filter-from",
    min: 1,
    placeholder: "from",
    value: f.from ?? "",
    oninput: (e) => ((f.from = e.target.value), fill()),
  });
  const to = h("input", {
    type: "number",
    id: "filter-to",
    min: 1,
    placeholder: "to",
    value: f.to ?? "",
    oninput: (e) => ((f.to = e.target.value), fill()),
  });
  const count = h("span", { class: "count", id: "rolls-count" });
  const table = h("table", { class: "grid rolls", id: "rolls-table" });
  put(
    el,
    h(
      "div",
      { class: "filters" },
      selects,
      h("label", {}, "Seq", from, "–", to),
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => ((kept().filters = {}), drawRolls(el, g)) },
        "clear",
      ),
      count,
    ),
    g.rolls.length
      ? scrolling(table, "the roll ledger")
      : h(
          "p",
          { class: "empty" },
          "No rolls yet: a game rolls its first die in its first command after the seeds lock.",
        ),
  );
  function options() {
    selects.forEach((lab, i) => {
      const key = FILTERS[i][0];
      const sel = lab.querySelector("select");
      const values = [...new Set(g.rolls.map((r) => String(r[key] ?? "—")))].sort();
      put(
        sel,
        h("option", { value: "" }, "all"),
        values.map((v) => h("option", { value: v, selected: f[key] === v }, v)),
      );
    });
  }
  function fill() {
    const shown = g.rolls.filter(
      (r) =>
        FILTERS.every(([key]) => !f[key] || String(r[key] ?? "—") === f[key]) &&
        (!f.from || r.seq >= Number(f.from)) &&
        (!f.to || r.seq <= Number(f.to)),
    );
    count.textContent = `showing ${shown.length} of ${g.rolls.length} rolls`;
    put(
      table,
      h(
        "tr",
        {},
        ["k", "seq", "sent by", "purpose", "rule", "faces", "what it needed", "outcome", "check"].map((t) =>
          h("th", {}, t),
        ),
      ),
      shown.map((r) =>
        h(
          "tr",
          { class: `roll ${r.status}`, dataset: { k: r.k, status: r.status }, onclick: () => go(`/roll/${r.k}`) },
          h("td", {}, h("a", { href: `${base()}/roll/${r.k}` }, String(r.k))),
          h("td", { class: "num" }, r.seq),
          h("td", {}, r.seat ?? "—", r.opened != null ? closedStep(r) : null),
          h("td", {}, r.purpose),
          h("td", { class: "rule" }, r.rule),
          h("td", {}, facesEl(r)),
          h("td", { class: "small" }, neededText(r)),
          h("td", { class: "small" }, isObject(r.result) ? r.result.outcome : ""),
          h(
            "td",
            {},
            badge(r.status),
            r.inChain
              ? ""
              : h(
                  "span",
                  { class: "badge fail", title: "the chain breaks at or before this event" },
                  "not in the valid chain",
                ),
          ),
        ),
      ),
    );
  }
  options();
  fill();
  return (what) => {
    if (what === "checks" || what === "events") {
      options();
      fill();
    }
  };
}

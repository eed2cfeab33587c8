// The log: every event with its place in the chain (the first broken link marked, what follows it unproven).

import { badge, h, put } from "../dom.js";
import { canonical, pretty } from "../json.js";
import { ui } from "../nav.js";

export function drawEvents(el, g, focus) {
  const types = [...new Set(g.events.map((e) => e.body.type))].sort();
  const sel = h(
    "select",
    { id: "event-type", onchange: (e) => ((ui.eventType = e.target.value), fill()) },
    h("option", { value: "" }, "all types"),
    types.map((t) => h("option", { value: t, selected: ui.eventType === t }, t)),
  );
  const table = h("table", { class: "grid events", id: "events-table" });
  const more = h("p", {});
  put(el, h("div", { class: "filters" }, h("label", {}, "Type", sel)), table, more);
  function fill() {
    const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
    const list = g.events.filter((e) => !ui.eventType || e.body.type === ui.eventType);
    let start = 0;
    if (focus) start = Math.max(0, list.findIndex((e) => e.body.seq >= focus) - 5);
    const shown = list.slice(start, start + ui.eventsShown);
    put(
      table,
      h(
        "tr",
        {},
        ["seq", "type", "command", "seat", "data", "chain"].map((t) => h("th", {}, t)),
      ),
      shown.map((e) => {
        const place = g.events.indexOf(e) + 1;
        const state = bad === null || place < bad ? "ok" : place === bad ? "bad" : "after";
        const data = canonical(e.body.data ?? null);
        return h(
          "tr",
          { class: `ev ${state}`, id: `ev-${place}`, dataset: { seq: place } },
          h("td", { class: "num" }, String(e.body.seq)),
          h("td", {}, e.body.type),
          h("td", { class: "small" }, e.body.command ?? ""),
          h("td", {}, g.seatOf(e) ?? ""),
          h(
            "td",
            { class: "small data" },
            data.length > 160 && place !== focus
              ? h(
                  "details",
                  {},
                  h("summary", {}, data.slice(0, 160) + "…"),
                  h("pre", { class: "json" }, pretty(e.body.data)),
                )
              : h("code", {}, data),
          ),
          h(
            "td",
            {},
            state === "ok"
              ? "✓"
              : state === "bad"
                ? badge("fail", "✗ first bad")
                : h("span", { class: "muted", title: "after the first broken link: not proven" }, "—"),
          ),
        );
      }),
    );
    put(
      more,
      start + ui.eventsShown < list.length
        ? h(
            "button",
            { type: "button", class: "secondary", onclick: () => ((ui.eventsShown += 500), fill()) },
            `show more (${list.length - start - ui.eventsShown} left)`,
          )
        : null,
    );
    if (focus) {
      const row = document.getElementById(`ev-${focus}`);
      if (row) row.scrollIntoView({ block: "center" });
    }
  }
  fill();
  return (what) => {
    if (what === "events" || what === "checks") fill();
  };
}

// @ts-check
// The log: every event with its place in the chain (the first broken link marked, what follows it unproven).

import { badge, h, put, scrolling } from "../dom.js";
import { canonical, pretty } from "../json.js";
import { stateOf } from "../nav.js";
import { expectedHash } from "../verify.js";

/** The event type shown (all: "") and how many events are listed. */
const kept = () => stateOf("events", () => ({ type: "", shown: 200 }));

export function drawEvents(el, g, focus) {
  const types = [...new Set(g.events.map((e) => e.body.type))].sort();
  const sel = h(
    "select",
    { id: "event-type", onchange: (e) => ((kept().type = e.target.value), fill()) },
    h("option", { value: "" }, "all types"),
    types.map((t) => h("option", { value: t, selected: kept().type === t }, t)),
  );
  const table = h("table", { class: "grid events", id: "events-table" });
  const more = h("p", {});
  const broken = h("div", { id: "broken-link" });
  put(el, broken, h("div", { class: "filters" }, h("label", {}, "Type", sel)), scrolling(table, "the events"), more);
  explainBreak(broken, g);
  function fill() {
    const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
    const list = g.events.filter((e) => !kept().type || e.body.type === kept().type);
    let start = 0;
    if (focus) start = Math.max(0, list.findIndex((e) => e.body.seq >= focus) - 5);
    const shown = list.slice(start, start + kept().shown);
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
      start + kept().shown < list.length
        ? h(
            "button",
            { type: "button", class: "secondary", onclick: () => ((kept().shown += 500), fill()) },
            `show more (${list.length - start - kept().shown} left)`,
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

/** Above the log of a broken chain: which event fails, and its stored hash against the one the chain demands. */
async function explainBreak(el, g) {
  const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
  if (bad === null) return;
  const e = g.events[bad - 1];
  const expected = e && e.body.seq === bad ? await expectedHash(g.events, bad) : null;
  const lines = [h("p", {}, h("b", {}, `Event ${bad} does not verify.`))];
  if (e && e.body.seq !== bad) {
    lines.push(
      h("p", {}, `It says seq ${e.body.seq} but stands at place ${bad}: an event was dropped, added or moved.`),
    );
  } else if (expected !== null && expected !== e.hash) {
    lines.push(
      h("p", {}, "Stored hash: ", h("code", {}, e.hash)),
      h("p", {}, `SHA-256(hash of event ${bad - 1} ‖ canonical body of event ${bad}): `, h("code", {}, expected)),
      h("p", {}, "They differ: the body or the hash was changed after the event was recorded."),
    );
  } else {
    lines.push(h("p", {}, `Its hash links, but: ${g.checks.chain.detail}.`)); // the head, the game id or the header
  }
  lines.push(h("p", { class: "muted" }, "The events after it (—) are not proven: their hashes build on this one."));
  put(el, h("div", { class: "notice bad-link" }, lines));
}

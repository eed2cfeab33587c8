// @ts-check
// The views the rules engine draws, fetched from the server at a seq and shown as pictures.

import { errorText, h, put } from "../dom.js";
import { position, stateOf } from "../nav.js";
import { orderedViews, renderView } from "../pictures/index.js";

/** Buttons for the game's views; `marked` names the views to flag (those a roll changed). */
export function viewPicker(g, onPick, marked = new Set()) {
  const names = orderedViews(
    g.ruleset.id,
    g.views.map((v) => v.name),
  );
  const at = position();
  if (!at.view || !names.includes(at.view)) at.view = names[0] ?? null; // the ruleset's first drawing, if any
  const bar = h("div", { class: "view-tabs", role: "tablist" });
  const fill = () =>
    put(
      bar,
      names.map((n) =>
        h(
          "button",
          {
            type: "button",
            class: n === at.view ? "active" : "",
            dataset: { view: n },
            title: marked.has(n) ? "changed by this roll" : null,
            onclick: () => ((at.view = n), fill(), onPick(n)),
          },
          n,
          marked.has(n) ? " •" : "",
        ),
      ),
    );
  fill();
  return bar;
}

/** Where the views come from: the server that holds this game, or nowhere yet (a bundle file). */
export function noViews(g, el, redraw) {
  if (g.source === "live") return h("p", { class: "muted" }, "This ruleset has no views.");
  const m = g.match;
  return h(
    "div",
    { class: "no-views" },
    h(
      "p",
      {},
      "Pictures (map, sheets, charts) are drawn by the rules engine, which runs on a server, not in this page.",
    ),
    m && m.state !== "asking" ? h("p", { class: "notice" }, m.detail) : null,
    h(
      "p",
      {},
      h(
        "button",
        {
          type: "button",
          id: "ask-server",
          disabled: m && m.state === "asking",
          onclick: async () => (await g.askServer(), redraw()),
        },
        "Look for this game on this server",
      ),
      " sends only the game id; the pictures are used only if the server's event at the file's last seq has the same hash.",
    ),
  );
}

/** For a bundle file, where its pictures come from (the only thing on the page the server draws). */
export function viewsSource(g) {
  if (g.source !== "bundle" || !g.match || g.match.state !== "yes") return null;
  return h("p", { class: "hint", id: "views-source" }, `Pictures drawn by this server: ${g.match.detail}.`);
}

export async function showView(el, g, name, at) {
  const box = h(
    "div",
    { class: "view-box", dataset: { view: name, at } },
    h("p", { class: "loading" }, `drawing ${name} after event ${at}…`),
  );
  put(el, box);
  try {
    const v = await g.viewAt(name, at);
    const genesis = g.events[0].body.data || {};
    const ctx = {
      game: g,
      at,
      seats: Array.isArray(genesis.seats) ? genesis.seats : [],
      view: async (/** @type {string} */ other) => (await g.viewAt(other, at)).data,
      states: stateOf("pictures", () => new Map()),
    };
    put(box, renderView(g.ruleset.id, name, v.data, ctx));
    box.dataset.ready = "1";
  } catch (e) {
    put(box, h("p", { class: "notice" }, `the server could not draw ${name} at ${at}: ${errorText(e)}`));
  }
}

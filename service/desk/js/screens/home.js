// @ts-check
// The first screen: open a live game or a bundle file; what the checks mean; the desk's self-test.

import * as api from "../api.js";
import { engineName } from "../crypto.js";
import { h, put } from "../dom.js";
import { loadVectors, runVectors } from "../selftest.js";

/** @param {HTMLElement} main @param {(file: File) => void} openFile @param {string | null} [message] */
export function drawHome(main, openFile, message = null) {
  const recent = h("div", { id: "recent-games" });
  listRecent(recent);
  document.title = "Referee's desk — Naval Umpire";
  const input = h("input", {
    name: "game",
    id: "game-id",
    placeholder: "e.g. g-3f2a9c0d1e7b4a55",
    required: true,
    autocomplete: "off",
    spellcheck: "false",
  });
  const picker = h("input", {
    type: "file",
    id: "bundle-file",
    accept: ".json,application/json",
    class: "visually-hidden",
    onchange: (e) => e.target.files[0] && openFile(e.target.files[0]),
  });
  const selftestOut = h("div", { id: "selftest-out" });
  put(
    main,
    h(
      "section",
      { class: "home" },
      h("h1", {}, "The referee's desk"),
      h(
        "p",
        { class: "lede" },
        "Open a game's record and check it yourself. This page recomputes every link of the event chain and every die roll ",
        h("b", {}, "in your browser"),
        ", from the published specifications: it does not take the server's word for anything.",
      ),
      message ? h("p", { class: "notice", role: "alert" }, message) : null,
      h(
        "div",
        { class: "cards" },
        h(
          "form",
          {
            class: "card",
            id: "open-live",
            onsubmit: (e) => (e.preventDefault(), (location.hash = `#/live/${encodeURIComponent(input.value.trim())}`)),
          },
          h("h2", {}, "A game on this server"),
          h("label", { for: "game-id" }, "Game id"),
          h("div", { class: "row" }, input, h("button", { type: "submit" }, "Open")),
          h("p", { class: "hint" }, "Follows the game live: new events appear as they are played."),
          recent,
        ),
        h(
          "div",
          { class: "card drop", id: "drop-zone" },
          h("h2", {}, "A bundle file"),
          h(
            "p",
            {},
            "Drop a bundle (.json) here, or ",
            h("label", { for: "bundle-file", class: "button" }, "choose a file"),
            picker,
          ),
          h("p", { class: "hint" }, "The file is read in this browser: nothing is uploaded."),
        ),
      ),
      h(
        "details",
        { class: "card explain" },
        h("summary", {}, "What does “verified” mean here?"),
        h(
          "ul",
          {},
          h(
            "li",
            {},
            h("b", {}, "Chain: "),
            "each event's hash is SHA-256 of the previous hash and the event; changing, dropping or moving any event breaks every hash after it, and the desk names the first one.",
          ),
          h(
            "li",
            {},
            h("b", {}, "Dice: "),
            "before play the server publishes SHA-256 of a secret seed; the seats add their own seeds; when the referee reveals the secret, every roll can be recomputed from it alone. A roll marked ✓ is exactly what the seeds give: the server could not have chosen it.",
          ),
          h(
            "li",
            {},
            h("b", {}, "Pending: "),
            "until the seed is revealed, rolls cannot be recomputed yet; the chain still proves nothing was changed since it was published.",
          ),
          h(
            "li",
            {},
            h("b", {}, "Forks: "),
            "a game forked from another carries the parent's events up to the fork; the desk checks that part too, and that it ends exactly where the fork says it starts.",
          ),
          h(
            "li",
            {},
            h("b", {}, "Replay: "),
            "re-running the commands through the rules needs the rules engine; the desk leaves that to `umpire verify` or the server, and says so.",
          ),
        ),
      ),
      h(
        "details",
        { class: "card" },
        h("summary", {}, "Check the desk itself"),
        h("p", {}, "Run the dice scheme's published test vectors through this page's own code (", engineName(), ")."),
        h("button", { type: "button", id: "selftest", onclick: () => selfTest(selftestOut) }, "Run the test vectors"),
        selftestOut,
      ),
    ),
  );
}

async function selfTest(out) {
  put(out, h("p", { class: "loading" }, "Computing… (20,000 rolls take a second or two)"));
  const results = await runVectors(await loadVectors());
  const bad = results.filter((r) => !r.ok).length;
  put(
    out,
    h(
      "p",
      { class: bad ? "verdict fail" : "verdict pass", id: "selftest-verdict" },
      bad ? `✗ ${bad} of ${results.length} vectors differ` : `✓ all ${results.length} vectors match`,
    ),
    h(
      "ul",
      { class: "plain small" },
      results.map((r) =>
        h(
          "li",
          {},
          r.ok ? "✓ " : "✗ ",
          r.name,
          r.ok ? "" : ` — got ${JSON.stringify(r.got)}, want ${JSON.stringify(r.want)}`,
        ),
      ),
    ),
  );
}

/** The newest games on this server, to open with a click (the server's list; each game is checked when opened). */
async function listRecent(el) {
  let games;
  try {
    games = await api.listGames(12);
  } catch {
    return; // an older server without GET /games: the id box is enough
  }
  /** @type {Map<string, string>} */
  const titles = new Map();
  for (const r of await api.rulesets().catch(() => [])) titles.set(r.id, r.title);
  if (!games.length) return put(el, h("p", { class: "hint" }, "No games on this server yet."));
  put(
    el,
    h("p", { class: "hint" }, "Or one of the newest:"),
    h(
      "table",
      { class: "grid small" },
      games.map((g) =>
        h(
          "tr",
          {},
          h("td", {}, h("a", { href: `#/live/${encodeURIComponent(g.id)}` }, h("code", {}, g.id))),
          h("td", { title: g.ruleset }, titles.get(g.ruleset) ?? g.ruleset),
          h("td", {}, g.status),
          h("td", { class: "num" }, `${g.version} events`),
        ),
      ),
    ),
  );
}

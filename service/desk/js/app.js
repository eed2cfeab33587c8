// The referee's desk: screens and navigation. Verification lives in verify.js, the server in api.js,
// drawings in pictures/. Routes: #/ (home), #/live/<game id>[/<tab>[/<arg>]], #/file[/<tab>[/<arg>]].

import { ApiError } from "./api.js";
import * as api from "./api.js";
import { engineName, unhex } from "./crypto.js";
import { add, badge, clear, copyButton, die, h, put, s, short } from "./dom.js";
import { Game } from "./game.js";
import { canonical, isObject, pretty } from "./json.js";
import { FIRST_VIEW, jsonTree, orderedViews, renderView } from "./pictures/index.js";
import { loadVectors, runVectors } from "./selftest.js";
import { opensslLines, roller } from "./umpire1.js";

const main = document.getElementById("main");
let current = null; // {key, game}
let fileGame = null; // the last bundle opened (kept in memory only)
let screen = null; // what is drawn now, to refresh on changes
const ui = { filters: {}, eventsShown: 200, eventType: "", view: null, timelineSeq: null };

// ---------------------------------------------------------------- navigation

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "live" && parts[1]) return { key: `live/${parts[1]}`, id: parts[1], tab: parts[2] || "rolls", arg: parts[3] };
  if (parts[0] === "file") return { key: "file", tab: parts[1] || "rolls", arg: parts[2] };
  return { key: "home" };
}

function base() {
  return current.key === "file" ? "#/file" : `#/live/${encodeURIComponent(current.game.id)}`;
}

function go(path, replace = false) {
  const url = base() + path;
  if (replace) history.replaceState(null, "", url);
  else location.hash = url;
}

async function route() {
  const r = parseRoute();
  if (r.key === "home") {
    leaveGame();
    return drawHome();
  }
  if (!current || current.key !== r.key) {
    leaveGame();
    if (r.key === "file") {
      if (!fileGame) return drawHome("Open the bundle file again: a file is kept only while this page is open.");
      current = { key: "file", game: fileGame };
    } else {
      put(main, h("p", { class: "loading" }, `Loading game ${r.id} and checking its chain…`));
      try {
        current = { key: r.key, game: await Game.live(r.id) };
      } catch (e) {
        current = null;
        return drawHome(e instanceof ApiError && e.status === 404 ? `This server has no game "${r.id}". Check the id.` : `Could not open game ${r.id}: ${e.message}`);
      }
      current.game.follow();
    }
    current.game.addEventListener("change", onChange);
    Object.assign(ui, { filters: {}, eventsShown: 200, eventType: "", view: null, timelineSeq: null, checksOpen: null });
  }
  drawGame(r);
}

function leaveGame() {
  if (current) {
    current.game.removeEventListener("change", onChange);
    current.game.stop();
  }
  current = null;
  screen = null;
}

let pending = null;
function onChange(e) {
  // a burst of live events is drawn once
  if (pending) return;
  pending = requestAnimationFrame(() => {
    pending = null;
    if (!screen) return;
    screen.head();
    screen.checks();
    if (screen.update) screen.update(e.detail);
  });
}

window.addEventListener("hashchange", route);

// ---------------------------------------------------------------- home

function drawHome(message = null) {
  document.title = "Referee's desk — Naval Umpire";
  const input = h("input", { name: "game", id: "game-id", placeholder: "e.g. g-3f2a9c0d1e7b4a55", required: true, autocomplete: "off", spellcheck: "false" });
  const picker = h("input", { type: "file", id: "bundle-file", accept: ".json,application/json", class: "visually-hidden", onchange: (e) => e.target.files[0] && openFile(e.target.files[0]) });
  const selftestOut = h("div", { id: "selftest-out" });
  put(main, 
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
          { class: "card", id: "open-live", onsubmit: (e) => (e.preventDefault(), (location.hash = `#/live/${encodeURIComponent(input.value.trim())}`)) },
          h("h2", {}, "A game on this server"),
          h("label", { for: "game-id" }, "Game id"),
          h("div", { class: "row" }, input, h("button", { type: "submit" }, "Open")),
          h("p", { class: "hint" }, "Follows the game live: new events appear as they are played."),
        ),
        h(
          "div",
          { class: "card drop", id: "drop-zone" },
          h("h2", {}, "A bundle file"),
          h("p", {}, "Drop a bundle (.json) here, or ", h("label", { for: "bundle-file", class: "button" }, "choose a file"), picker),
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
          h("li", {}, h("b", {}, "Chain: "), "each event's hash is SHA-256 of the previous hash and the event; changing, dropping or moving any event breaks every hash after it, and the desk names the first one."),
          h("li", {}, h("b", {}, "Dice: "), "before play the server publishes SHA-256 of a secret seed; the seats add their own seeds; when the referee reveals the secret, every roll can be recomputed from it alone. A roll marked ✓ is exactly what the seeds give: the server could not have chosen it."),
          h("li", {}, h("b", {}, "Pending: "), "until the seed is revealed, rolls cannot be recomputed yet; the chain still proves nothing was changed since it was published."),
          h("li", {}, h("b", {}, "Replay: "), "re-running the commands through the rules needs the rules engine; the desk leaves that to `umpire verify` or the server, and says so."),
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
  put(out, 
    h("p", { class: bad ? "verdict fail" : "verdict pass", id: "selftest-verdict" }, bad ? `✗ ${bad} of ${results.length} vectors differ` : `✓ all ${results.length} vectors match`),
    h("ul", { class: "plain small" }, results.map((r) => h("li", {}, r.ok ? "✓ " : "✗ ", r.name, r.ok ? "" : ` — got ${JSON.stringify(r.got)}, want ${JSON.stringify(r.want)}`))),
  );
}

async function openFile(file) {
  const text = await file.text();
  try {
    const g = await Game.fromBundleText(text, file.name);
    leaveGame();
    fileGame = g;
    if (location.hash === "#/file") route();
    else location.hash = "#/file";
  } catch (e) {
    drawHome(`${file.name}: ${e.message}`);
  }
}

document.addEventListener("dragover", (e) => {
  e.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", (e) => {
  if (!e.relatedTarget) document.body.classList.remove("dragging");
});
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dragging");
  const f = e.dataTransfer.files[0];
  if (f) openFile(f);
});

// ---------------------------------------------------------------- the game screen

const TABS = [
  ["rolls", "Rolls"],
  ["timeline", "Pictures & timeline"],
  ["events", "Events"],
  ["referee", "Referee"],
];

function drawGame(r) {
  const g = current.game;
  document.title = `${g.id} — Referee's desk`;
  const headEl = h("section", { class: "game-head", id: "game-head" });
  const checksEl = h("section", { class: "checks", id: "checks" });
  const tabsEl = h("nav", { class: "tabs", role: "tablist" });
  const body = h("section", { class: "tab-body", id: "tab-body" });
  put(main, headEl, checksEl, tabsEl, body);
  const tab = r.tab === "roll" ? "rolls" : r.tab;
  for (const [id, label] of TABS) {
    if (id === "referee" && g.source !== "live") continue;
    const count = id === "rolls" ? ` (${g.rolls.length})` : id === "events" ? ` (${g.events.length})` : "";
    add(tabsEl, h("a", { href: `${base()}/${id}`, class: id === tab ? "tab active" : "tab", role: "tab", id: `tab-${id}` }, label, h("span", { class: "count" }, count)));
  }
  screen = {
    head: () => drawHead(headEl, g),
    checks: () => drawChecks(checksEl, g),
    update: null,
  };
  screen.head();
  screen.checks();
  const refreshTabs = () => {
    for (const a of tabsEl.querySelectorAll(".tab")) {
      const id = a.id.slice(4);
      const c = a.querySelector(".count");
      if (c) c.textContent = id === "rolls" ? ` (${g.rolls.length})` : id === "events" ? ` (${g.events.length})` : "";
    }
  };
  let update;
  if (r.tab === "roll") update = drawRoll(body, g, Number(r.arg));
  else if (tab === "timeline") update = drawTimeline(body, g, r.arg ? Number(r.arg) : null);
  else if (tab === "events") update = drawEvents(body, g, r.arg ? Number(r.arg) : null);
  else if (tab === "referee") update = drawReferee(body, g);
  else update = drawRolls(body, g);
  screen.update = (what) => {
    refreshTabs();
    if (update) update(what);
  };
}

function drawHead(el, g) {
  const d = g.header.dice;
  const fair = d.mode === "fair";
  const source =
    g.source === "bundle"
      ? [h("span", {}, "From the file ", h("b", {}, g.fileName), " — read in this browser, nothing uploaded")]
      : [
          h("span", { class: `stream ${g.stream}`, id: "stream-state" }, { live: "● live: new events appear as they are played", connecting: "○ connecting…", reconnecting: "○ reconnecting…", closed: "○ not following" }[g.stream] || ""),
          g.summary ? h("span", {}, ` · server status: ${g.summary.status}`) : null,
          " · ",
          h("a", { href: `/games/${encodeURIComponent(g.id)}/bundle`, download: `${g.id}.json` }, "download the bundle"),
        ];
  put(el, 
    h(
      "div",
      { class: "title-row" },
      h("h1", {}, "Game ", h("code", { id: "game-title" }, g.id)),
      h("span", { class: "pill" }, `${g.ruleset.id} ${g.ruleset.version}`),
      h(
        "span",
        { class: fair ? "pill ok" : "pill warn", title: fair ? "the server committed to its secret seed before any seat's seed" : "the creator chose the server seed: fine for tests and tutorials, no fairness claim" },
        fair ? "fair dice" : `${d.mode} dice: no fairness claim`,
      ),
      h("a", { href: "#/", class: "close" }, "open another"),
    ),
    h("p", { class: "meta" }, source),
    h("p", { class: "meta" }, `${g.events.length} events · ${g.rolls.length} rolls · head `, h("code", { title: g.header.head }, short(g.header.head, 16))),
  );
}

const CHECK_NAMES = { chain: "Event chain", dice: "Dice", sealed: "Sealed inputs", replay: "Replay" };

function verdictOf(g) {
  const c = g.checks;
  if (c.chain.status === "fail") return ["fail", `✗ The record was altered or is inconsistent: the chain breaks at event seq ${c.chain.first_bad_seq}.`];
  if (c.dice.status === "fail") return ["fail", `✗ A roll does not match the seeds: ${c.dice.first_bad_k !== null ? `roll k=${c.dice.first_bad_k}` : "the seed inputs"} (seq ${c.dice.first_bad_seq}).`];
  if (c.sealed.status === "fail") return ["fail", `✗ A revealed sealed input does not match its commitment (seq ${c.sealed.first_bad_seq}).`];
  if (c.dice.status === "skipped") return ["pending", `… The chain is intact. The ${g.rolls.length} rolls can be recomputed once the referee reveals the server seed.`];
  return ["pass", `✓ Every event chains and every one of the ${g.rolls.length} rolls is what the seeds give — checked in this browser.`];
}

function drawChecks(el, g) {
  if (!g.checks) return;
  const [status, text] = verdictOf(g);
  const rows = Object.entries(g.checks).map(([name, c]) => {
    const link =
      name === "chain" && c.status === "fail"
        ? h("a", { href: `${base()}/events/${c.first_bad_seq}` }, `show event ${c.first_bad_seq}`)
        : name === "dice" && c.status === "fail" && c.first_bad_k !== null
          ? h("a", { href: `${base()}/roll/${c.first_bad_k}` }, `show roll k=${c.first_bad_k}`)
          : name === "sealed" && c.status === "fail"
            ? h("a", { href: `${base()}/events/${c.first_bad_seq}` }, `show event ${c.first_bad_seq}`)
            : null;
    return h("tr", { id: `check-${name}`, dataset: { status: c.status, firstBadSeq: c.first_bad_seq ?? "", firstBadK: c.first_bad_k ?? "" } }, h("th", {}, CHECK_NAMES[name]), h("td", {}, badge(c.status)), h("td", { class: "detail" }, c.detail, link ? [" — ", link] : null));
  });
  const extra = [];
  if (g.source === "bundle") {
    const rep = g.serverReport;
    extra.push(
      h(
        "p",
        { class: "hint" },
        h("button", { type: "button", class: "secondary", id: "ask-server-verify", onclick: () => g.askServerToVerify() }, "Ask this server to replay it"),
        " sends the bundle file to this server, which re-runs every command through the rules and answers with its own report.",
      ),
    );
    if (rep && rep.state === "asking") extra.push(h("p", { class: "loading" }, "the server is replaying…"));
    if (rep && rep.state === "error") extra.push(h("p", { class: "notice" }, `the server could not: ${rep.detail}`));
    if (rep && rep.state === "done") {
      extra.push(
        h(
          "div",
          { class: "server-report", id: "server-report" },
          h("p", {}, "The server's own report (its word, not this page's): verdict ", h("b", {}, rep.report.verdict)),
          h("ul", { class: "plain small" }, Object.entries(rep.report.checks).map(([n, c]) => h("li", {}, badge(c.status), ` ${n}: ${c.detail}`))),
        ),
      );
    }
  }
  const anyBad = Object.values(g.checks).some((c) => c.status === "fail");
  const open = ui.checksOpen ?? anyBad;
  put(
    el,
    h("h2", {}, "What this browser checked"),
    h("p", { class: `verdict ${status}`, id: "verdict" }, text),
    h(
      "details",
      { class: "check-details", open, ontoggle: (e) => (ui.checksOpen = e.target.open) },
      h(
        "summary",
        {},
        Object.entries(g.checks).map(([name, c]) => h("span", { class: "chip" }, `${CHECK_NAMES[name]} `, badge(c.status))),
        h("span", { class: "more" }),
      ),
      h("table", { class: "checks-table" }, rows),
      h("p", { class: "hint" }, `Hashes and HMACs by ${engineName()}; the code is this page's own (service/desk/js), written from spec/DICE.md and spec/EVENTS.md.`),
    ),
    extra,
  );
}

// ---------------------------------------------------------------- rolls

function neededText(r) {
  const res = r.result;
  if (!isObject(res)) return "";
  const parts = [];
  if (res.target != null) parts.push(`target ${res.target}`);
  if (res.active != null || res.passive != null) parts.push(`active ${res.active ?? "—"} vs passive ${res.passive ?? "—"}`);
  for (const m of res.modifiers || []) parts.push(`${m.value > 0 ? "+" : ""}${m.value} ${m.reason}`);
  if (res.total != null) parts.push(`total ${res.total}`);
  return parts.join("; ");
}

function facesEl(r) {
  if (!Array.isArray(r.faces) || !Array.isArray(r.sides)) return canonical(r.faces);
  if (r.faces.length > 8) return h("span", { class: "faces-long", title: `dice ${canonical(r.sides)}` }, `${r.faces.length} dice: ${r.faces.join(" ")}`);
  return h("span", { class: "faces" }, r.faces.map((f, i) => die(f, r.sides[i])));
}

const FILTERS = [
  ["seat", "Seat"],
  ["purpose", "Purpose"],
  ["rule", "Rule"],
  ["status", "Check"],
];

function drawRolls(el, g) {
  const f = ui.filters;
  const selects = FILTERS.map(([key, label]) => {
    const sel = h("select", { id: `filter-${key}`, onchange: (e) => ((f[key] = e.target.value), fill()) });
    return h("label", {}, label, sel);
  });
  const from = h("input", { type: "number", id: "filter-from", min: 1, placeholder: "from", value: f.from ?? "", oninput: (e) => ((f.from = e.target.value), fill()) });
  const to = h("input", { type: "number", id: "filter-to", min: 1, placeholder: "to", value: f.to ?? "", oninput: (e) => ((f.to = e.target.value), fill()) });
  const count = h("span", { class: "count", id: "rolls-count" });
  const table = h("table", { class: "grid rolls", id: "rolls-table" });
  put(el, 
    h(
      "div",
      { class: "filters" },
      selects,
      h("label", {}, "Seq", from, "–", to),
      h("button", { type: "button", class: "secondary", onclick: () => ((ui.filters = {}), drawRolls(el, g)) }, "clear"),
      count,
    ),
    g.rolls.length ? table : h("p", { class: "empty" }, "No rolls yet: a game rolls its first die in its first command after the seeds lock."),
  );
  function options() {
    selects.forEach((lab, i) => {
      const key = FILTERS[i][0];
      const sel = lab.querySelector("select");
      const values = [...new Set(g.rolls.map((r) => String(r[key] ?? "—")))].sort();
      put(sel, h("option", { value: "" }, "all"), values.map((v) => h("option", { value: v, selected: f[key] === v }, v)));
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
    put(table, 
      h("tr", {}, ["k", "seq", "seat", "purpose", "rule", "faces", "what it needed", "outcome", "check"].map((t) => h("th", {}, t))),
      shown.map((r) =>
        h(
          "tr",
          { class: `roll ${r.status}`, dataset: { k: r.k, status: r.status }, onclick: () => go(`/roll/${r.k}`) },
          h("td", {}, h("a", { href: `${base()}/roll/${r.k}` }, String(r.k))),
          h("td", { class: "num" }, r.seq),
          h("td", {}, r.seat ?? "—"),
          h("td", {}, r.purpose),
          h("td", { class: "rule" }, r.rule),
          h("td", {}, facesEl(r)),
          h("td", { class: "small" }, neededText(r)),
          h("td", { class: "small" }, isObject(r.result) ? r.result.outcome : ""),
          h("td", {}, badge(r.status), r.inChain ? "" : h("span", { class: "badge fail", title: "the chain breaks at or before this event" }, "not in the valid chain")),
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

// ---------------------------------------------------------------- one roll

const STATUS_LINE = {
  verified: "✓ Verified: the seeds give exactly these faces.",
  mismatch: "✗ Mismatch: the seeds give other faces.",
  pending: "… Pending: the server seed is not revealed yet.",
  unverifiable: "✗ Cannot be checked: the seed inputs are not trustworthy.",
};

function drawRoll(el, g, k) {
  const draw = async () => {
    const i = g.rolls.findIndex((x) => x.k === k);
    const r = g.rolls[i];
    if (!r) return put(el, h("p", { class: "empty" }, `No roll k=${k} in this game (yet).`));
    const prev = g.rolls[i - 1];
    const next = g.rolls[i + 1];
    const nav = h(
      "div",
      { class: "roll-nav" },
      h("a", { href: `${base()}/rolls` }, "← all rolls"),
      prev ? h("a", { href: `${base()}/roll/${prev.k}`, id: "prev-roll" }, `‹ roll ${prev.k}`) : null,
      next ? h("a", { href: `${base()}/roll/${next.k}`, id: "next-roll" }, `roll ${next.k} ›`) : null,
      h("a", { href: `${base()}/timeline/${r.seq}` }, "see it on the timeline"),
    );
    const head = h("h2", { id: "roll-title" }, `Roll k=${r.k} `, h("span", { class: "muted" }, `at event seq ${r.seq}`), " ", badge(r.status));
    const genuine = {
      verified: `The faces are exactly what the revealed server seed and the locked client seeds give for roll ${r.k} with these dice. ${g.fairness()}`,
      mismatch: `These faces are NOT what the seeds give: ${r.detail}. The record was changed after the roll, or the server did not use the seed it committed to.`,
      pending: "The server seed is still secret, so this roll cannot be recomputed yet. Its commitment (SHA-256 of the seed) is in the game's first event; once the referee reveals the seed, this page recomputes the roll.",
      unverifiable: r.detail,
    }[r.status];
    const others = g.rolls.filter((x) => x.rerolls === r.k);
    const why = h(
      "section",
      { class: "card" },
      h("h3", {}, "Why it was rolled"),
      h("p", {}, h("b", {}, r.purpose), " — rule ", h("code", {}, r.rule)),
      r.rerolls != null ? h("p", {}, `A re-roll of roll k=${r.rerolls}, as a rule allows.`) : null,
      others.length ? h("p", {}, `Superseded by the re-roll k=${others.map((x) => x.k).join(", ")}.`) : null,
      h("div", { id: "roll-command" }, h("p", { class: "loading" }, "finding the command…")),
    );
    const res = isObject(r.result) ? r.result : null;
    const needed = h(
      "section",
      { class: "card" },
      h("h3", {}, "What it needed"),
      res && (res.target != null || res.active != null || res.passive != null || (res.modifiers || []).length)
        ? [
            h(
              "table",
              { class: "plain" },
              res.target != null ? h("tr", {}, h("th", {}, "target"), h("td", {}, res.target)) : null,
              res.active != null ? h("tr", {}, h("th", {}, "active"), h("td", {}, res.active)) : null,
              res.passive != null ? h("tr", {}, h("th", {}, "passive"), h("td", {}, res.passive)) : null,
              (res.modifiers || []).map((m) => h("tr", {}, h("th", {}, `${m.value > 0 ? "+" : ""}${m.value} (${m.side})`), h("td", {}, m.reason))),
              res.total != null ? h("tr", {}, h("th", {}, "total"), h("td", {}, res.total)) : null,
            ),
          ]
        : h("p", { class: "muted" }, res ? "No target or modifiers: the faces are read as they are." : "A plain draw (a pick or a shuffle): no target."),
    );
    const showed = h(
      "section",
      { class: "card" },
      h("h3", {}, "What it showed"),
      h("p", { class: "faces big" }, Array.isArray(r.faces) ? r.faces.map((f, j) => die(f, Array.isArray(r.sides) ? r.sides[j] : "?", r.status)) : canonical(r.faces)),
      res ? h("p", { id: "roll-outcome" }, h("b", {}, "Outcome: "), res.outcome) : null,
    );
    const check = h(
      "section",
      { class: "card" },
      h("h3", {}, "Is it genuine?"),
      h("p", { class: `verdict ${r.status === "verified" ? "pass" : r.status === "pending" ? "pending" : "fail"}`, id: "roll-verdict" }, STATUS_LINE[r.status]),
      h("p", {}, genuine),
      r.inChain ? null : h("p", { class: "notice" }, "This event is at or after the first broken link of the chain, so it is not proven to be the game's record."),
      r.recomputed && r.status === "mismatch" ? h("p", {}, `The seed gives ${canonical(r.recomputed)}.`) : null,
    );
    const hand = h("section", { class: "card wide", id: "by-hand" }, h("h3", {}, "Check it by hand"));
    const states = h("section", { class: "card wide", id: "before-after" }, h("h3", {}, "The game just before and just after"));
    put(el, nav, head, h("div", { class: "roll-grid" }, why, needed, showed, check), hand, states);
    drawCommand(el.querySelector("#roll-command"), g, r);
    drawByHand(hand, g, r);
    drawBeforeAfter(states, g, r);
  };
  draw();
  return (what) => {
    if (what === "checks") draw();
  };
}

async function drawCommand(el, g, r) {
  try {
    if (g.source === "live") await g.loadCommands();
  } catch {
    /* shown without the payload */
  }
  const c = g.commandOf(r.seq);
  if (!c) return clear(el);
  const before = g.events.filter((e) => e.body.command === c.command_id && e.body.seq < r.seq);
  put(el, 
    h("p", {}, "Caused by command ", h("code", {}, c.command_id ?? "—"), c.seat ? [" sent by ", h("b", {}, c.seat)] : null, c.seqs ? ` (events ${c.seqs[0]}–${c.seqs[1]})` : ""),
    c.payload !== undefined ? h("pre", { class: "json small", id: "command-payload" }, pretty(c.payload)) : h("p", { class: "muted" }, "(its payload is in the game's bundle)"),
    before.length
      ? h(
          "details",
          {},
          h("summary", {}, `what that command did before this roll (${before.length} events)`),
          h("ul", { class: "plain small" }, before.map((e) => h("li", {}, `seq ${e.body.seq} ${e.body.type}: `, h("code", {}, canonical(e.body.data).slice(0, 200))))),
        )
      : null,
  );
}

async function drawByHand(el, g, r) {
  const d = g.header.dice;
  const intro = h(
    "p",
    {},
    "With ",
    h("code", {}, "openssl"),
    " (and ",
    h("code", {}, "xxd"),
    ") in a terminal, each line below prints the value beside it. Nothing here depends on this page or the server.",
  );
  if (!d.server_seed || !g.gameSeed) {
    const text = `printf '%s' <SERVER_SEED> | xxd -r -p | openssl dgst -sha256`;
    add(el, 
      intro,
      h("p", {}, "The server seed is not revealed yet. Once it is, this prints the commitment published in the game's first event:"),
      h("div", { class: "cmd" }, h("pre", {}, text), h("span", { class: "expect" }, "→ ", h("code", {}, d.server_commit))),
    );
    return;
  }
  const trace = [];
  try {
    const roll = await roller(unhex(g.gameSeed));
    await roll.faces(r.k, r.sides, trace);
  } catch (e) {
    add(el, h("p", { class: "notice" }, `These dice cannot be rolled: ${e.message}`));
    return;
  }
  const seed = { serverSeed: d.server_seed, commit: d.server_commit, gameId: g.id, clientSeeds: d.client_seeds, beacon: d.beacon ?? null, gameSeedHex: g.gameSeed };
  const lines = opensslLines(seed, r.k, trace);
  const all = lines.map((l) => l.cmd).join("\n");
  add(el, 
    intro,
    lines.map((l) => h("div", { class: "cmd" }, h("p", { class: "what" }, l.what), h("pre", { class: "openssl" }, l.cmd), h("span", { class: "expect" }, "→ ", h("code", {}, l.expect)))),
    h("p", {}, copyButton(all, "copy all the commands")),
    h("h4", {}, "From the blocks to the faces"),
    h(
      "p",
      { class: "small" },
      "Read each block as eight lanes of 8 hex digits (32-bit numbers). Each die takes the next lane x: if x is at or above the limit 2³² − (2³² mod sides) the lane is skipped (so every face is equally likely); otherwise the face is (x mod sides) + 1.",
    ),
    h(
      "table",
      { class: "grid lanes", id: "lanes" },
      h("tr", {}, ["block", "lane", "hex", "x", "die", "limit", "face"].map((t) => h("th", {}, t))),
      trace.flatMap((b) =>
        b.lanes.map((l) =>
          h(
            "tr",
            { class: l.ok ? "" : "skipped" },
            h("td", {}, b.block),
            h("td", {}, l.lane),
            h("td", {}, h("code", {}, b.hex.substr(l.lane * 8, 8))),
            h("td", { class: "num" }, l.x),
            h("td", {}, `d${l.sides}`),
            h("td", { class: "num" }, l.limit),
            h("td", {}, l.ok ? h("b", {}, `${l.x} mod ${l.sides} + 1 = ${l.face}`) : "skipped (x ≥ limit)"),
          ),
        ),
      ),
    ),
  );
}

function viewPicker(g, onPick) {
  const names = orderedViews(g.ruleset.id, g.views.map((v) => v.name));
  if (!ui.view || !names.includes(ui.view)) ui.view = names.includes(FIRST_VIEW[g.ruleset.id]) ? FIRST_VIEW[g.ruleset.id] : names[0];
  const bar = h("div", { class: "view-tabs", role: "tablist" });
  const fill = () =>
    put(bar, 
      names.map((n) => h("button", { type: "button", class: n === ui.view ? "active" : "", dataset: { view: n }, onclick: () => ((ui.view = n), fill(), onPick(n)) }, n)),
    );
  fill();
  return bar;
}

/** Where the views come from: the server that holds this game, or nowhere yet (a bundle file). */
function noViews(g, el, redraw) {
  if (g.source === "live") return h("p", { class: "muted" }, "This ruleset has no views.");
  const m = g.match;
  return h(
    "div",
    { class: "no-views" },
    h("p", {}, "Pictures (map, sheets, charts) are drawn by the rules engine, which runs on a server, not in this page."),
    m && m.state !== "asking" ? h("p", { class: "notice" }, m.detail) : null,
    h(
      "p",
      {},
      h("button", { type: "button", id: "ask-server", disabled: m && m.state === "asking", onclick: async () => (await g.askServer(), redraw()) }, "Look for this game on this server"),
      " sends only the game id; the pictures are used only if the server's event at the file's last seq has the same hash.",
    ),
  );
}

async function showView(el, g, name, at) {
  const box = h("div", { class: "view-box", dataset: { view: name, at } }, h("p", { class: "loading" }, `drawing ${name} after event ${at}…`));
  put(el, box);
  try {
    const v = await g.viewAt(name, at);
    put(box, renderView(g.ruleset.id, name, v.data));
    box.dataset.ready = "1";
  } catch (e) {
    put(box, h("p", { class: "notice" }, `the server could not draw ${name} at ${at}: ${e.message}`));
  }
}

function changes(a, b, path = "", out = []) {
  if (out.length > 40) return out;
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) changes(a[k], b[k], path ? `${path}.${k}` : k, out);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => changes(x, b[i], `${path}[${i}]`, out));
  } else if (canonical(a ?? null) !== canonical(b ?? null)) out.push([path, a, b]);
  return out;
}

/** The last event of the run this roll started: its command's events up to the next roll (its effect). */
function effectEnd(g, r) {
  let end = r.seq;
  for (const e of g.events.slice(r.seq)) {
    if (e.body.command !== r.command || e.body.type === "DiceRolled") break;
    end = e.body.seq;
  }
  return end;
}

function drawBeforeAfter(el, g, r) {
  const body = h("div", {});
  const afterSeq = effectEnd(g, r);
  const redraw = () => {
    clear(body);
    if (!g.views.length) return add(body, noViews(g, el, redraw));
    const before = h("div", { class: "half" });
    const after = h("div", { class: "half" });
    const diff = h("div", { class: "diff", id: "diff" });
    const pick = async (name) => {
      const at0 = r.seq - 1;
      if (at0 >= 1) showView(before, g, name, at0);
      else put(before, h("p", { class: "muted" }, "Before the first event there is no game."));
      showView(after, g, name, afterSeq);
      try {
        const [a, b] = await Promise.all([at0 >= 1 ? g.viewAt(name, at0) : { data: {} }, g.viewAt(name, afterSeq)]);
        const ch = changes(a.data, b.data).filter(([p]) => !p.startsWith("now."));
        put(diff, 
          h("h4", {}, `What changed in ${name}`),
          ch.length
            ? h("ul", { class: "plain small" }, ch.map(([p, x, y]) => h("li", {}, h("code", {}, p), ": ", h("del", {}, canonical(x ?? null).slice(0, 80)), " → ", h("ins", {}, canonical(y ?? null).slice(0, 80)))))
            : h("p", { class: "muted" }, "nothing in this view (look at another view, or at later events on the timeline)"),
        );
      } catch {
        clear(diff);
      }
    };
    add(body, 
      viewPicker(g, pick),
      diff,
      h(
        "div",
        { class: "halves" },
        h("div", {}, h("h4", {}, `Just before the roll (after event ${r.seq - 1})`), before),
        h("div", {}, h("h4", {}, afterSeq === r.seq ? `Just after the roll (after event ${r.seq})` : `Just after the roll and what it led to (events ${r.seq}–${afterSeq})`), after),
      ),
    );
    pick(ui.view);
  };
  add(el, body);
  redraw();
}

// ---------------------------------------------------------------- timeline & pictures

const CATEGORY = (type) =>
  type === "DiceRolled"
    ? "roll"
    : ["GameCreated", "SeedLocked", "ClientSeedContributed", "ServerSeedRevealed", "GameEnded"].includes(type)
      ? "core"
      : /Decision|Submission/.test(type)
        ? "decision"
        : "other";

function drawTimeline(el, g, seqArg) {
  let seq = Math.min(Math.max(1, seqArg || ui.timelineSeq || g.events.length), g.events.length);
  const W = 1000;
  const strip = s("svg", { viewBox: `0 0 ${W} 46`, class: "strip", preserveAspectRatio: "none", id: "strip" });
  const range = h("input", { type: "range", id: "scrub", min: 1, max: g.events.length, value: seq, "aria-label": "event seq" });
  const label = h("span", { class: "seq-label", id: "seq-label" });
  const eventBox = h("div", { class: "event-at", id: "event-at" });
  const pics = h("div", { class: "pictures", id: "pictures" });
  const nextOf = (dir, pred) => {
    const order = dir > 0 ? g.events.slice(seq) : g.events.slice(0, seq - 1).reverse();
    const e = order.find(pred);
    return e ? e.body.seq : null;
  };
  const button = (text, id, f) => h("button", { type: "button", class: "secondary", id, onclick: () => { const t = f(); if (t) set(t); } }, text);
  const controls = h(
    "div",
    { class: "scrub-row" },
    button("« first", "first", () => 1),
    button("‹ roll", "prev-roll-t", () => nextOf(-1, (e) => e.body.type === "DiceRolled")),
    button("‹", "prev-event", () => Math.max(1, seq - 1)),
    range,
    button("›", "next-event", () => Math.min(g.events.length, seq + 1)),
    button("roll ›", "next-roll-t", () => nextOf(1, (e) => e.body.type === "DiceRolled")),
    button("last »", "last", () => g.events.length),
    label,
  );
  put(el, 
    h("p", { class: "hint" }, "Drag the slider (or click the strip) to any event: the pictures show the game as it stood right after it. Rolls are the tall red marks."),
    strip,
    controls,
    eventBox,
    pics,
  );
  function drawStrip() {
    const n = g.events.length;
    const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
    const x = (q) => ((q - 0.5) / n) * W;
    const marks = g.events.map((e) => {
      const cat = CATEGORY(e.body.type);
      const tall = cat === "roll" ? 8 : cat === "core" ? 4 : 18;
      return s("line", { x1: x(e.body.seq), x2: x(e.body.seq), y1: tall, y2: 38, class: `mark ${cat}` });
    });
    put(strip, 
      bad ? s("rect", { x: x(bad) - W / n / 2, y: 0, width: W - x(bad) + W / n / 2, height: 46, class: "broken" }) : null,
      marks,
      s("rect", { x: x(seq) - Math.max(1.5, W / n / 2), y: 0, width: Math.max(3, W / n), height: 46, class: "cursor" }),
    );
  }
  strip.addEventListener("click", (e) => {
    const rect = strip.getBoundingClientRect();
    set(Math.min(g.events.length, Math.max(1, Math.ceil(((e.clientX - rect.left) / rect.width) * g.events.length))));
  });
  let timer = null;
  range.addEventListener("input", () => set(Number(range.value), true));
  function set(q, dragging = false) {
    seq = q;
    ui.timelineSeq = q;
    range.value = q;
    go(`/timeline/${q}`, true);
    drawStrip();
    drawEvent();
    clearTimeout(timer);
    timer = setTimeout(drawPictures, dragging ? 150 : 0);
  }
  function drawEvent() {
    const e = g.events[seq - 1];
    label.textContent = `event ${seq} of ${g.events.length}`;
    const roll = e.body.type === "DiceRolled" ? g.rolls.find((r) => r.seq === seq) : null;
    put(eventBox, 
      h(
        "p",
        {},
        h("b", {}, `seq ${seq}: ${e.body.type}`),
        e.body.command ? [" · command ", h("code", {}, e.body.command)] : null,
        g.seatOf(e) ? ` · ${g.seatOf(e)}` : "",
        roll ? [" · ", h("a", { href: `${base()}/roll/${roll.k}` }, `roll k=${roll.k}`), " ", badge(roll.status)] : null,
      ),
      h("pre", { class: "json small" }, canonical(e.body.data).slice(0, 600)),
    );
  }
  let picker = null;
  function drawPictures() {
    if (!g.views.length) {
      put(pics, noViews(g, el, () => drawTimeline(el, g, seq)));
      return;
    }
    const box = h("div", {});
    if (!picker || !pics.contains(picker)) {
      picker = viewPicker(g, () => drawPictures());
      put(pics, picker, box);
    } else {
      pics.lastChild.replaceWith(box);
    }
    showView(box, g, ui.view, seq);
  }
  drawStrip();
  drawEvent();
  drawPictures();
  return (what) => {
    if (what === "events") {
      const atEnd = seq === Number(range.max);
      range.max = g.events.length;
      if (atEnd) set(g.events.length);
      else drawStrip();
    }
    if (what === "checks" || what === "match") drawStrip();
  };
}

// ---------------------------------------------------------------- events

function drawEvents(el, g, focus) {
  const types = [...new Set(g.events.map((e) => e.body.type))].sort();
  const sel = h("select", { id: "event-type", onchange: (e) => ((ui.eventType = e.target.value), fill()) }, h("option", { value: "" }, "all types"), types.map((t) => h("option", { value: t, selected: ui.eventType === t }, t)));
  const table = h("table", { class: "grid events", id: "events-table" });
  const more = h("p", {});
  put(el, h("div", { class: "filters" }, h("label", {}, "Type", sel)), table, more);
  function fill() {
    const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
    let list = g.events.filter((e) => !ui.eventType || e.body.type === ui.eventType);
    let start = 0;
    if (focus) start = Math.max(0, list.findIndex((e) => e.body.seq >= focus) - 5);
    const shown = list.slice(start, start + ui.eventsShown);
    put(table, 
      h("tr", {}, ["seq", "type", "command", "seat", "data", "chain"].map((t) => h("th", {}, t))),
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
          h("td", { class: "small data" }, data.length > 160 && place !== focus ? h("details", {}, h("summary", {}, data.slice(0, 160) + "…"), h("pre", { class: "json" }, pretty(e.body.data))) : h("code", {}, data)),
          h("td", {}, state === "ok" ? "✓" : state === "bad" ? badge("fail", "✗ first bad") : h("span", { class: "muted", title: "after the first broken link: not proven" }, "—")),
        );
      }),
    );
    put(more, 
      start + ui.eventsShown < list.length
        ? h("button", { type: "button", class: "secondary", onclick: () => ((ui.eventsShown += 500), fill()) }, `show more (${list.length - start - ui.eventsShown} left)`)
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

// ---------------------------------------------------------------- referee

const TOKEN_KEY = (id) => `umpire-desk-referee-token:${id}`;

function drawReferee(el, g) {
  const token = h("input", { type: "password", id: "referee-token", autocomplete: "off", placeholder: "the referee_token from POST /games", value: sessionStorage.getItem(TOKEN_KEY(g.id)) ?? "" });
  const out = h("div", { id: "referee-out", role: "status" });
  const actions = h("div", { class: "actions" });
  const remember = () => {
    const t = token.value.trim();
    if (t) sessionStorage.setItem(TOKEN_KEY(g.id), t);
    return t;
  };
  const forget = () => {
    sessionStorage.removeItem(TOKEN_KEY(g.id));
    token.value = "";
    put(out, h("p", {}, "Token forgotten."));
  };
  const action = (id, title, text, confirmText, run, doneText) => {
    const box = h("div", { class: "action card", id }, h("h4", {}, title));
    if (doneText) return add(box, h("p", { class: "muted" }, doneText));
    const confirm = h("div", { class: "confirm" });
    const send = async () => {
      clear(confirm);
      put(out, h("p", { class: "loading" }, "sending…"));
      try {
        const res = await run(remember());
        const n = res.events ? res.events.length : 0;
        put(out, h("p", { class: "verdict pass" }, `Done: the server appended ${n} event(s); head ${short(res.head, 16)}. They appear in the log as the stream delivers them.`));
        g.refreshSummary();
      } catch (e) {
        put(out, h("p", { class: "notice", id: "referee-error" }, `The server refused (${e.status || "no answer"}${e.code ? `, ${e.code}` : ""}): ${e.message}`));
      }
    };
    const ask = () => {
      if (!remember()) return put(out, h("p", { class: "notice" }, "Paste the referee token first."));
      put(
        confirm,
        h("p", {}, confirmText),
        h("button", { type: "button", class: "danger", id: `${id}-yes`, onclick: send }, `Yes, ${title.toLowerCase()}`),
        " ",
        h("button", { type: "button", class: "secondary", onclick: () => clear(confirm) }, "Cancel"),
      );
    };
    return add(box, h("p", {}, text), h("button", { type: "button", id: `${id}-ask`, onclick: ask }, `${title}…`), confirm);
  };
  const state = () => `${g.summary ? g.summary.status : "open"}/${g.events.some((e) => e.body.type === "ServerSeedRevealed")}`;
  let drawn = null;
  const drawActions = () => {
    drawn = state();
    const revealed = drawn.endsWith("/true");
    const over = revealed || !drawn.startsWith("open/");
    put(
      actions,
      action("reveal", "Reveal the server seed", "Publishes the secret seed. The game is closed to commands, and every roll becomes verifiable on this page.",
        "Reveal the seed and close the game? This cannot be undone.", (t) => api.reveal(g.id, t),
        revealed ? "Done: the seed is revealed (see the ServerSeedRevealed event); every roll is checked above." : null),
      action("end", "End the game", "Ends the game now without revealing the seed (the seed can still be revealed later).",
        "End the game? No seat can send a command afterwards.", (t) => api.end(g.id, t), over ? "The game is over already." : null),
    );
  };
  put(
    el,
    h("h2", {}, "Referee"),
    h("p", {}, "These actions need the referee token that was shown once when the game was created. The token is kept in this browser tab only (session storage, forgotten when the tab closes) and is sent only to this server, with the action."),
    h(
      "form",
      { class: "row", onsubmit: (e) => (e.preventDefault(), remember(), put(out, h("p", {}, "Token kept for this tab."))) },
      h("label", { for: "referee-token" }, "Referee token"),
      token,
      h("button", { type: "button", class: "secondary", id: "forget-token", onclick: forget }, "Forget it"),
    ),
    actions,
    out,
  );
  drawActions();
  return () => {
    if (state() !== drawn) drawActions();
  };
}

route();

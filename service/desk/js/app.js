// @ts-check
// The referee's desk: routes and the game's frame (header, checks, tabs). The screens are in screens/, the checks
// in verify.js, the server in api.js, the drawings in pictures/.
// Routes: #/ (home), #/live/<game id>[/<tab>[/<arg>]], #/file[/<tab>[/<arg>]] (the bundle file opened last).

import { ApiError } from "./api.js";
import { add, errorText, h, put } from "./dom.js";
import { Game } from "./game.js";
import { base, nav, resetUi } from "./nav.js";
import { drawChecks, drawHead } from "./screens/checks.js";
import { drawEvents } from "./screens/events.js";
import { drawHome } from "./screens/home.js";
import { drawPlay } from "./screens/play.js";
import { drawReferee } from "./screens/referee.js";
import { drawRoll } from "./screens/roll.js";
import { drawRolls } from "./screens/rolls.js";
import { drawTimeline } from "./screens/timeline.js";
import { drawWhatIf } from "./screens/whatif.js";

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
/** @type {Game | null} the last bundle opened (kept in memory only) */
let fileGame = null;
/** @type {{head: () => void, checks: () => void, update: ((what: string) => void) | null} | null} what is drawn now, to refresh on changes */
let screen = null;

/**
 * @typedef {{kind: "live", key: string, id: string, tab: string, arg?: string}} LiveRoute
 * @typedef {{kind: "file", key: "file", tab: string, arg?: string}} FileRoute
 * @typedef {LiveRoute | FileRoute | {kind: "play", key: "play", parts: string[]} | {kind: "home", key: "home"}} Route
 * @returns {Route}
 */
function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "live" && parts[1])
    return { kind: "live", key: `live/${parts[1]}`, id: parts[1], tab: parts[2] || "rolls", arg: parts[3] };
  if (parts[0] === "file") return { kind: "file", key: "file", tab: parts[1] || "rolls", arg: parts[2] };
  if (parts[0] === "play") return { kind: "play", key: "play", parts: parts.slice(1).filter(Boolean) };
  return { kind: "home", key: "home" };
}

async function route() {
  const r = parseRoute();
  // the header names the page a player is on: a play trial read "referee's desk" above its own game
  const where = document.querySelector("header .brand span");
  if (where) where.textContent = r.kind === "play" ? "· play" : "· referee's desk";
  if (r.kind === "home") {
    leaveGame();
    return drawHome(main, openFile);
  }
  if (r.kind === "play") {
    leaveGame();
    document.title = "Play — Naval Umpire";
    stopPlay = drawPlay(main, r.parts);
    return;
  }
  if (!nav.current || nav.current.key !== r.key) {
    leaveGame();
    if (r.kind === "file") {
      if (!fileGame)
        return drawHome(main, openFile, "Open the bundle file again: a file is kept only while this page is open.");
      nav.current = { key: "file", game: fileGame };
    } else {
      put(main, h("p", { class: "loading" }, `Loading game ${r.id} and checking its chain…`));
      try {
        nav.current = { key: r.key, game: await Game.live(r.id) };
      } catch (e) {
        nav.current = null;
        return drawHome(
          main,
          openFile,
          e instanceof ApiError && e.status === 404
            ? `This server has no game "${r.id}". Check the id.`
            : `Could not open game ${r.id}: ${errorText(e)}`,
        );
      }
      nav.current.game.follow();
    }
    nav.current.game.addEventListener("change", onChange);
    resetUi();
  }
  drawGame(r);
}

/** @type {(() => void) | null} the Play route's stream, closed when the page moves elsewhere */
let stopPlay = null;

function leaveGame() {
  if (stopPlay) {
    stopPlay();
    stopPlay = null;
  }
  if (nav.current) {
    nav.current.game.removeEventListener("change", onChange);
    nav.current.game.stop();
  }
  nav.current = null;
  screen = null;
}

/** @type {number | null} */
let pending = null;
let redrawAll = false;
/** @param {Event} event */
function onChange(event) {
  const e = /** @type {CustomEvent<string>} */ (event);
  // a burst of live events is drawn once; a new reader (a token kept or forgotten) redraws the whole screen
  if (e.detail === "reader") redrawAll = true;
  if (pending) return;
  pending = requestAnimationFrame(() => {
    pending = null;
    if (!screen) return;
    if (redrawAll) {
      redrawAll = false;
      const r = parseRoute();
      if (r.kind === "live" || r.kind === "file") drawGame(r);
      return;
    }
    screen.head();
    screen.checks();
    if (screen.update) screen.update(e.detail);
  });
}

window.addEventListener("hashchange", route);

/** @param {File} file */
async function openFile(file) {
  const text = await file.text();
  try {
    showFile(await Game.fromBundleText(text, file.name));
  } catch (e) {
    drawHome(main, openFile, `${file.name}: ${errorText(e)}`);
  }
}

/** Make `g` (a bundle read in this page) the file on the desk. @param {Game} g */
function showFile(g) {
  leaveGame();
  fileGame = g;
  if (location.hash === "#/file") route();
  else location.hash = "#/file";
}
// a fork's file carries its parent's part: the checks screen opens it as a file of its own
window.addEventListener("desk:open-file", (e) => showFile(/** @type {CustomEvent<Game>} */ (e).detail));

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
  const f = e.dataTransfer?.files[0];
  if (f) openFile(f);
});

const TABS = [
  ["rolls", "Rolls"],
  ["timeline", "Pictures & timeline"],
  ["events", "Events"],
  ["whatif", "What-if"],
  ["referee", "Referee & tokens"],
  ["play", "Play"],
];

/** @param {LiveRoute | FileRoute} r */
function drawGame(r) {
  if (!nav.current) return;
  const g = nav.current.game;
  document.title = `${g.id} — Referee's desk`;
  const headEl = h("section", { class: "game-head", id: "game-head" });
  const checksEl = h("section", { class: "checks", id: "checks" });
  const tabsEl = h("nav", { class: "tabs", role: "tablist" });
  const body = h("section", { class: "tab-body", id: "tab-body" });
  put(main, headEl, checksEl, tabsEl, body);
  const tab = r.tab === "roll" ? "rolls" : r.tab;
  for (const [id, label] of TABS) {
    if ((id === "referee" || id === "whatif" || id === "play") && g.source !== "live") continue;
    const href = id === "play" ? `#/play/${encodeURIComponent(g.id)}` : `${base()}/${id}`;
    const count = id === "rolls" ? ` (${g.rolls.length})` : id === "events" ? ` (${g.events.length})` : "";
    add(
      tabsEl,
      h(
        "a",
        { href, class: id === tab ? "tab active" : "tab", role: "tab", id: `tab-${id}` },
        label,
        h("span", { class: "count" }, count),
      ),
    );
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
  else if (tab === "whatif") update = drawWhatIf(body, g, r.arg ? Number(r.arg) : null);
  else update = drawRolls(body, g);
  screen.update = (what) => {
    refreshTabs();
    if (update) update(what);
  };
}

route();

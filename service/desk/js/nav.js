// @ts-check
// Where the desk is: the game open now, what each screen keeps across redraws, and links within the game.

/** @typedef {import("./game.js").Game} Game */

/** @type {{current: {key: string, game: Game} | null}} the game open now: key "file" | "live/<game id>" */
export const nav = { current: null };

/** Each screen's (and each picture's) own state for the game open now, by the screen's key. */
const kept = new Map();

/**
 * The state the screen `key` keeps while one game is open (filters, what is shown, a picture's choices), made by
 * `init` the first time it is asked for; opening another game drops every screen's.
 * @template {object} T
 * @param {string} key
 * @param {() => T} init
 * @returns {T}
 */
export function stateOf(key, init) {
  if (!kept.has(key)) kept.set(key, init());
  return kept.get(key);
}

/**
 * Where the reader is in the game, shared by the screens that show it: the view picked (timeline, a roll's
 * page) and the timeline's seq (the what-if tab starts from it).
 * @returns {{view: string | null, seq: number | null}}
 */
export function position() {
  return stateOf("position", () => ({ view: null, seq: null }));
}

/** Another game is open: every screen starts afresh. */
export function resetUi() {
  kept.clear();
}

/** The hash route of the game open now. */
export function base() {
  const c = nav.current;
  if (!c) return "#/";
  return c.key === "file" ? "#/file" : `#/live/${encodeURIComponent(c.game.id)}`;
}

/** @param {string} path @param {boolean} [replace] */
export function go(path, replace = false) {
  const url = base() + path;
  if (replace) history.replaceState(null, "", url);
  else location.hash = url;
}

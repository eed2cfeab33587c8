// @ts-check
// The per-ruleset drawings, by ruleset id: which picture draws which view, and what the Play page suggests for a
// new game. This is the one place the desk names a ruleset: lists, titles and menus come from GET /rulesets. Any
// view without a drawing (a new ruleset, a new view, a changed shape) is shown as a readable JSON tree rather than
// not at all.

import { h } from "../dom.js";
import * as aa from "./aa1942.js";
import * as bf from "./battlefleet.js";
import * as cc from "./corvette.js";
import { jsonTree } from "./tree.js";
import * as ul from "./uboat.js";

/**
 * What a picture may need besides its view's data.
 * @typedef {object} PictureContext
 * @property {import("../game.js").Game | null} game the game on the desk (null on the Play page, which has none)
 * @property {number} at the seq the view was drawn after
 * @property {string[]} seats the game's seats, in order
 * @property {(name: string) => Promise<any>} view another view's data at the same seq
 * @property {Map<string, object>} states each picture's own state (what the reader chose), kept by the page
 * @property {any[]} [moves] Battlefleet moves being planned (the Play page, from their `awaiting` entries' `ui`)
 */

/**
 * A view's drawing: `draw(data, ctx, state)`, where `state` is the picture's own, made by `state()` the first time
 * (kept in `ctx.states` by the page, so a redraw at another seq keeps what the reader chose).
 * @template S
 * @typedef {{draw: (data: any, ctx: PictureContext, state: S) => Element, state?: () => S}} Picture
 */

/**
 * A ruleset's drawings: its pictures by view, in the order a person would look at them (the first shown first),
 * and the options the Play page suggests for a new (short) game.
 * @typedef {{pictures: Record<string, Picture<any>>, newGame: Record<string, unknown>}} RulesetPictures
 */

/** @type {Record<string, RulesetPictures>} */
const RULESETS = {
  "corvette-command": cc.desk,
  "aa1942-convoy": aa.desk,
  "battlefleet-1900": bf.desk,
  "uboat-leader": ul.desk,
};

/** @param {string} rulesetId */
const drawnViews = (rulesetId) => Object.keys(RULESETS[rulesetId]?.pictures ?? {});

/**
 * The views in the order a person would look at them: drawn ones first (in the ruleset's order), then the rest.
 * @param {string} rulesetId
 * @param {Iterable<string>} names
 */
export function orderedViews(rulesetId, names) {
  const drawn = drawnViews(rulesetId);
  /** @param {string} n */
  const rank = (n) => (drawn.includes(n) ? drawn.indexOf(n) : drawn.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The options the Play page offers first for a new game of a ruleset (none for a ruleset the desk has no
 * drawings of: the server's defaults). @param {string} rulesetId */
export function newGameOptions(rulesetId) {
  return RULESETS[rulesetId]?.newGame ?? {};
}

/**
 * A view's picture: the ruleset's drawing of it, or its data as a tree.
 * @param {string} rulesetId
 * @param {string} view
 * @param {unknown} data
 * @param {PictureContext} ctx
 * @returns {Element}
 */
export function renderView(rulesetId, view, data, ctx) {
  const picture = RULESETS[rulesetId]?.pictures[view];
  if (!picture) return h("div", {}, h("p", { class: "muted" }, "No drawing for this view yet; its data:"), jsonTree(data));
  try {
    let state;
    if (picture.state) {
      const key = `${rulesetId}/${view}`;
      if (!ctx.states.has(key)) ctx.states.set(key, picture.state());
      state = ctx.states.get(key);
    }
    return picture.draw(data, ctx, state);
  } catch (e) {
    return h(
      "div",
      {},
      h("p", { class: "muted" }, `This view's shape is new to the desk (${e instanceof Error ? e.message : e}); its data:`),
      jsonTree(data),
    );
  }
}

// Which picture draws which view; anything else (a new ruleset, a new view, a changed shape) is shown as a
// readable JSON tree rather than not at all.

import { h } from "../dom.js";
import * as aa from "./aa1942.js";
import * as bf from "./battlefleet.js";
import * as cc from "./corvette.js";
import * as ul from "./uboat.js";
import { jsonTree } from "./tree.js";

const PICTURES = {
  "corvette-command": {
    map: cc.map,
    "ship-log": cc.shipLog,
    engagement: cc.engagement,
    "campaign-sheet": cc.campaignSheet,
  },
  "aa1942-convoy": {
    "sz-status": aa.szStatus,
    "ipc-ledger": aa.ipcLedger,
    "campaign-sheet": aa.campaignSheet,
    map: aa.map,
  },
  "battlefleet-1900": {
    table: bf.table,
    "ship-log": bf.shipLog,
    "gunnery-log": bf.gunneryLog,
    phase: bf.phase,
  },
  "uboat-leader": {
    "campaign-sheet": ul.campaignSheet,
    "uboat-log": ul.uboatLog,
  },
};

/** The view a person most likely wants first, for a ruleset. */
export const FIRST_VIEW = {
  "corvette-command": "map",
  "aa1942-convoy": "sz-status",
  "battlefleet-1900": "table",
  "uboat-leader": "campaign-sheet",
};

/** The views in the order a person would look at them: drawn ones first (as listed above), then the rest. */
export function orderedViews(rulesetId, names) {
  const drawn = Object.keys(PICTURES[rulesetId] || {});
  const rank = (n) => (n === FIRST_VIEW[rulesetId] ? -1 : drawn.includes(n) ? drawn.indexOf(n) : drawn.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function hasPicture(rulesetId, view) {
  return Boolean(PICTURES[rulesetId] && PICTURES[rulesetId][view]);
}

/**
 * A view's picture. `ctx` is what a picture may need besides its view's data: {game, at, seats, ui, view(name)}
 * (Battlefleet's table reads the ship log and the data set at the same seq for a ship's arcs).
 */
export function renderView(rulesetId, view, data, ctx = {}) {
  const draw = PICTURES[rulesetId] && PICTURES[rulesetId][view];
  if (draw) {
    try {
      return draw(data, ctx);
    } catch (e) {
      return h(
        "div",
        {},
        h("p", { class: "muted" }, `This view's shape is new to the desk (${e.message}); its data:`),
        jsonTree(data),
      );
    }
  }
  return h("div", {}, h("p", { class: "muted" }, "No drawing for this view yet; its data:"), jsonTree(data));
}

export { jsonTree };

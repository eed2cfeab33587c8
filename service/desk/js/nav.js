// Where the desk is: the game open now, the choices a redraw keeps, and links within the game.

export const nav = { current: null }; // {key: "file" | "live/<game id>", game}

/** Per-game choices that survive a redraw (filters, the view shown, the timeline's seq). */
export const ui = {};

export function resetUi() {
  Object.assign(ui, {
    filters: {},
    eventsShown: 200,
    eventType: "",
    view: null,
    timelineSeq: null,
    checksOpen: null,
    refereeSaid: null,
    bfShip: null, // Battlefleet's table: the chosen ship, the frame, the arcs shown, how far each ship reaches
    bfZoom: null,
    bfArcs: {},
    reachOf: {},
    whatifAt: null, // the what-if tab: its position, the last odds job and fork (tokens shown once: memory only)
    odds: null,
    oddsSeed: null,
    forkMade: null,
  });
}
resetUi();

/** The hash route of the game open now. */
export function base() {
  const c = nav.current;
  return c.key === "file" ? "#/file" : `#/live/${encodeURIComponent(c.game.id)}`;
}

export function go(path, replace = false) {
  const url = base() + path;
  if (replace) history.replaceState(null, "", url);
  else location.hash = url;
}

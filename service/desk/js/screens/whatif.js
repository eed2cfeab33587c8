// @ts-check
// What-if on a live game: pick a position (a command's end), run the odds from there as a server job (progress
// from its stream, then one histogram per figure with the real value marked), or fork the game there.

import * as api from "../api.js";
import { copyButton, errorText, h, put } from "../dom.js";
import { base, go, position, stateOf } from "../nav.js";
import { histogram, sharesChart } from "../pictures/histogram.js";
import { keepRefereeToken } from "../reader.js";

/**
 * @typedef {{at: number, games: number, seed: number, state: string, job?: any, done?: number, error?: string,
 *   status?: number}} OddsRun the last odds job started here
 * @typedef {{state: "asking"} | {state: "made", made: any, at: number} | {state: "error", error: string}} ForkMade
 */

/** The tab's own: its position, the last odds run and the fork made (its tokens are shown once: memory only). */
const kept = () =>
  stateOf("whatif", () => ({
    at: /** @type {number | null} */ (null),
    odds: /** @type {OddsRun | null} */ (null),
    oddsSeed: /** @type {number | null} */ (null),
    forkMade: /** @type {ForkMade | null} */ (null),
  }));

const MAX_GAMES = 1000; // what POST /games/{id}/odds runs at most (docs/whatif.md)

/** The seqs where a command's events end: the positions a fork or the odds may start from. */
function commandEnds(g) {
  return [...new Set((g.commands || []).map((c) => c.seqs[1]))].sort((a, b) => a - b);
}

/** Sealed records still closed after event `at`: a fork there is refused (409 fork-sealed); the odds too, unless the
 * bundle opens them later (a finished game's does), as closedSeals(g, g.events.length) tells. */
export function closedSeals(g, at) {
  const sealed = new Set();
  for (const e of g.events.slice(0, at)) {
    if (e.body.type === "SubmissionSealed") sealed.add(e.body.seq);
    if (e.body.type === "SubmissionsRevealed")
      for (const x of e.body.data.entries || []) sealed.delete(x.seq);
  }
  return [...sealed];
}

export function drawWhatIf(el, g, seqArg) {
  put(el, h("p", { class: "loading" }, "reading where each command ends (the game's bundle)…"));
  g.loadCommands()
    .then(() => draw(el, g, seqArg))
    .catch((e) => put(el, h("p", { class: "notice" }, `Could not read the game's commands: ${e.message}`)));
  return null; // new live events do not redraw the forms under the reader's hands; the tab reopened reads them
}

function draw(el, g, seqArg) {
  const ends = commandEnds(g);
  if (!ends.length) return put(el, h("p", { class: "muted" }, "No command has been played yet."));
  const want = seqArg || kept().at || position().seq || g.events.length;
  const at = ends.filter((x) => x <= want).pop() ?? ends[0];
  kept().at = at;
  const i = ends.indexOf(at);
  const cmd = (g.commands || []).find((c) => c.seqs[1] === at);
  const closed = closedSeals(g, at);
  const never = new Set(closedSeals(g, g.events.length)); // sealed records this bundle never opens
  const oddsOpen = !closed.some((seq) => never.has(seq));
  const open = ends.filter((x) => !closedSeals(g, x).length);
  const move = (to) => {
    go(`/whatif/${to}`, true);
    draw(el, g, to);
  };
  const what = cmd
    ? [
        "the end of command ",
        h("code", {}, cmd.command_id),
        ` by ${cmd.seat}`,
        cmd.payload && cmd.payload.type ? ` (${cmd.payload.type})` : cmd.payload && cmd.payload.sealed ? " (sealed)" : "",
      ]
    : "a command's end";
  const nearestOpen = [open.filter((x) => x < at).pop(), open.find((x) => x > at)].filter(Boolean);
  put(
    el,
    h("h2", {}, "What-if from a position"),
    h(
      "p",
      { class: "hint" },
      "Pick a position (a command's end: forks and continuations start between commands), then run the odds from there or fork the game there. The timeline's ",
      h("a", { href: `${base()}/timeline/${at}` }, "pictures at this position"),
      " show the game as it stood.",
    ),
    h(
      "div",
      { class: "scrub-row", id: "whatif-position" },
      h("button", { type: "button", class: "secondary", id: "whatif-prev", disabled: i === 0, onclick: () => move(ends[i - 1]) }, "‹ previous command"),
      h("span", { class: "seq-label", id: "whatif-at", dataset: { at } }, h("b", {}, `after event ${at} of ${g.events.length}`), " — ", what),
      h(
        "button",
        { type: "button", class: "secondary", id: "whatif-next", disabled: i === ends.length - 1, onclick: () => move(ends[i + 1]) },
        "next command ›",
      ),
    ),
    closed.length
      ? h(
          "p",
          { class: "notice", id: "whatif-sealed" },
          `Sealed records are still closed after event ${at} (seq ${closed.join(", ")}): the server forks only where every seal is open, so nothing sealed leaks into a fork; ${oddsOpen ? "the odds run here, each continuation carrying what the game revealed later" : "the odds run only once the game has opened them"}.`,
          nearestOpen.length
            ? [" Nearest open positions: ", nearestOpen.map((x, k) => [k ? ", " : "", h("a", { href: `${base()}/whatif/${x}` }, `event ${x}`)])]
            : " No position of this game is open yet.",
        )
      : null,
    oddsForm(g, at, !oddsOpen),
    h("div", { id: "odds-out" }),
    forkForm(g, at, closed.length > 0),
    h("div", { id: "fork-out" }),
  );
  drawOdds(g);
  drawFork();
}

// ---- the odds ----

function oddsForm(g, at, sealed) {
  const games = h("input", { type: "number", id: "odds-games", min: 1, max: MAX_GAMES, value: 200, required: true });
  const seed = h("input", { type: "number", id: "odds-seed", min: 0, value: kept().oddsSeed ?? 1, required: true });
  const run = async (e) => {
    e.preventDefault();
    const n = Number(games.value);
    const sd = Number(seed.value);
    kept().oddsSeed = sd;
    kept().odds = { at, games: n, seed: sd, state: "starting" };
    drawOdds(g);
    try {
      const job = await api.odds(g.id, at, n, sd);
      const mine = { at, games: n, seed: sd, state: "running", job, done: job.done };
      kept().odds = mine;
      drawOdds(g);
      api.followJob(
        job.job_id,
        (p) => mine === kept().odds && ((mine.done = p.done), drawOdds(g)),
        (j) => mine === kept().odds && ((kept().odds = { ...mine, state: j.status, job: j, done: j.done }), drawOdds(g)),
        (err) => mine === kept().odds && ((kept().odds = { ...mine, state: "error", error: errorText(err) }), drawOdds(g)),
      );
    } catch (err) {
      kept().odds = { at, games: n, seed: sd, state: "error", error: errorText(err), status: err instanceof api.ApiError ? err.status : undefined };
      drawOdds(g);
    }
  };
  return h(
    "form",
    { class: "card", id: "odds-form", onsubmit: run },
    h("h3", {}, "The odds from here"),
    h(
      "p",
      {},
      "The server plays the game on from this position many times with the ruleset's bot, each continuation with fresh dice, and reports the spread of what the ruleset counts (tonnage, VP, kills, treasuries…) with where the real game's value falls in it.",
    ),
    h(
      "div",
      { class: "filters" },
      h("label", {}, `Games (1–${MAX_GAMES})`, games),
      h("label", {}, "Seed", seed),
      h("button", { type: "submit", id: "odds-run", disabled: sealed }, "Run the odds"),
    ),
    h(
      "p",
      { class: "hint" },
      "The same seed gives the same answer; offline, ",
      h("code", {}, `umpire simulate ${g.ruleset.id} --from ${g.id}.json --at ${at} --games N --seed S --plot odds.png`),
      " computes it from the bundle.",
    ),
  );
}

function drawOdds(g) {
  const out = document.getElementById("odds-out");
  const o = kept().odds;
  if (!out || !o) return;
  if (o.state === "starting") return put(out, h("p", { class: "loading" }, "asking the server to start…"));
  if (o.state === "error")
    return put(
      out,
      h(
        "p",
        { class: "notice", id: "odds-error" },
        o.status === 429 ? `The server is busy: ${o.error}` : `The odds could not be run: ${o.error}`,
      ),
    );
  if (o.state === "running")
    return put(
      out,
      h(
        "div",
        { class: "card", id: "odds-running" },
        h("p", {}, `Playing ${o.games} continuations from event ${o.at} (seed ${o.seed})… `, h("span", { id: "odds-done" }, `${o.done} of ${o.games} done`)),
        h("progress", { id: "odds-progress", max: o.games, value: o.done }),
      ),
    );
  const job = o.job;
  if (o.state !== "done" || !job.result)
    return put(out, h("p", { class: "notice", id: "odds-error" }, `The job ${job.job_id} is ${o.state}${job.error ? `: ${job.error}` : ""}.`));
  const r = job.result;
  const figures = Object.entries(r.figures).filter(([, f]) => f.shares || f.histogram?.length);
  put(
    out,
    h(
      "div",
      { class: "card", id: "odds-result" },
      h(
        "h3",
        {},
        `${r.games} continuations (runs) of ${r.game} from event ${r.at}`,
        h("small", { class: "muted" }, ` · seed ${r.seed} · job ${job.job_id}`),
      ),
      h(
        "p",
        { class: "hint" },
        r.finished
          ? "The red line is the real game's value; its percentile is the share of continuations below it (plus half of those equal). A category (a winner, a result level) is shown as each one's share, the real game's bar in red."
          : "The game is not over: the red line (a category's red bar) is where it stands now, not a final outcome.",
      ),
      h("div", { class: "odds-grid" }, figures.map(([name, f]) => (f.shares ? sharesChart(name, f) : histogram(name, f)))),
    ),
  );
}

// ---- fork here ----

function forkForm(g, at, sealed) {
  const mode = h(
    "select",
    { id: "fork-mode" },
    h("option", { value: "fair" }, "fair dice (the fork's seed stays secret until its referee reveals it)"),
    h("option", { value: "public-seed" }, "public-seed dice (for tests and teaching)"),
  );
  const fork = async (e) => {
    e.preventDefault();
    kept().forkMade = { state: "asking" };
    drawFork();
    try {
      const made = await api.fork(g.id, at, mode.value);
      keepRefereeToken(made.game_id, made.referee_token);
      kept().forkMade = { state: "made", made, at };
    } catch (err) {
      kept().forkMade = { state: "error", error: errorText(err) };
    }
    drawFork();
  };
  return h(
    "form",
    { class: "card", id: "fork-form", onsubmit: fork },
    h("h3", {}, "Fork here"),
    h(
      "p",
      {},
      `A new game on this server whose state is this one's after event ${at}, with fresh seat tokens and dice of its own. Its genesis names this game, the seq and the hash there; its bundle carries this game's events up to there, and the desk checks both parts.`,
    ),
    h("div", { class: "filters" }, h("label", {}, "Dice", mode), h("button", { type: "submit", id: "fork-run", disabled: sealed }, "Fork here")),
  );
}

function drawFork() {
  const out = document.getElementById("fork-out");
  const f = kept().forkMade;
  if (!out || !f) return;
  if (f.state === "asking") return put(out, h("p", { class: "loading" }, "forking…"));
  if (f.state === "error") return put(out, h("p", { class: "notice", id: "fork-error" }, `The server did not fork: ${f.error}`));
  const m = f.made;
  const row = (who, token) =>
    h("tr", {}, h("th", {}, who), h("td", {}, token ? [h("code", { class: "token" }, token), " ", copyButton(token)] : "played by the server"));
  put(
    out,
    h(
      "div",
      { class: "card fork-made", id: "fork-made", dataset: { game: m.game_id } },
      h("h3", {}, "Forked: ", h("code", {}, m.game_id), ` from event ${f.at}`),
      h(
        "p",
        { class: "notice" },
        h("b", {}, "Copy these tokens now: they are shown once. "),
        "The server keeps only their hashes. The fork's referee token is also kept in this tab (session storage), so the desk reads the fork as its referee.",
      ),
      h(
        "table",
        { class: "plain", id: "fork-tokens" },
        m.seats.map((x) => row(`${x.seat}`, x.token)),
        row("referee", m.referee_token),
      ),
      h("p", {}, h("a", { href: `#/live/${encodeURIComponent(m.game_id)}`, id: "open-fork", class: "button" }, "Open the fork")),
    ),
  );
}

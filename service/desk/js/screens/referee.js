// @ts-check
// Tokens and the referee's actions on a live game: whom the desk reads as (the referee's token shows everything,
// a seat's token that seat's view), reveal the seed or end the game, and work a game's turn clock. Tokens stay in
// sessionStorage (reader.js).

import * as api from "../api.js";
import { add, clear, errorText, h, put, short } from "../dom.js";
import { stateOf } from "../nav.js";
import * as tokens from "../reader.js";

// what a seat's time running out makes act (docs/api.md "Deadlines", `on_expiry`)
const ON_EXPIRY = {
  bot: "the bot decides",
  default: "its default is sent",
  forfeit: "it concedes",
};
const EXPIRED = {
  bot: "the bot decides for it",
  default: "its default is sent (else the bot decides)",
  forfeit: "it concedes where the rules let it (else the bot decides)",
};
const MAX_MINUTES = 527040; // 366 days: the API's bound of 31622400 seconds

/** A number of seconds in words: hours and minutes. @param {number} seconds */
function minutes(seconds) {
  const m = Math.round(seconds / 60);
  if (m < 60) return `${Math.max(1, m)} min`;
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/** What the tab said last (its status line), kept so a redraw shows it again. */
const kept = () => stateOf("referee", () => ({ said: /** @type {import("../dom.js").Child[] | null} */ (null) }));

/** Say something in the tab's status line; kept in the tab's state so a redraw (a new reader) shows it again. */
function say(out, ...content) {
  kept().said = content;
  put(document.getElementById("referee-out") || out, ...content);
}

export function drawReferee(el, g) {
  const out = h("div", { id: "referee-out", role: "status" });
  const refereeInput = h("input", {
    type: "password",
    id: "referee-token",
    autocomplete: "off",
    placeholder: "the referee_token from POST /games",
    value: tokens.refereeToken(g.id) ?? "",
  });
  const seatInput = h("input", {
    type: "password",
    id: "seat-token",
    autocomplete: "off",
    placeholder: "a seat's token (optional)",
    value: tokens.seatToken(g.id)?.token ?? "",
  });
  /** Keep the referee token typed in (if it is new); returns it. Reads go out as the referee from now on. */
  const remember = () => {
    const t = refereeInput.value.trim();
    if (t && t !== tokens.refereeToken(g.id)) {
      tokens.keepRefereeToken(g.id, t);
      tokens.chooseReadAs(g.id, "referee");
      g.readerChanged();
    }
    return t;
  };
  /** Ask the server whose token this is (GET /games/{id}/me) before reading with it. */
  const check = async (kind) => {
    const t = (kind === "referee" ? refereeInput : seatInput).value.trim();
    if (!t) return say(out, h("p", { class: "notice" }, "Paste a token first."));
    try {
      const me = await api.me(g.id, t);
      if (kind === "referee" && !me.referee)
        return say(out, h("p", { class: "notice", id: "token-note" }, `That is ${me.seat}'s token, not the referee's: put it in the seat field.`));
      if (kind === "referee") {
        remember();
        return say(out, h("p", { class: "verdict pass", id: "token-note" }, "The referee's token: the pictures now show everything, sealed records included."));
      }
      if (me.referee) {
        seatInput.value = "";
        refereeInput.value = t;
        remember();
        return say(out, h("p", { class: "verdict pass", id: "token-note" }, "That is the referee's token: kept as such."));
      }
      tokens.keepSeatToken(g.id, t, me.seat);
      tokens.chooseReadAs(g.id, "seat");
      say(out, h("p", { class: "verdict pass", id: "token-note" }, `${me.seat}'s token: the pictures now show what ${me.seat} may see.`));
      g.readerChanged();
    } catch (e) {
      say(out, h("p", { class: "notice", id: "token-note" }, e instanceof api.ApiError && e.status === 401 ? "This token is not one of this game's: nothing kept." : `The server could not say whose token it is: ${errorText(e)}`));
    }
  };
  const forget = (kind) => {
    tokens.forget(kind, g.id);
    (kind === "referee" ? refereeInput : seatInput).value = "";
    say(out, h("p", {}, kind === "referee" ? "Referee token forgotten." : "Seat token forgotten."));
    g.readerChanged();
  };
  const tokenRow = (kind, label, input) =>
    h(
      "form",
      { class: "row", onsubmit: (e) => (e.preventDefault(), check(kind)) },
      h("label", { for: input.id }, label),
      input,
      h("button", { type: "submit", class: "secondary", id: `keep-${kind}-token` }, "Keep for this tab"),
      h("button", { type: "button", class: "secondary", id: `forget-${kind}-token`, onclick: () => forget(kind) }, "Forget it"),
    );

  const actions = h("div", { class: "actions" });
  /** Send one of the referee's commands (`run` given the token) and say what the server answered. */
  const perform = async (run) => {
    if (!refereeInput.value.trim()) return say(out, h("p", { class: "notice" }, "Paste the referee token first."));
    say(out, h("p", { class: "loading" }, "sending…"));
    try {
      const res = await run(remember());
      const n = res.events ? res.events.length : 0;
      say(
        out,
        h(
          "p",
          { class: "verdict pass" },
          `Done: the server appended ${n} event(s); head ${short(res.head, 16)}. They appear in the log as the stream delivers them.`,
        ),
      );
      g.refreshSummary();
    } catch (thrown) {
      const e = thrown instanceof api.ApiError ? thrown : new api.ApiError(0, null, errorText(thrown));
      const why =
        e.status === 404 && e.code === "not-found" ? "this server does not offer this action yet" : e.message;
      say(
        out,
        h(
          "p",
          { class: "notice", id: "referee-error" },
          `The server refused (${e.status || "no answer"}${e.code ? `, ${e.code}` : ""}): ${why}`,
        ),
      );
    }
  };
  const action = (id, title, text, confirmText, run, doneText) => {
    const box = h("div", { class: "action card", id }, h("h4", {}, title));
    if (doneText) return add(box, h("p", { class: "muted" }, doneText));
    const confirm = h("div", { class: "confirm" });
    const send = () => (clear(confirm), perform(run));
    const ask = () => {
      if (!refereeInput.value.trim()) return say(out, h("p", { class: "notice" }, "Paste the referee token first."));
      put(
        confirm,
        h("p", {}, confirmText),
        h("button", { type: "button", class: "danger", id: `${id}-yes`, onclick: send }, `Yes, ${title.toLowerCase()}`),
        " ",
        h("button", { type: "button", class: "secondary", onclick: () => clear(confirm) }, "Cancel"),
      );
    };
    return add(
      box,
      h("p", {}, text),
      h("button", { type: "button", id: `${id}-ask`, onclick: ask }, `${title}…`),
      confirm,
    );
  };
  /** The turn clock of a game with one (docs/api.md "Deadlines"), while it is played: pause or resume it, give a seat
   * more time, change a turn's length or what acts when it runs out. Each is a recorded command (DeadlinesChanged);
   * none ends anything, so none asks first. */
  const clockCard = (d) => {
    const seats = (g.summary?.seats ?? []).map((/** @type {{seat: string}} */ x) => x.seat);
    const running = Object.entries(d.deadline_at ?? {});
    const seat = h("select", { id: "clock-seat" }, seats.map((x) => h("option", { value: x }, x)));
    const more = h("input", { type: "number", id: "clock-minutes", min: 1, max: MAX_MINUTES, step: 1, value: 10, required: true });
    const length = h("input", { type: "number", id: "clock-turn-minutes", min: 1, max: MAX_MINUTES, step: 1, value: Math.max(1, Math.round(d.turn_seconds / 60)), required: true });
    const expiry = h("select", { id: "clock-expiry" }, Object.entries(ON_EXPIRY).map(([v, text]) => h("option", { value: v, selected: v === d.on_expiry }, text)));
    const change = (body) => perform((t) => api.changeDeadlines(g.id, t, body));
    return h(
      "div",
      { class: "action card", id: "clock" },
      h("h4", {}, "Turn clock"),
      h(
        "p",
        { id: "clock-now" },
        d.paused
          ? "Paused: no turn runs out until you resume it, which starts every awaited seat's turn again."
          : `${minutes(d.turn_seconds)} a turn; when a seat's runs out, ${EXPIRED[d.on_expiry]}. `,
        d.paused ? "" : running.length ? `Running: ${running.map(([s, at]) => `${s}'s ends ${new Date(at).toLocaleString()}`).join("; ")}.` : "No seat's turn is running.",
      ),
      h(
        "button",
        { type: "button", id: d.paused ? "clock-resume" : "clock-pause", onclick: () => change({ paused: !d.paused }) },
        d.paused ? "Resume the clock" : "Pause the clock",
      ),
      h(
        "form",
        { class: "row", id: "clock-extend", onsubmit: (e) => (e.preventDefault(), change({ extend: { [seat.value]: Number(more.value) * 60 } })) },
        h("label", { for: "clock-seat" }, "More time for"),
        seat,
        h("label", { for: "clock-minutes" }, "minutes"),
        more,
        h("button", { type: "submit", class: "secondary" }, "Give it"),
      ),
      h("p", { class: "muted" }, "A seat whose turn is not running (not awaited, or the clock paused) gets it on its next turn."),
      h(
        "form",
        { class: "row", id: "clock-rules", onsubmit: (e) => (e.preventDefault(), change({ turn_seconds: Number(length.value) * 60, on_expiry: expiry.value })) },
        h("label", { for: "clock-turn-minutes" }, "A turn, minutes"),
        length,
        h("label", { for: "clock-expiry" }, "then"),
        expiry,
        h("button", { type: "submit", class: "secondary" }, "Change, from now on"),
      ),
    );
  };
  const stage = () =>
    JSON.stringify([g.summary ? g.summary.status : "open", g.events.some((e) => e.body.type === "ServerSeedRevealed"), g.summary?.deadlines ?? null]);
  let drawn = null;
  const drawActions = () => {
    drawn = stage();
    const revealed = g.events.some((e) => e.body.type === "ServerSeedRevealed");
    const over = revealed || (g.summary ? g.summary.status : "open") !== "open";
    const clock = g.summary?.deadlines;
    put(
      actions,
      clock && !over ? clockCard(clock) : null,
      action(
        "reveal",
        "Reveal the server seed",
        "Publishes the secret seed. The game is closed to commands, and every roll becomes verifiable on this page.",
        "Reveal the seed and close the game? This cannot be undone.",
        (t) => api.reveal(g.id, t),
        revealed ? "Done: the seed is revealed (see the ServerSeedRevealed event); every roll is checked above." : null,
      ),
      action(
        "end",
        "End the game",
        "Ends the game now without revealing the seed (the seed can still be revealed later).",
        "End the game? No seat can send a command afterwards.",
        (t) => api.end(g.id, t),
        over ? "The game is over already." : null,
      ),
    );
  };
  put(
    el,
    h("h2", {}, "Tokens"),
    h(
      "p",
      {},
      "With the referee token (shown once when the game was created) the pictures and the bundle are read as the referee: everything, sealed records included. With a seat's token, as that seat. Tokens are kept in this browser tab only (session storage, forgotten when the tab closes) and sent only to this server.",
    ),
    tokenRow("referee", "Referee token", refereeInput),
    tokenRow("seat", "Seat token", seatInput),
    h("h2", {}, "Referee actions"),
    actions,
    out,
  );
  const said = kept().said;
  if (said) put(out, ...said);
  drawActions();
  return () => {
    if (stage() !== drawn) drawActions();
  };
}

// @ts-check
// Tokens and the referee's actions on a live game: whom the desk reads as (the referee's token shows everything,
// a seat's token that seat's view), reveal the seed or end the game, and work a game's turn clock. Tokens stay in
// sessionStorage (reader.js).

import * as api from "../api.js";
import { add, clear, errorText, h, put, short } from "../dom.js";
import { stateOf } from "../nav.js";
import * as tokens from "../reader.js";
import { EXPIRED, ON_EXPIRY, duration } from "../clock.js";

const MAX_MINUTES = 527040; // 366 days: the API's bound of 31622400 seconds

/** What the tab said last (its status line), kept so a redraw shows it again. */
const kept = () =>
  stateOf("referee", () => ({
    said: /** @type {import("../dom.js").Child[] | null} */ (null),
    focus: /** @type {string | null} */ (null), // the control pressed when its token, kept, redrew the screen
  }));

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
  /** Send one of the referee's commands (`run` given the token) and say what the server answered; whether it took it. */
  const perform = async (run) => {
    if (!refereeInput.value.trim()) {
      say(out, h("p", { class: "notice" }, "Paste the referee token first."));
      return false;
    }
    say(out, h("p", { class: "loading" }, "sending…"));
    // a token kept now redraws the whole screen (the reader changed): the control pressed gets the focus back then
    kept().focus = refereeInput.value.trim() !== tokens.refereeToken(g.id) ? document.activeElement?.id || null : null;
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
      return true;
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
      return false;
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
   * none ends anything, so none asks first. Built once (`clockCard`) and brought up to date in place (`showClock`)
   * as the summary changes, so what the referee is typing and the focus stay where they are. */
  const clock = { show: (/** @type {any} */ _d) => {} }; // the drawn card's, once drawn
  const clockCard = () => {
    const seats = (g.summary?.seats ?? []).map((/** @type {{seat: string}} */ x) => x.seat);
    let d = g.summary?.deadlines;
    const now = h("p", { id: "clock-now", "aria-live": "polite" });
    const toggle = h("button", { type: "button", id: "clock-toggle", onclick: () => change({ paused: !d.paused }) });
    const seat = h("select", { id: "clock-seat" }, seats.map((x) => h("option", { value: x }, x)));
    const more = h("input", { type: "number", id: "clock-minutes", min: 1, max: MAX_MINUTES, step: 1, value: 10, required: true });
    // minutes with their fraction: a turn of 90 s reads 1.5, and is sent back as 90 only when changed
    const length = h("input", { type: "number", id: "clock-turn-minutes", min: 1 / 60, max: MAX_MINUTES, step: "any", required: true });
    const expiry = h("select", { id: "clock-expiry" }, Object.entries(ON_EXPIRY).map(([v, text]) => h("option", { value: v }, text)));
    let edited = false; // the referee's own length or expiry, kept over redraws until sent
    length.addEventListener("input", () => (edited = true));
    expiry.addEventListener("change", () => (edited = true));
    const change = async (body) => {
      const took = await perform((t) => api.changeDeadlines(g.id, t, body));
      if (took && (body.turn_seconds !== undefined || body.on_expiry !== undefined)) edited = false;
    };
    const rules = (e) => {
      e.preventDefault();
      const body = {};
      const seconds = Math.round(Number(length.value) * 60);
      if (seconds !== d.turn_seconds) body.turn_seconds = seconds;
      if (expiry.value !== d.on_expiry) body.on_expiry = expiry.value;
      if (!Object.keys(body).length) {
        edited = false; // the form says the clock as it is: it follows the server's again
        return say(out, h("p", { class: "notice" }, "Nothing to change: that is the clock as it is."));
      }
      change(body);
    };
    clock.show = (/** @type {any} */ next) => {
      d = next;
      const running = Object.entries(d.deadline_at ?? {});
      const text = d.paused
        ? "Paused: no turn runs out until you resume it, which starts every awaited seat's turn again, whole: extra time given before the pause is spent (give it again if it is owed); given during it, it counts."
        : `${duration(d.turn_seconds)} a turn; when a seat's runs out, ${EXPIRED[d.on_expiry]}. ` +
          (running.length ? `Running: ${running.map(([s, at]) => `${s}'s ends ${new Date(at).toLocaleString()}`).join("; ")}.` : "No seat's turn is running.");
      if (now.textContent !== text) now.textContent = text; // a live region: said only when it changes
      toggle.textContent = d.paused ? "Resume the clock" : "Pause the clock";
      toggle.dataset.paused = String(d.paused);
      if (edited && Math.round(Number(length.value) * 60) === d.turn_seconds && expiry.value === d.on_expiry) edited = false;
      if (!edited) {
        length.value = String(Math.round((d.turn_seconds / 60) * 1000) / 1000);
        expiry.value = d.on_expiry;
      }
    };
    const box = h(
      "div",
      { class: "action card", id: "clock" },
      h("h4", {}, "Turn clock"),
      now,
      toggle,
      h(
        "form",
        { class: "row", id: "clock-extend", onsubmit: (e) => (e.preventDefault(), change({ extend: { [seat.value]: Number(more.value) * 60 } })) },
        h("label", { for: "clock-seat" }, "More time for"),
        seat,
        h("label", { for: "clock-minutes" }, "minutes"),
        more,
        h("button", { type: "submit", class: "secondary", id: "clock-give" }, "Give more time"),
      ),
      h("p", { class: "muted" }, "A seat whose turn is not running (not awaited, or the clock paused) gets it on its next turn."),
      h(
        "form",
        { class: "row", id: "clock-rules", onsubmit: rules },
        h("label", { for: "clock-turn-minutes" }, "A turn, minutes"),
        length,
        h("label", { for: "clock-expiry" }, "when it runs out"),
        expiry,
        h("button", { type: "submit", class: "secondary", id: "clock-change" }, "Change, from now on"),
      ),
    );
    clock.show(d);
    return box;
  };
  // the cards are drawn anew when the game's status changes; the clock's card follows its summary in place
  const stageOf = () => {
    const revealed = g.events.some((e) => e.body.type === "ServerSeedRevealed");
    return { revealed, over: revealed || (g.summary ? g.summary.status : "open") !== "open", clocked: !!g.summary?.deadlines };
  };
  const stage = () => JSON.stringify(stageOf());
  let drawn = null;
  const drawActions = () => {
    drawn = stage();
    const { revealed, over } = stageOf();
    put(
      actions,
      g.summary?.deadlines && !over ? clockCard() : null,
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
  const focus = kept().focus;
  kept().focus = null;
  if (focus) document.getElementById(focus)?.focus();
  if (g.summary?.deadlines) g.refreshSummary(); // the clock as it is now, not as when the game was opened
  let seen = g.events.length;
  let asking = false; // one summary read at a time: events arrive in bursts
  // called once a frame for whatever changed in it (app.js draws a burst once, naming only its first change): each
  // call looks at the summary and the events itself
  return async () => {
    if (stage() !== drawn) drawActions();
    else if (g.summary?.deadlines) clock.show(g.summary.deadlines);
    // a seat's move starts or ends turns: the clock's deadlines are the summary's, read again after new events
    if (g.summary?.deadlines && !asking && g.events.length !== seen) {
      asking = true;
      try {
        while (g.events.length !== seen) {
          seen = g.events.length; // events that come during the read are read for after it
          await g.refreshSummary();
        }
      } finally {
        asking = false;
      }
    }
  };
}

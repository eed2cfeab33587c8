// @ts-check
// Tokens and the referee's actions on a live game: whom the desk reads as (the referee's token shows everything,
// a seat's token that seat's view), and reveal the seed or end the game. Tokens stay in sessionStorage (reader.js).

import * as api from "../api.js";
import { add, clear, errorText, h, put, short } from "../dom.js";
import { stateOf } from "../nav.js";
import * as tokens from "../reader.js";

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
  const action = (id, title, text, confirmText, run, doneText) => {
    const box = h("div", { class: "action card", id }, h("h4", {}, title));
    if (doneText) return add(box, h("p", { class: "muted" }, doneText));
    const confirm = h("div", { class: "confirm" });
    const send = async () => {
      clear(confirm);
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
  const stage = () =>
    `${g.summary ? g.summary.status : "open"}/${g.events.some((e) => e.body.type === "ServerSeedRevealed")}`;
  let drawn = null;
  const drawActions = () => {
    drawn = stage();
    const revealed = drawn.endsWith("/true");
    const over = revealed || !drawn.startsWith("open/");
    put(
      actions,
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

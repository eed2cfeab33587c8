// The referee's actions on a live game (reveal the seed, end the game); the token stays in sessionStorage.

import * as api from "../api.js";
import { add, clear, h, put, short } from "../dom.js";

const TOKEN_KEY = (id) => `umpire-desk-referee-token:${id}`;

export function drawReferee(el, g) {
  const token = h("input", {
    type: "password",
    id: "referee-token",
    autocomplete: "off",
    placeholder: "the referee_token from POST /games",
    value: sessionStorage.getItem(TOKEN_KEY(g.id)) ?? "",
  });
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
        put(
          out,
          h(
            "p",
            { class: "verdict pass" },
            `Done: the server appended ${n} event(s); head ${short(res.head, 16)}. They appear in the log as the stream delivers them.`,
          ),
        );
        g.refreshSummary();
      } catch (e) {
        const why =
          e.status === 404 && e.code === "not-found" ? "this server does not offer this action yet" : e.message;
        put(
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
      if (!remember()) return put(out, h("p", { class: "notice" }, "Paste the referee token first."));
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
  const state = () =>
    `${g.summary ? g.summary.status : "open"}/${g.events.some((e) => e.body.type === "ServerSeedRevealed")}`;
  let drawn = null;
  const drawActions = () => {
    drawn = state();
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
    h("h2", {}, "Referee"),
    h(
      "p",
      {},
      "These actions need the referee token that was shown once when the game was created. The token is kept in this browser tab only (session storage, forgotten when the tab closes) and is sent only to this server, with the action.",
    ),
    h(
      "form",
      {
        class: "row",
        onsubmit: (e) => (e.preventDefault(), remember(), put(out, h("p", {}, "Token kept for this tab."))),
      },
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

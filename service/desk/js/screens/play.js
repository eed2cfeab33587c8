// @ts-check
// The Play tab: a person with a seat's token plays in the browser, on the public API and the TypeScript client
// (../client/client.js, compiled from openapi/client-ts) alone. Routes:
//   #/play                          create a game (bot seats, open seats) and hand out tokens or invitations
//   #/play/<game id>                play it with the token this tab holds for it
//   #/play/<game id>/join/<code>    take an open seat with its invitation
//   #/play/<game id>/token/<token>  keep a token handed over as a link, then play
// Tokens live in this tab's sessionStorage only (each browser tab or context is one player). The last version each
// seat saw of a game lives in localStorage, so a player who comes back finds "Since your last turn": the digest of
// what happened since (GET /games/{id}/since, as this seat may read it).

import { NotFound, Problem, Umpire, command } from "../client/client.js";
/**
 * @typedef {import("../client/types.js").Me} Me
 * @typedef {import("../client/types.js").GameSummary} GameSummary
 * @typedef {import("../client/types.js").RulesetInfo} RulesetInfo
 * @typedef {import("../client/types.js").Event} GameEvent
 * @typedef {import("../client/types.js").StreamMessage} StreamMessage
 * @typedef {import("../client/types.js").CommandSpec} CommandSpec
 */
/** @typedef {{message: string, awaiting: CommandSpec[], waiting_for: string[], open_seats: string[], status: string, version: number}} PlayState the
 * latest `state` message, or a command's answer as one */
import { EXPIRED, ON_EXPIRY, duration } from "../clock.js";
import { decisionForm, irrevocable, known } from "../client/decisions.js";
import { add, errorText, h, prose, put, words } from "../dom.js";
import { optionFields, shown, withOption } from "../options.js";
import { newGameOptions, orderedViews, renderView } from "../pictures/index.js";

const KEY = "umpire-play:";
const SEEN = "umpire-seen:"; // + game id + ":" + seat: the last version that seat's table showed
const SINCE_PAGES = 4; // pages of GET /since read for the digest (500 events each); beyond, the card says so

export function heldToken(gameId) {
  return sessionStorage.getItem(KEY + gameId);
}

function hold(gameId, token) {
  sessionStorage.setItem(KEY + gameId, token);
}

/** The last version `seat`'s table showed of this game, or null: never opened in this browser. */
function lastSeen(gameId, seat) {
  try {
    const v = localStorage.getItem(`${SEEN}${gameId}:${seat}`);
    return v === null ? null : Number(v);
  } catch {
    return null; // storage refused (a private window's policy): no "since" card, the game still plays
  }
}

function markSeen(gameId, seat, version) {
  try {
    if ((lastSeen(gameId, seat) ?? -1) < version) localStorage.setItem(`${SEEN}${gameId}:${seat}`, String(version));
  } catch {
    // as above
  }
}

const playLink = (gameId, tail = "") =>
  `${location.origin}${location.pathname}#/play/${encodeURIComponent(gameId)}${tail}`;

/** Draw the Play route; returns a function that stops what it follows. */
export function drawPlay(main, parts) {
  const [gameId, what, arg] = parts;
  if (!gameId) {
    drawLobby(main);
    return () => {};
  }
  if (what === "token" && arg) {
    hold(gameId, arg);
    history.replaceState(null, "", `#/play/${encodeURIComponent(gameId)}`);
  }
  if (what === "join" && arg) return drawJoin(main, gameId, arg);
  return drawTable(main, gameId);
}

const CONTROLS = "input, select, textarea, button, summary";

/** What tells a control of a decision from the others: its decision's type, its tag, type, class, name and data-*. */
function signature(e) {
  const data = [...e.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `${a.name}=${a.value}`);
  const type = e.closest(".play-entry")?.getAttribute("data-type") ?? "";
  return [type, e.tagName, e.getAttribute("type") ?? "", e.className, e.getAttribute("aria-label") ?? "", ...data].join("|");
}

/** The focused control inside `card` as a key that finds its twin once the card is drawn anew (its signature and its
 * place among the controls sharing it), {sig: null} for focus on the card but no control, null for focus elsewhere. */
function focusKey(card) {
  const active = document.activeElement;
  if (!active || !card.contains(active)) return null;
  if (!active.matches(CONTROLS)) return { sig: null, at: 0 };
  const sig = signature(active);
  return { sig, at: [...card.querySelectorAll(CONTROLS)].filter((e) => signature(e) === sig).indexOf(active) };
}

/** Focus the twin of the control `key` names, else the card's heading: the keyboard stays where the player was. */
function refocus(card, key) {
  const twin = key.sig === null ? null : [...card.querySelectorAll(CONTROLS)].filter((e) => signature(e) === key.sig)[key.at];
  (twin instanceof HTMLElement && !twin.matches(":disabled") ? twin : card.querySelector("h2"))?.focus();
}

/**
 * "Your turn, by e-mail" (docs/api.md "Notifications", "E-mail"): this seat's notification target, read once and after
 * each change. An address is registered, then confirmed with the code the server mails it; a webhook registered by
 * another client is named, and may be replaced. A server that sends no e-mail says so when an address is sent.
 * @param {Umpire} api
 * @param {string} gameId
 */
function notifyCard(api, gameId) {
  const body = h("div", { id: "play-notify-body" }, h("p", { class: "loading" }, "Reading…"));
  const card = h(
    "details",
    { class: "play-card", id: "play-notify" },
    h("summary", {}, h("h2", {}, "Your turn, by e-mail")),
    body,
  );
  let read = false;
  card.addEventListener("toggle", () => {
    if (card.open && !read) {
      read = true;
      show();
    }
  });

  /** @param {string | null} [notice] */
  async function show(notice = null) {
    /** @type {import("../client/types.js").Notifications | null} */
    let target = null;
    try {
      target = await api.notifications(gameId);
    } catch (e) {
      if (!(e instanceof NotFound)) return put(body, h("p", { class: "notice" }, whyNot(e)));
    }
    const said = notice ? h("p", { class: "notice", id: "play-notify-notice" }, notice) : null;
    const address = target && target.url.toLowerCase().startsWith("mailto:") ? target.url.slice(7) : null;
    if (target && address && target.confirmed) {
      const stop = h("button", { type: "button", id: "play-notify-stop" }, "Stop these mails");
      stop.addEventListener("click", () => act(stop, async () => {
        await api.deleteNotifications(gameId);
        return "No more mails.";
      }));
      return put(body, said, h("p", { id: "play-notify-state", "data-state": "confirmed" }, `Your turns are mailed to ${address}.`), stop);
    }
    if (target && address) {
      const code = h("input", { id: "play-notify-code", size: 30, autocomplete: "one-time-code", spellcheck: "false", "aria-label": "the code from the mail" });
      const confirm = h("button", { type: "submit", id: "play-notify-confirm" }, "Confirm");
      const form = h("form", {}, code, " ", confirm);
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        act(confirm, async () => {
          await api.confirmNotifications(gameId, /** @type {HTMLInputElement} */ (code).value.trim());
          return null;
        });
      });
      return put(
        body,
        said,
        h("p", { id: "play-notify-state", "data-state": "pending" }, `A code was mailed to ${address}: paste it here (or follow the mail's link). Nothing else is mailed until then.`),
        form,
        entry("Use another address"),
      );
    }
    const webhook = target ? h("p", { id: "play-notify-state", "data-state": "webhook" }, `Your turns go to a webhook: ${target.url}. An address below replaces it.`) : null;
    return put(body, said, webhook, entry(target ? "Mail me instead" : "Mail me when it is my turn"));
  }

  /** The address form: a PUT of mailto:<address>. @param {string} label */
  function entry(label) {
    const input = h("input", { type: "email", id: "play-notify-address", size: 30, placeholder: "you@example.org", autocomplete: "email", "aria-label": "your e-mail address" });
    const go = h("button", { type: "submit", id: "play-notify-register" }, label);
    const form = h("form", {}, input, " ", go);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      act(go, async () => {
        await api.setNotifications(gameId, `mailto:${/** @type {HTMLInputElement} */ (input).value.trim()}`);
        return null;
      });
    });
    return form;
  }

  /** Run a change with its button held, then show the target again, with what went wrong or `done`'s words.
   * @param {HTMLElement} button @param {() => Promise<string | null>} change */
  async function act(button, change) {
    /** @type {HTMLButtonElement} */ (button).disabled = true;
    let notice = null;
    try {
      notice = await change();
    } catch (e) {
      notice = whyNot(e);
    }
    await show(notice);
  }

  return card;
}

function whyNot(e) {
  return e instanceof Problem ? `${e.body.title}: ${e.body.detail}` : `Could not reach the server: ${e.message}`;
}

function backLink() {
  return h("p", {}, h("a", { href: "#/play" }, "← create or join another game"));
}

// ---- taking an open seat ----

/** The join page: what the invitation offers, an optional passphrase (the seat's say in the dice), then the table. */
function drawJoin(main, gameId, invitation) {
  const stop = { fn: () => {} };
  put(main, h("p", { class: "loading" }, "Reading your invitation…"));
  const api = new Umpire("");
  const error = h("p", { class: "notice", id: "play-error", hidden: true });
  const fail = (e) => {
    error.textContent = whyNot(e);
    error.hidden = false;
  };
  const phrase = h("input", { id: "play-join-passphrase", size: 40, autocomplete: "off", "aria-describedby": "play-join-hint" });
  const take = h("button", { id: "play-join-take", type: "submit" });
  const form = h(
    "form",
    { class: "play-card" },
    h("p", {}, h("label", {}, "Passphrase: your say in the dice (optional) ", phrase)),
    h(
      "p",
      { class: "muted", id: "play-join-hint" },
      "Any phrase. Its SHA-256 is added to the dice as your seat's seed before the first roll, so the server (which committed to its own seed before you joined) cannot have chosen the rolls. Its hash is published with the game, so never use a password you use elsewhere. Leave it empty to play without one.",
    ),
    error,
    take,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const passphrase = phrase.value;
    take.disabled = true;
    try {
      const cred = await api.join(gameId, invitation, passphrase ? { passphrase } : {});
      hold(gameId, cred.token);
      history.replaceState(null, "", `#/play/${encodeURIComponent(gameId)}`);
      stop.fn = drawTable(main, gameId, joinedSeed(cred.client_seed, passphrase !== ""));
    } catch (e) {
      fail(e); // the form keeps what was typed: mend it and take the seat again
      take.disabled = false;
    }
  });
  const path = `/games/${encodeURIComponent(gameId)}/invitation`;
  api.request("POST", path, { invitation }).then(
    (offer) => {
      take.textContent = `Take the ${offer.seat} seat`;
      put(
        main,
        h(
          "div",
          { class: "play" },
          h("h1", {}, `Join game ${gameId}`),
          h("p", {}, "You are invited to play ", h("strong", { id: "play-join-seat" }, offer.seat), ` (${offer.ruleset.id}).`),
          offer.deadlines
            ? h(
                "p",
                { id: "play-join-clock" },
                `It has a turn clock: ${duration(offer.deadlines.turn_seconds)} a turn, from when every seat is taken; when a seat's runs out, ${EXPIRED[offer.deadlines.on_expiry]}.`,
              )
            : null,
          form,
          backLink(),
        ),
      );
      phrase.focus();
    },
    (e) => {
      fail(e); // a spent or unknown invitation: nothing to take
      put(main, h("div", { class: "play" }, error, backLink()));
    },
  );
  return () => stop.fn();
}

/** What a join recorded of the seat's seed, in words: `seed` as the answer gave it, `sent` whether one was sent. */
function joinedSeed(seed, sent) {
  if (seed) return h("p", { id: "play-joined" }, "Your seed for the dice, recorded with your join: ", h("code", { id: "play-joined-seed" }, seed));
  const why = sent ? "the dice were already locked (a command came first)" : "you gave no passphrase";
  return h("p", { class: "muted", id: "play-joined" }, `No seed of yours was recorded: ${why}.`);
}

/** A field's control: a tick, a list, or a box for a number or a name (with the schema's suggestions).
 * @param {import("../options.js").OptionField} field */
function optionControl(field) {
  const id = `play-option-${field.key}`;
  const about = `${id}-about`; // its description, beside it (drawLobby)
  if (field.kind === "yes-no") return h("input", { type: "checkbox", id, "data-option": field.key, "aria-describedby": about });
  if (field.kind === "one-of") {
    const blank = field.default === undefined || field.nullable;
    return h(
      "select",
      { id, "data-option": field.key, "aria-describedby": about },
      blank ? h("option", { value: "" }, field.default === undefined ? "(the ruleset's default)" : "none") : null,
      (field.choices ?? []).map((c) => h("option", { value: String(c) }, String(c))),
    );
  }
  if (field.kind === "number") {
    const none = field.nullable && field.default === null ? "none" : "";
    return h("input", { type: "number", id, "data-option": field.key, "aria-describedby": about, min: field.min, max: field.max, step: 1, placeholder: none });
  }
  // a name's suggestions (battlefleet-1900's scenarios): a datalist, drawn beside it in its label
  return h("input", { type: "text", id, "data-option": field.key, "aria-describedby": about, list: field.examples?.length ? `${id}-examples` : null, placeholder: field.nullable ? "none" : "" });
}

// ---- the lobby ----

async function drawLobby(main) {
  const api = new Umpire("");
  const box = h("div", { class: "play" });
  put(main, box);
  add(box, h("h1", {}, "Play"));
  add(
    box,
    h(
      "p",
      { class: "muted" },
      "Create a game and hand each player their seat, or join one you were invited to. Each player holds only their own token: open seats give invitations instead, and the token of a seat goes only to whoever accepts its invitation.",
    ),
  );
  let rulesets;
  try {
    rulesets = await api.request("GET", "/rulesets");
  } catch (e) {
    add(box, h("p", { class: "notice" }, whyNot(e)));
    return;
  }
  const made = h("div", { id: "play-made" });
  const select = h(
    "select",
    { id: "play-ruleset" },
    rulesets.map((r) => h("option", { value: r.id }, `${r.title} (${r.id})`)),
  );
  const options = h("textarea", { id: "play-options", rows: 2, cols: 50, spellcheck: "false" });
  const bots = h("span", { id: "play-bots" });
  const open = h("input", { type: "checkbox", id: "play-open", checked: true });
  const umpired = h("input", { type: "checkbox", id: "play-umpired", checked: true, "aria-describedby": "play-umpired-hint" }); // the API's default
  // a turn clock (docs/api.md "Deadlines"), none by default: a turn's minutes and what acts when a seat's runs out
  const clocked = h("input", { type: "checkbox", id: "play-clock-on", "aria-describedby": "play-clock-hint" });
  const turnMinutes = h("input", { type: "number", id: "play-clock-minutes", min: 1 / 60, max: 527040, step: "any", value: 1440, disabled: true, required: true });
  const onExpiry = h("select", { id: "play-clock-expiry", disabled: true, "aria-label": "when a seat's turn runs out" }, Object.entries(ON_EXPIRY).map(([v, text]) => h("option", { value: v }, text)));
  clocked.addEventListener("change", () => (turnMinutes.disabled = onExpiry.disabled = !clocked.checked));
  // the seats follow the options (corvette-command's two_player makes two escorts): GET /rulesets/{id}/seats
  let asked = 0;
  const drawSeats = async () => {
    const r = rulesets.find((x) => x.id === select.value);
    const mine = ++asked;
    let seats = r.default_seats;
    let why = null;
    try {
      seats = (await api.seats(r.id, JSON.parse(options.value || "{}"))).seats;
    } catch (e) {
      why = e instanceof SyntaxError ? `the options are not JSON yet (${e.message})` : whyNot(e);
    }
    if (mine !== asked) return; // the options changed again meanwhile
    put(
      bots,
      seats.length > 1
        ? seats.map((s) =>
            h("label", { class: "play-bot" }, h("input", { type: "checkbox", value: s, "data-seat": s }), ` ${s} `),
          )
        : h("span", { class: "muted" }, "(one seat: yours)"),
      why ? h("span", { class: "muted", id: "play-seats-why" }, ` — ${why}`) : null,
    );
  };
  let typing = 0;
  const seatsSoon = () => {
    clearTimeout(typing);
    typing = setTimeout(drawSeats, 300);
  };
  // the options that are one value as fields (options.js), from the ruleset's options_schema; the JSON box keeps them.
  // The fields are a fieldset, disabled while the box is not JSON (a field cannot write it then), and emptied at once
  // when another ruleset is picked (its schema comes from the server: no field of the last one may write meanwhile)
  const fields = h("fieldset", { id: "play-fields", class: "play-option-set" });
  /** @type {Map<string, import("../options.js").OptionField[]>} */
  const fieldsOf = new Map();
  /** @type {{field: import("../options.js").OptionField, control: any}[]} */
  let controls = [];
  const parsed = () => {
    try {
      const value = JSON.parse(options.value || "{}");
      return value && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch {
      return null;
    }
  };
  const showFields = () => {
    const now = parsed();
    fields.disabled = now === null; // mend the box first: what a field wrote into it would be lost
    fields.title = now === null ? "The JSON box below is not a JSON object: mend it to use these fields" : "";
    if (now === null) return;
    for (const { field, control } of controls) {
      const value = shown(now, field);
      if (typeof value === "boolean") control.checked = value;
      else control.value = value;
    }
  };
  const drawFields = async () => {
    const id = select.value;
    controls = [];
    put(fields, h("legend", {}, "Options"), h("p", { class: "muted" }, "…"));
    /** @type {import("../options.js").OptionField[] | undefined} */
    let known = fieldsOf.get(id);
    /** @type {string | null} */
    let why = null;
    if (known === undefined) {
      try {
        known = optionFields((await api.ruleset(id)).options_schema);
        fieldsOf.set(id, known);
      } catch (e) {
        why = whyNot(e);
      }
    }
    if (id !== select.value) return; // another ruleset was picked meanwhile: its own drawing follows
    if (why !== null || known === undefined) {
      return put(fields, h("legend", {}, "Options"), h("p", { class: "notice" }, `No option fields (${why}): the JSON box below takes them all`));
    }
    controls = known.map((field) => ({ field, control: optionControl(field) }));
    for (const { field, control } of controls) {
      control.addEventListener(field.kind === "yes-no" || field.kind === "one-of" ? "change" : "input", () => {
        const now = parsed();
        if (now === null) return; // the fieldset is disabled while the box is not JSON
        options.value = JSON.stringify(withOption(now, field, field.kind === "yes-no" ? control.checked : control.value));
        seatsSoon();
      });
    }
    put(
      fields,
      h("legend", {}, "Options"),
      controls.map(({ field, control }) =>
        h(
          "p",
          { class: "play-option" },
          h(
            "label",
            {},
            h("code", {}, field.key),
            " ",
            control,
            field.examples?.length
              ? h("datalist", { id: `play-option-${field.key}-examples` }, field.examples.map((x) => h("option", { value: x })))
              : null,
          ),
          " ",
          h("span", { class: "muted", id: `play-option-${field.key}-about` }, prose(field.description)),
        ),
      ),
    );
    showFields();
  };
  const pick = () => {
    options.value = JSON.stringify(newGameOptions(select.value));
    drawSeats();
    drawFields();
  };
  select.addEventListener("change", pick);
  options.addEventListener("input", () => {
    showFields();
    seatsSoon();
  });
  const create = h("button", { id: "play-create", type: "button" }, "Create the game");
  create.addEventListener("click", async () => {
    let opts;
    try {
      opts = JSON.parse(options.value || "{}");
    } catch (e) {
      return put(made, h("p", { class: "notice" }, `The options are not JSON: ${errorText(e)}`));
    }
    const body = { ruleset: select.value, options: opts, open_seats: open.checked, umpired: umpired.checked };
    if (clocked.checked) {
      if (!turnMinutes.checkValidity())
        return put(made, h("p", { class: "notice", id: "play-error" }, "A turn's minutes: a number from one second (1/60) to 366 days (527040)."));
      body.deadlines = { turn_seconds: Math.round(Number(turnMinutes.value) * 60), on_expiry: onExpiry.value };
    }
    const chosen = [...bots.querySelectorAll("input:checked")].map((x) => x.value);
    if (chosen.length) body.bots = chosen;
    create.disabled = true;
    try {
      showMade(made, await api.createGame(body));
    } catch (e) {
      put(made, h("p", { class: "notice", id: "play-error" }, whyNot(e)));
    } finally {
      create.disabled = false;
    }
  });
  add(
    box,
    h(
      "section",
      { class: "play-card" },
      h("h2", {}, "Create a game"),
      h("p", {}, h("label", {}, "Ruleset ", select)),
      fields,
      h("p", {}, h("label", {}, "All the options as JSON (those without a field too; GET /rulesets/{id} lists them) ", h("br"), options)),
      h("p", {}, "Seats the server plays: ", bots),
      h(
        "p",
        {},
        h("label", {}, open, " Open seats: an invitation per player (you keep only the referee's token)"),
        h(
          "span",
          { class: "muted", id: "play-open-hint" },
          " — each player who joins by invitation may add a passphrase to the dice; unticked, each seat gets a link with its token, and the dice are the server's alone unless a seat sends a seed of its own before the first roll (POST /games/{id}/seeds, with its token)",
        ),
      ),
      h(
        "p",
        {},
        h("label", {}, umpired, " Umpired"),
        h(
          "span",
          { class: "muted", id: "play-umpired-hint" },
          " — the referee's token reads every seat's sealed orders as they come in. Untick it and no token, yours included, reads another seat's sealed orders before the rules open them (fixed at creation).",
        ),
      ),
      h(
        "p",
        {},
        h("label", {}, clocked, " Turn clock: "),
        h("label", {}, turnMinutes, " minutes a turn"),
        ", then ",
        onExpiry,
        h(
          "span",
          { class: "muted", id: "play-clock-hint" },
          " — a seat awaited that long has the bot, its default or a concession act for it; the referee pauses, extends or changes it in the referee's desk. The clock runs once every seat is taken.",
        ),
      ),
      create,
      made,
    ),
  );
  pick();
  const gid = h("input", { id: "play-join-game", placeholder: "game id", size: 22 });
  const code = h("input", { id: "play-join-code", placeholder: "invitation or token", size: 34 });
  const go = h("button", { id: "play-join", type: "button" }, "Join");
  go.addEventListener("click", () => {
    const c = code.value.trim();
    location.hash = `#/play/${encodeURIComponent(gid.value.trim())}/${c.startsWith("inv-") ? "join" : "token"}/${encodeURIComponent(c)}`;
  });
  add(
    box,
    h(
      "section",
      { class: "play-card" },
      h("h2", {}, "Join a game"),
      h("p", {}, "With the invitation (or the token) the game's organiser gave you."),
      h("p", {}, gid, " ", code, " ", go),
    ),
  );
}

function showMade(el, g) {
  const rows = g.seats.map((s) => {
    let how;
    if (s.bot) how = h("span", { class: "muted" }, "played by the server");
    else if (s.invitation)
      how = h(
        "span",
        {},
        h("a", { href: `#/play/${encodeURIComponent(g.game_id)}/join/${encodeURIComponent(s.invitation)}`, class: "play-take", "data-seat": s.seat }, `take ${s.seat} in this tab`),
        " · or hand over the invitation link: ",
        h("input", { readonly: true, size: 70, value: playLink(g.game_id, `/join/${s.invitation}`), class: "play-invite", "data-seat": s.seat, "aria-label": `${s.seat}'s invitation link` }),
      );
    else
      how = h(
        "span",
        {},
        h("a", { href: `#/play/${encodeURIComponent(g.game_id)}/token/${encodeURIComponent(s.token)}`, class: "play-as", "data-seat": s.seat }, `play ${s.seat} in this tab`),
        " · or hand over: ",
        h("input", { readonly: true, size: 60, value: playLink(g.game_id, `/token/${s.token}`), class: "play-hand", "data-seat": s.seat, "aria-label": `${s.seat}'s link` }),
      );
    return h("tr", {}, h("th", {}, s.seat), h("td", {}, how));
  });
  put(
    el,
    h("h3", {}, `Game ${g.game_id} created`, h("span", { id: "play-made-id", hidden: true }, g.game_id)),
    h("table", { class: "play-seats" }, rows),
    h(
      "p",
      { class: "muted" },
      "The referee's token (it reveals the seed at the end, and reads everything — keep it away from the players): ",
      h("code", { id: "play-referee" }, g.referee_token),
    ),
    h("p", {}, "Open ", h("a", { href: `#/live/${encodeURIComponent(g.game_id)}` }, "the referee's desk"), " for this game."),
  );
}

// ---- the table ----

/** @param {HTMLElement | null} [joined] what a join just recorded, said above the table */
function drawTable(main, gameId, joined = null) {
  const token = heldToken(gameId);
  const box = h("div", { class: "play" });
  put(main, box);
  if (!token) {
    put(
      box,
      h("h1", {}, `Game ${gameId}`),
      h("p", { class: "notice", id: "play-error" }, "This tab holds no token for this game: join it with your invitation, or open the link your organiser gave you."),
      backLink(),
    );
    return () => {};
  }
  const api = new Umpire("", token);
  /**
   * What the table knows: who this token is, the game and its ruleset (read once, first: nothing is drawn before),
   * the events and the latest state the stream brought, the view shown.
   * @type {{me: Me | null, summary: GameSummary | null, rules: RulesetInfo | null, events: GameEvent[],
   *   state: PlayState | null, ended?: StreamMessage, view: string | undefined, stopped: boolean, sending: boolean,
   *   link?: string, error?: string | null}}
   */
  const st = { me: null, summary: null, rules: null, events: [], state: null, view: undefined, stopped: false, sending: false };
  const head = h("section", { class: "play-head", id: "play-head" });
  const since = h("section", { class: "play-card play-since", id: "play-since", hidden: true });
  const move = h("section", { class: "play-card", id: "play-move" });
  const orders = h("section", { class: "play-card", id: "play-orders" });
  const log = h("section", { class: "play-card", id: "play-log" });
  const viewTabs = h("nav", { class: "tabs play-views" });
  const picture = h("div", { class: "play-picture", id: "play-picture" });
  put(
    box,
    head,
    joined,
    h(
      "div",
      { class: "play-grid" },
      h("div", { class: "play-left" }, since, move, orders, log, notifyCard(api, gameId)),
      h("div", { class: "play-right" }, viewTabs, picture),
    ),
  );
  let live = null;
  (async () => {
    /** @type {RulesetInfo} */
    let rules;
    try {
      st.me = await api.me(gameId);
      st.summary = await api.game(gameId);
      rules = await api.request("GET", `/rulesets/${encodeURIComponent(st.summary.ruleset.id)}`);
      st.rules = rules;
    } catch (e) {
      put(box, h("p", { class: "notice", id: "play-error" }, whyNot(e)), backLink());
      return;
    }
    st.view = orderedViews(rules.id, rules.views.map((v) => v.name))[0];
    drawViewTabs();
    drawHead();
    const seat = st.me.seat;
    const seen = lastSeen(gameId, seat); // read before the stream's first state marks the version now as seen
    if (seen !== null && seen < st.summary.version) drawSince(seen);
    live = api.follow(gameId, {
      onMessage: (m) => {
        if (m.message === "event") st.events.push(m.event);
        else if (m.message === "state") {
          st.state = m;
          markSeen(gameId, seat, m.version);
          refresh();
          if (st.summary?.deadlines) readClock(m.version, (m.open_seats ?? []).length);
        } else if (m.message === "end") {
          st.ended = m;
          refresh();
        }
      },
      onStatus: (s, detail) => {
        st.link = detail ? `${s} (${detail})` : s;
        drawHead();
      },
    });
  })();

  /** "Since your last turn": the digest of what happened after version `from`, as this seat may read it. */
  async function drawSince(from) {
    const lines = [];
    let at = from;
    let events = 0;
    let more = false;
    try {
      for (let page = 0; page < SINCE_PAGES; page++) {
        const got = await api.since(gameId, at);
        lines.push(...got.digest);
        events += got.events.length;
        at = got.upto;
        more = got.more;
        if (!more) break;
      }
    } catch (e) {
      put(since, h("h2", {}, "Since your last turn"), h("p", { class: "notice" }, whyNot(e)));
      since.hidden = false;
      return;
    }
    if (!lines.length) return; // seeds and rolls only: nothing to tell
    const dismiss = h("button", { type: "button", id: "play-since-dismiss" }, "Got it");
    dismiss.addEventListener("click", () => {
      since.hidden = true;
    });
    put(
      since,
      h("h2", {}, "Since your last turn"),
      h(
        "p",
        { class: "muted" },
        `${events} events since you last looked (version ${from} to ${at})`,
        more ? ` (the game went on to version ${st.summary?.version}: the log has the rest)` : "",
        ":",
      ),
      h("ul", { class: "play-since-lines" }, lines.map((line) => h("li", {}, line))),
      dismiss,
    );
    since.hidden = false;
  }

  /** The seats still waiting for a player to accept their invitation: while any is, the server refuses commands.
   * The stream's state says them, and comes again when a seat is taken (a join is no event); before it, the summary. */
  function openSeats() {
    if (st.state) return st.state.open_seats;
    return st.summary ? st.summary.seats.filter((s) => s.open).map((s) => s.seat) : [];
  }

  let timer = null;
  function refresh() {
    drawHead();
    drawMove();
    showSeats(); // a card kept as it was still learns that the last seat was taken
    drawOrders();
    drawLog();
    clearTimeout(timer);
    timer = setTimeout(drawPicture, 150); // a burst of events is drawn once
  }

  // the turn clock (docs/api.md "Deadlines"): the summary's, read again at each new version (a turn starts or ends
  // with a command) and when a seat is taken (the clock starts once the last one is: no event, the same version),
  // and the head drawn again each half minute for the time left
  let clockAt = -1;
  let clockOpen = -1; // the seats still open when it was read
  async function readClock(version, open) {
    if (version < clockAt || (version === clockAt && open === clockOpen)) return;
    clockAt = version;
    clockOpen = open;
    let read;
    try {
      read = await api.game(gameId);
    } catch {
      return; // the clock is only shown: the last one read stays
    }
    if (version !== clockAt || open !== clockOpen) return; // a later read is on its way: it is the one shown
    st.summary = read;
    drawHead();
  }
  const ticking = setInterval(() => st.summary?.deadlines && drawHead(), 30_000); // cleared when the page goes

  function clockText() {
    const d = st.summary?.deadlines;
    if (!d || !st.me || (st.state ? st.state.status : st.summary?.status) !== "open") return "";
    if (d.paused) return " · the turn clock is paused";
    const end = d.deadline_at?.[st.me.seat];
    if (!end) return ` · turn clock: ${duration(d.turn_seconds)} a turn (when a seat's runs out, ${EXPIRED[d.on_expiry]})`;
    const left = Math.max(0, Math.round((Date.parse(end) - Date.now()) / 60000));
    const when = new Date(end).toLocaleString();
    return ` · your turn ends at ${when} (${left < 1 ? "under a minute" : left < 120 ? `${left} min` : `${Math.round(left / 60)} h`} left; then ${EXPIRED[d.on_expiry]})`;
  }

  function drawHead() {
    if (!st.me || !st.summary) return;
    const s = st.state;
    const status = s ? s.status : st.summary.status;
    const waiting = s ? s.waiting_for : st.summary.waiting_for;
    put(
      head,
      h("h1", {}, `${st.rules ? st.rules.title : st.summary.ruleset.id} `, h("span", { class: "muted play-id" }, gameId)),
      h(
        "p",
        {},
        "You play ",
        h("strong", { id: "play-seat" }, st.me.seat),
        " · version ",
        h("span", { id: "play-version" }, String(s ? s.version : st.summary.version)),
        " · ",
        h("span", { id: "play-status", "data-status": status }, status !== "open" ? (status === "over" ? "the game is over" : "over, seed revealed") : openSeats().length ? "waiting for players" : "in play"),
        waiting && waiting.length && !openSeats().length ? ` · waiting for ${waiting.join(", ")}` : "", // seats first
        h("span", { id: "play-clock" }, clockText()),
        " · stream: ",
        h("span", { id: "play-link" }, st.link || "opening"),
      ),
    );
  }

  function mine() {
    const s = st.state;
    const me = st.me;
    if (!s || !me) return [];
    return s.awaiting.filter((a) => a.seats.includes(me.seat));
  }

  async function send(spec, choice) {
    if (st.sending) return;
    st.sending = true;
    const focused = focusKey(move); // taken before the button pressed is disabled, which drops the focus
    // the buttons that were enabled, disabled while the command is on its way (a form's own disabled send stays so)
    const held = [...move.querySelectorAll("button")].filter((b) => !b.disabled);
    for (const b of held) b.disabled = true;
    let sent = false;
    try {
      const answer = await api.send(gameId, command(spec, choice));
      // the stream brings the same state; the answer's awaiting is this seat's now already
      st.state = { ...(st.state || {}), message: "state", version: answer.version, awaiting: answer.awaiting, waiting_for: answer.waiting_for, open_seats: [], status: st.state ? st.state.status : "open" }; // a command was taken: every seat is
      st.error = null;
      sent = true;
    } catch (e) {
      st.error = whyNot(e);
    } finally {
      st.sending = false;
    }
    if (sent || moveKey() !== drawn) return drawMove(true, focused);
    // refused, and nothing this seat may do has changed: the forms keep what the player filled in, the error is said
    for (const b of held) b.disabled = false;
    showError();
    if (focused) refocus(move, focused);
  }

  /** The send error at the top of the move card, in place: the forms under it are not redrawn. */
  function showError() {
    move.querySelector("#play-send-error")?.remove();
    if (st.error) move.querySelector("h2")?.after(h("p", { class: "notice", id: "play-send-error" }, st.error));
    drawn = moveKey();
  }

  /** What the card says in a game in play when this seat has nothing to decide, else null. */
  function waitText() {
    const waiting = st.state ? st.state.waiting_for : [];
    const who = waiting.join(", ");
    if (waiting.length && !waiting.includes(st.me?.seat ?? "")) return `Your orders are in: waiting for ${who}.`;
    if (mine().length) return null;
    return waiting.length ? `Nothing to send: waiting for ${who}.` : "Nothing to send now: the other side is deciding.";
  }

  /** What the move card shows; not the other seats who still owe orders while this one decides (the head says them). */
  function moveKey() {
    const status = st.state ? st.state.status : "open";
    return JSON.stringify([mine(), status, waitText()]);
  }

  let drawn = null; // what the move card shows: redrawn only when it changes, so a half-filled form survives others' moves
  /** @param {{sig: string | null, at: number} | null} [focused] the control to keep focused (focusKey) */
  function drawMove(force = false, focused = focusKey(move)) {
    const entries = mine();
    const status = st.state ? st.state.status : "open";
    const key = moveKey();
    if (key === drawn && !force) return;
    drawn = key;
    const parts = [h("h2", { tabindex: -1 }, "Your move")];
    if (st.error) parts.push(h("p", { class: "notice", id: "play-send-error" }, st.error));
    const wait = waitText();
    if (status !== "open") parts.push(h("p", { id: "play-over" }, "The game is over.", ended()), revealHint(status));
    else if (wait) parts.push(h("p", { class: "muted", id: "play-wait" }, wait));
    const offered = h("fieldset", { class: "play-entries" }); // disabled while a seat is open: showSeats
    // a command that ends the game (`ends_game`: a concession, an abandoned campaign, the referee's end) is drawn last
    // and folded, so no first click is one of them
    for (const spec of entries.filter((e) => !e.ends_game)) add(offered, entry(spec));
    for (const spec of entries.filter((e) => e.ends_game))
      add(offered, h("details", { class: "play-last-resort" }, h("summary", {}, words(spec.type), "…"), entry(spec)));
    put(move, ...parts, offered);
    showSeats();
    if (focused) refocus(move, focused);
  }

  /** While a seat is open the server refuses every command: the decisions are shown but not offered, and the page
   * says whom it waits for. In place, so what the player opened or filled in stays when the last seat is taken. */
  function showSeats() {
    const open = st.state?.status === "open" ? openSeats() : [];
    const offered = move.querySelector(".play-entries");
    if (!(offered instanceof HTMLFieldSetElement)) return;
    move.querySelector("#play-seats-open")?.remove();
    offered.disabled = open.length > 0;
    if (!open.length) return offered.removeAttribute("aria-describedby");
    offered.setAttribute("aria-describedby", "play-seats-open");
    const who = `${open.join(", ")} ${open.length > 1 ? "have" : "has"} not joined`;
    move.querySelector("h2")?.after(
      h("p", { class: "notice", id: "play-seats-open" }, `Waiting for players: ${who}; the game starts when every seat is taken.`),
    );
  }

  function ended() {
    /** @type {any[]} */
    const events = st.events;
    const at = events.map((e) => e.type).lastIndexOf("GameEnded");
    if (at < 0) return "";
    const over = events[at];
    const said = String(over.data.reason);
    const reason = h("span", { class: "muted" }, " ", said.charAt(0).toUpperCase() + said.slice(1), ".");
    // how it came out, in the ruleset's own words: the digest line of the rules' own end (Battlefleet's BattleEnded,
    // "Russia wins"), an event of the same command before it
    let i = at - 1;
    while (i >= 0 && events[i].command === over.command && !/Ended$/.test(events[i].type)) i -= 1;
    const end = events[i];
    const figures = h("span", { id: "play-figures" });
    api
      .game(gameId)
      .then((s) => {
        if (!s.result) return;
        const said = Object.entries(s.result).map(([name, v]) => `${name.replaceAll("_", " ")}: ${typeof v === "number" ? v.toLocaleString("en") : v}`);
        figures.replaceChildren(h("br"), "How it came out: ", said.join(" · "), ".");
      })
      .catch(() => {}); // the reason alone
    if (!end || end.command !== over.command) return [reason, figures];
    const result = h("b", { id: "play-result" });
    api
      .since(gameId, end.seq - 1, 1)
      .then((got) => {
        if (!got.digest.length) return;
        result.textContent = ` ${got.digest[0]}.`;
        if (got.digest[0].includes(over.data.reason)) reason.remove(); // said once: "Russia wins (japan conceded …)"
      })
      .catch(() => {}); // the reason alone
    return [result, reason, figures];
  }

  /** A game over, its seed not yet revealed: where the referee reveals it (a new user found no way from here). */
  function revealHint(status) {
    if (status !== "over") return null;
    const desk = h("a", { href: `#/live/${encodeURIComponent(gameId)}/referee` }, "the referee's desk");
    return h("p", { class: "muted", id: "play-reveal" }, "The referee reveals the server seed in ", desk,
      " (Referee & tokens, with the referee's token), and then every roll can be checked.");
  }

  /** One decision: drawn from its entry alone (client/decisions.js: choices as buttons, a descriptor's controls, the
   * default as one click); the arguments as JSON only behind "advanced", open where the page cannot draw the entry. */
  function entry(spec) {
    const box = h("div", { class: "play-entry", "data-type": spec.type });
    add(box, h("h3", {}, words(spec.type)), spec.description ? h("p", { class: "muted play-description" }, prose(spec.description)) : "");
    const confirm = h("div", { class: "confirm play-confirm", "data-type": spec.type });
    // a command that ends the game, or picks what cannot be undone (a ship's colours struck, a ship scuttled), goes
    // only once the player says yes, as the referee's Reveal does: one click on "concede the battle" ended the game
    const go = (args) => {
      const final = irrevocable(spec.ui, args);
      if (spec.ends_game || final.length) ask(confirm, spec, args, final);
      else send(spec, args);
    };
    add(box, decisionForm(spec, { onSubmit: go }), confirm);
    add(box, advanced(spec, !(spec.choices && spec.choices.length) && !known(spec.ui), go));
    return box;
  }

  /** Asks, in `confirm`, whether to send `spec` with `args`, which cannot be undone (it ends the game, or picks what
   * `final` says); sends on yes. */
  function ask(confirm, spec, args, final = []) {
    const yes = h("button", { type: "button", class: "danger play-confirm-yes", "data-type": spec.type }, `Yes, ${words(spec.type)}`);
    const no = h("button", { type: "button", class: "secondary play-confirm-no", "data-type": spec.type }, "Cancel");
    yes.addEventListener("click", () => send(spec, args));
    no.addEventListener("click", () => put(confirm));
    const what = spec.ends_game ? "this ends the game, for every seat, and cannot be undone" : `${final.join("; ")}: this cannot be undone`;
    put(confirm, h("p", { role: "alert" }, `${words(spec.type)}: ${what}. Send it?`), yes, " ", no);
  }

  /** The arguments as JSON, sent through `submit` (the entry's own send: asking first where it ends the game). */
  function advanced(spec, open, submit) {
    const props = (spec.schema && spec.schema.properties) || {};
    const text = h("textarea", { class: "play-args", rows: 4, cols: 60, spellcheck: "false", "data-type": spec.type }, JSON.stringify(spec.default ?? {}));
    const go = h("button", { type: "button", class: "play-send", "data-type": spec.type }, `Send ${words(spec.type)} as typed`);
    go.addEventListener("click", () => {
      let args;
      try {
        args = JSON.parse(text.value || "{}");
      } catch (e) {
        st.error = `The arguments are not JSON: ${errorText(e)}`;
        return showError(); // the typed text stays, to be mended
      }
      submit(args);
    });
    const fields = Object.entries(props).map(([name, p]) =>
      h("li", {}, h("code", {}, name), p.title ? [" — ", prose(p.title)] : "", p.description ? h("span", { class: "muted" }, ": ", prose(p.description)) : "", limits(p)),
    );
    return h(
      "details",
      { class: "play-advanced", "data-type": spec.type, open },
      h("summary", {}, "advanced: the arguments as JSON"),
      fields.length ? h("ul", { class: "plain play-fields" }, fields) : "",
      text,
      h("p", {}, go),
    );
  }

  function limits(p) {
    const bits = [];
    if (p.minimum !== undefined) bits.push(`≥ ${p.minimum}`);
    if (p.maximum !== undefined) bits.push(`≤ ${p.maximum}`);
    if (p.enum) bits.push(`one of ${p.enum.join(", ")}`);
    if (p.maxItems !== undefined) bits.push(`at most ${p.maxItems}`);
    return bits.length ? h("span", { class: "play-limits" }, ` (${bits.join("; ")})`) : "";
  }

  function drawOrders() {
    orders.hidden = !st.rules?.commands.some((c) => c.sealed);
    const sealed = st.events.filter((e) => e.type === "SubmissionSealed");
    if (!sealed.length) {
      put(orders, h("h2", {}, "Sealed orders"), h("p", { class: "muted" }, "None yet."));
      return;
    }
    // the records the rules have opened (SubmissionsRevealed): public now, shown as such (a referee's trial found
    // them still labelled sealed)
    const opened = new Map();
    for (const e of st.events.filter((x) => x.type === "SubmissionsRevealed"))
      for (const entry of e.data.entries || []) opened.set(entry.seq, { content: entry.content, at: e.seq });
    const rows = sealed.slice(-8).reverse().map((e) => {
      const d = e.data;
      const open = opened.get(e.seq);
      if (open) {
        const text = JSON.stringify(open.content);
        return h(
          "li",
          { class: "play-sealed-opened", "data-seq": e.seq },
          `${d.seat}: ${words(d.kind || "order")} at seq ${e.seq} — opened by the rules at seq ${open.at}, for everyone: `,
          text.length > 160 ? h("details", {}, h("summary", {}, "what it held"), h("code", {}, text)) : h("code", {}, text),
        );
      }
      if (e.sealed) {
        const text = JSON.stringify(e.sealed.content);
        return h(
          "li",
          { class: "play-sealed-mine", "data-seq": e.seq },
          h("strong", {}, `Yours (${d.seat}): ${words(d.kind || "order")} at seq ${e.seq}`),
          " — only you (and the referee) can read it until the rules open it",
          text.length > 160
            ? h("details", {}, h("summary", {}, "what you sealed"), h("code", {}, text))
            : h("div", {}, h("code", {}, text)),
        );
      }
      return h(
        "li",
        { class: "play-sealed-theirs", "data-seq": e.seq },
        `${d.seat}: ${words(d.kind || "order")} submitted — sealed (commitment ${String(d.commitment).slice(0, 12)}…)`,
      );
    });
    put(orders, h("h2", {}, "Sealed orders"), h("ul", { class: "plain" }, rows));
  }

  function drawLog() {
    const last = st.events.slice(-12).reverse();
    put(
      log,
      h("h2", {}, "The log"),
      h(
        "ul",
        { class: "plain play-events" },
        last.map((e) =>
          h(
            "li",
            { "data-seq": e.seq },
            h("span", { class: "muted" }, `${e.seq} `),
            e.type === "DiceRolled" ? rolled(e.data) : e.type,
            e.actor ? h("span", { class: "muted" }, ` · ${e.actor}`) : "",
          ),
        ),
      ),
    );
  }

  /** A roll in the log: what it was for, its faces and what they did, linked to its page (how to check it). */
  function rolled(/** @type {any} */ d) {
    const outcome = d.result?.outcome ? ` — ${d.result.outcome}` : "";
    return h(
      "a",
      { href: `#/live/${encodeURIComponent(gameId)}/roll/${d.k}`, class: "play-roll", title: "why it was rolled, and how to check it" },
      `roll ${d.k}, ${words(String(d.purpose))}: ${d.faces.join(", ")}${outcome}`,
    );
  }

  function drawViewTabs() {
    if (!st.rules) return;
    const names = orderedViews(st.rules.id, st.rules.views.map((v) => v.name));
    put(
      viewTabs,
      names.map((n) => {
        const a = h("a", { href: "javascript:void 0", class: n === st.view ? "tab active" : "tab", "data-view": n }, n);
        a.addEventListener("click", () => {
          st.view = n;
          drawViewTabs();
          drawPicture();
        });
        return a;
      }),
    );
  }

  const pictureStates = new Map(); // what the reader chose on each picture, kept while the table is open
  async function drawPicture() {
    const { summary, rules } = st;
    if (!st.view || st.stopped || !summary || !rules) return;
    const name = st.view;
    try {
      const v = await api.view(gameId, name);
      if (name !== st.view) return;
      const ctx = {
        game: null,
        at: v.at,
        seats: summary.seats.map((s) => s.seat),
        states: pictureStates,
        view: async (/** @type {string} */ other) => (await api.view(gameId, other, v.at)).data,
        moves: mine().flatMap((a) => (a.ui && a.ui.kind === "move" ? a.ui.divisions : [])),
      };
      put(picture, renderView(rules.id, name, v.data, ctx));
      picture.dataset.at = String(v.at);
    } catch (e) {
      put(picture, h("p", { class: "notice" }, whyNot(e)));
    }
  }

  return () => {
    st.stopped = true;
    clearInterval(ticking);
    if (live) live.close();
  };
}

// The game's header and what the browser checked (the verdict, each check, the server's replay on request).

import * as api from "../api.js";
import { engineName } from "../crypto.js";
import { badge, h, put, short } from "../dom.js";
import { Game } from "../game.js";
import { canonical } from "../json.js";
import { base, ui } from "../nav.js";
import { chooseReadAs, reader, readerText, refereeToken, seatToken } from "../reader.js";

export function drawHead(el, g) {
  const d = g.header.dice;
  const fair = d.mode === "fair";
  const source =
    g.source === "bundle"
      ? [h("span", {}, "From the file ", h("b", {}, g.fileName), " — read in this browser, nothing uploaded")]
      : [
          h(
            "span",
            { class: `stream ${g.stream}`, id: "stream-state" },
            {
              live: "● live: new events appear as they are played",
              connecting: "○ connecting…",
              reconnecting: "○ reconnecting…",
              waiting: "● the game is over: watching for the referee's reveal",
              closed:
                g.summary && g.summary.status === "revealed" ? "✓ revealed: the log is complete" : "○ not following",
            }[g.stream] || "",
          ),
          g.summary ? h("span", {}, ` · server status: ${g.summary.status}`) : null,
          " · ",
          downloadLink(g),
        ];
  put(
    el,
    h(
      "div",
      { class: "title-row" },
      h("h1", {}, "Game ", h("code", { id: "game-title" }, g.id)),
      h("span", { class: "pill" }, `${g.ruleset.id} ${g.ruleset.version}`),
      h(
        "span",
        {
          class: fair ? "pill ok" : "pill warn",
          title: fair
            ? "the server committed to its secret seed before any seat's seed"
            : "the creator chose the server seed: fine for tests and tutorials, no fairness claim",
        },
        fair ? "fair dice" : `${d.mode} dice: no fairness claim`,
      ),
      h("a", { href: "#/", class: "close" }, "open another"),
    ),
    h("p", { class: "meta" }, source),
    h(
      "p",
      { class: "meta" },
      `${plural(g.events.length, "event")} · ${plural(g.rolls.length, "roll")} · head `,
      h("code", { title: g.header.head }, short(g.header.head, 16)),
      serverHeadNote(g),
    ),
    g.forkOf
      ? h(
          "p",
          { class: "meta", id: "fork-of" },
          `A fork of ${g.forkOf.game} after its event ${g.forkOf.seq}: its bundle carries the parent's events up to there.`,
        )
      : null,
    readerBanner(g),
  );
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The bundle as this reader may read it: a plain link for the public, fetched with the token otherwise. */
function downloadLink(g) {
  const r = reader(g.id);
  const href = `/games/${encodeURIComponent(g.id)}/bundle`;
  if (!r.token) return h("a", { href, download: `${g.id}.json`, id: "download-bundle" }, "download the bundle");
  return h(
    "a",
    {
      href,
      id: "download-bundle",
      onclick: async (e) => {
        e.preventDefault();
        const text = await api.bundleText(g.id, r.token);
        const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        h("a", { href: url, download: `${g.id}.json` }).click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      },
    },
    `download the bundle (${r.as === "referee" ? "the referee's copy: sealed commands included" : `${r.seat}'s copy`})`,
  );
}

/** Whom the pictures are read as, said plainly, with a choice among the tokens kept (where a server draws them). */
function readerBanner(g) {
  if (g.source !== "live" && !(g.match && g.match.state === "yes")) return null;
  const r = reader(g.id);
  const seat = seatToken(g.id);
  const choices = [["public", "the public"]];
  if (refereeToken(g.id)) choices.push(["referee", "the referee"]);
  if (seat) choices.push(["seat", seat.seat]);
  return h(
    "p",
    { class: `reader-banner ${r.as}`, id: "reader-banner", dataset: { reader: r.as } },
    h("b", {}, readerText(r)),
    choices.length > 1
      ? h(
          "label",
          {},
          " Read as ",
          h(
            "select",
            {
              id: "read-as",
              onchange: (e) => (chooseReadAs(g.id, e.target.value), g.readerChanged()),
            },
            choices.map(([v, text]) => h("option", { value: v, selected: v === r.as }, text)),
          ),
        )
      : null,
    " ",
    g.source === "live"
      ? h("a", { href: `${base()}/referee` }, r.as === "public" ? "paste the referee's or a seat's token…" : "tokens…")
      : null,
  );
}

/** A live game: whether the head the server states is the one the chain gives (when both speak of the same seq). */
function serverHeadNote(g) {
  const claim = g.source === "live" && g.serverHead;
  if (!claim || claim.version !== g.events.length || !g.checks || g.checks.chain.status !== "pass") return null;
  return claim.head === g.header.head
    ? h("span", { id: "server-head", class: "muted" }, " · the server states the same head")
    : h(
        "span",
        { id: "server-head", class: "badge fail" },
        ` the server states another head: ${short(claim.head, 16)}`,
      );
}

const CHECK_NAMES = {
  parent: "Parent game",
  chain: "Event chain",
  dice: "Dice",
  sealed: "Sealed inputs",
  replay: "Replay",
};

function verdictOf(g) {
  const c = g.checks;
  if (c.parent && c.parent.status === "fail")
    return ["fail", `✗ This fork's parent part does not check out: ${c.parent.detail}.`];
  if (c.chain.status === "fail")
    return [
      "fail",
      `✗ The record was altered or is inconsistent: the chain breaks at event seq ${c.chain.first_bad_seq}.`,
    ];
  if (c.dice.status === "fail")
    return [
      "fail",
      `✗ A roll does not match the seeds: ${c.dice.first_bad_k !== null ? `roll k=${c.dice.first_bad_k}` : "the seed inputs"} (seq ${c.dice.first_bad_seq}).`,
    ];
  if (c.sealed.status === "fail")
    return ["fail", `✗ A sealed input does not check out at seq ${c.sealed.first_bad_seq}.`];
  const waiting = [];
  if (c.parent && c.parent.status === "skipped")
    waiting.push("the parent's rolls can be recomputed once its seed is revealed");
  if (c.dice.status === "skipped" && g.rolls.length)
    waiting.push(`the ${g.rolls.length} rolls can be recomputed once the referee reveals the server seed`);
  if (c.sealed.unrevealed && c.sealed.unrevealed.length)
    waiting.push(`${c.sealed.unrevealed.length} sealed input(s) are still closed`);
  if (waiting.length) return ["pending", `… The chain is intact; ${waiting.join("; ")}.`];
  const fork = c.parent ? " This fork's parent part checks out too, up to the position it starts from." : "";
  if (!g.rolls.length)
    return ["pass", `✓ Every event chains — checked in this browser. No dice rolled yet.${fork}`];
  return [
    "pass",
    `✓ Every event chains and every one of the ${g.rolls.length} rolls is what the seeds give — checked in this browser.${fork}`,
  ];
}

/** A check's badge; a game with nothing sealed says "none" rather than "valid". */
function checkBadge(name, c) {
  if (name === "sealed" && c.status === "pass" && c.sealed === 0) return badge("none");
  if (name === "sealed" && c.status === "pass" && c.unrevealed.length) return badge("pending", "… still sealed");
  return badge(c.status);
}

/** Where a fork's parent part can be looked at: the parent game on this server, or the part the file carries. */
function parentLink(g) {
  const ref = g.forkOf;
  if (!ref) return null;
  if (g.source === "live")
    return h(
      "a",
      { href: `#/live/${encodeURIComponent(ref.game)}/timeline/${ref.seq}`, id: "open-parent" },
      `open ${ref.game} at seq ${ref.seq}`,
    );
  if (!g.bundle.parent) return null;
  return h(
    "button",
    {
      type: "button",
      class: "secondary small",
      id: "open-parent",
      onclick: async () => {
        const part = g.bundle.parent;
        const parent = await Game.fromBundle(part, canonical(part), `the parent's part of ${g.fileName}`);
        window.dispatchEvent(new CustomEvent("desk:open-file", { detail: parent }));
      },
    },
    "open the parent's part",
  );
}

export function drawChecks(el, g) {
  if (!g.checks) return;
  const [status, text] = verdictOf(g);
  const rows = Object.entries(g.checks).map(([name, c]) => {
    const link =
      name === "chain" && c.status === "fail"
        ? h("a", { href: `${base()}/events/${c.first_bad_seq}` }, `show event ${c.first_bad_seq}`)
        : name === "dice" && c.status === "fail" && c.first_bad_k !== null
          ? h("a", { href: `${base()}/roll/${c.first_bad_k}` }, `show roll k=${c.first_bad_k}`)
          : name === "sealed" && c.status === "fail"
            ? h("a", { href: `${base()}/events/${c.first_bad_seq}` }, `show event ${c.first_bad_seq}`)
            : name === "parent"
              ? parentLink(g)
              : null;
    return h(
      "tr",
      {
        id: `check-${name}`,
        dataset: { status: c.status, firstBadSeq: c.first_bad_seq ?? "", firstBadK: c.first_bad_k ?? "" },
      },
      h("th", {}, CHECK_NAMES[name]),
      h("td", {}, checkBadge(name, c)),
      h("td", { class: "detail" }, c.detail, link ? [" — ", link] : null),
    );
  });
  const extra = [];
  if (g.source === "bundle") {
    const rep = g.serverReport;
    extra.push(
      h(
        "p",
        { class: "hint" },
        h(
          "button",
          { type: "button", class: "secondary", id: "ask-server-verify", onclick: () => g.askServerToVerify() },
          "Ask this server to replay it",
        ),
        " sends the bundle file to this server, which re-runs every command through the rules and answers with its own report.",
      ),
    );
    if (rep && rep.state === "asking") extra.push(h("p", { class: "loading" }, "the server is replaying…"));
    if (rep && rep.state === "error") extra.push(h("p", { class: "notice" }, `the server could not: ${rep.detail}`));
    if (rep && rep.state === "done") {
      extra.push(
        h(
          "div",
          { class: "server-report", id: "server-report" },
          h("p", {}, "The server's own report (its word, not this page's): verdict ", h("b", {}, rep.report.verdict)),
          h(
            "ul",
            { class: "plain small" },
            Object.entries(rep.report.checks).map(([n, c]) => h("li", {}, badge(c.status), ` ${n}: ${c.detail}`)),
          ),
        ),
      );
    }
  }
  const anyBad = Object.values(g.checks).some((c) => c.status === "fail");
  const open = ui.checksOpen ?? anyBad;
  put(
    el,
    h("h2", {}, "What this browser checked"),
    h("p", { class: `verdict ${status}`, id: "verdict" }, text),
    h(
      "details",
      { class: "check-details", open, ontoggle: (e) => (ui.checksOpen = e.target.open) },
      h(
        "summary",
        {},
        Object.entries(g.checks).map(([name, c]) =>
          h("span", { class: "chip" }, `${CHECK_NAMES[name]} `, checkBadge(name, c)),
        ),
        h("span", { class: "more" }),
      ),
      h("table", { class: "checks-table" }, rows),
      h(
        "p",
        { class: "hint" },
        `Hashes and HMACs by ${engineName()}; the code is this page's own (service/desk/js), written from docs/spec/dice.md and docs/spec/events.md.`,
      ),
    ),
    extra,
  );
}

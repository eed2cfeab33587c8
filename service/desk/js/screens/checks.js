// @ts-check
// The game's header and what the browser checked (the verdict, each check, the server's replay on request).

import { engineName } from "../crypto.js";
import { badge, h, put, short } from "../dom.js";
import { Game } from "../game.js";
import { canonical } from "../json.js";
import { base, stateOf } from "../nav.js";

/** The checks' details: open or shut as the reader left them (null: open when a check failed). */
const kept = () => stateOf("checks", () => ({ open: /** @type {boolean | null} */ (null) }));
import { chooseReadAs, reader, readerText, refereeToken, seatToken } from "../reader.js";

export function drawHead(el, g) {
  const d = g.header.dice;
  const fair = d.mode === "fair";
  const source =
    g.source === "bundle"
      ? [h("span", {}, "From the file ", h("b", {}, g.fileName), ` — read in this browser, ${sent(g)}`)]
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
      h(
        "span",
        { class: "pill", id: "game-ruleset", title: g.rulesetTitle ? g.ruleset.id : null },
        `${g.rulesetTitle ?? g.ruleset.id} ${g.ruleset.version}`,
      ),
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

/** What of a file went to this server: the game id (to ask whether it holds the game), and the file for its replay. */
function sent(g) {
  const rep = g.serverReport;
  if (rep && rep.asked) return "sent to this server for its replay at your request";
  if (rep) return "sent to this server, which holds this game, for its replay";
  return g.record ? "only its game id sent to this server" : "nothing uploaded";
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The bundle: one file for every reader (a sealed command not yet revealed is its commitment, whoever asks), so a
 * plain link, with no token (docs/bundles.md "Sealed records"). */
function downloadLink(g) {
  const href = `/games/${encodeURIComponent(g.id)}/bundle`;
  return h(
    "a",
    { href, download: `${g.id}.json`, id: "download-bundle", title: "the same file for every reader: sealed commands not yet revealed show only their commitment" },
    "download the bundle",
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
  replay: "Rules (replay)",
};

/**
 * The verdict a referee reads at a glance: red when anything failed (the first seq named), green only when the
 * chain, the dice and the rules' replay all passed, amber otherwise, saying what was not checked and why.
 * Returns {status, text, seq, diff, sides} (seq, diff: the first event that differs and its fields).
 * @returns {{status: string, text: string, seq?: number | null, diff?: any, by?: string, sides?: any}}
 */
function verdictOf(g) {
  const c = g.checks;
  const red = (/** @type {string} */ text, /** @type {object} */ extra = {}) => ({ status: "fail", text, ...extra });
  if (c.parent && c.parent.status === "fail") return red(`✗ This fork's parent part does not check out: ${c.parent.detail}.`);
  if (c.chain.status === "fail")
    return red(`✗ The record was altered or is inconsistent: the chain breaks at event seq ${c.chain.first_bad_seq}.`, {
      seq: c.chain.first_bad_seq,
    });
  if (c.dice.status === "fail" && c.dice.first_bad_k != null)
    return red(`✗ A roll does not match the seeds: roll k=${c.dice.first_bad_k} (seq ${c.dice.first_bad_seq}).`);
  if (c.dice.status === "fail") {
    // no one roll's fault: the server seed against the log's or its commitment, or the seeds locked
    const at = c.dice.first_bad_seq != null ? ` (event seq ${c.dice.first_bad_seq})` : "";
    return red(`✗ The seed inputs of the dice do not check out${at}, so no roll can be recomputed: ${c.dice.detail}.`, {
      seq: c.dice.first_bad_seq,
    });
  }
  if (c.sealed.status === "fail") return red(`✗ A sealed input does not check out at seq ${c.sealed.first_bad_seq}.`);
  const rep = c.replay;
  if (rep.status === "fail" && rep.by === "record")
    return red(`✗ This file is not this server's record: ${rep.detail}.`, {
      seq: rep.first_bad_seq,
      diff: rep.diff,
      sides: ["this file", "this server's record"],
    });
  if (rep.status === "fail")
    return red(
      `✗ The rules do not give this record${rep.first_bad_seq ? ` from event seq ${rep.first_bad_seq}` : ""}: ${rep.detail}.`,
      { seq: rep.first_bad_seq, diff: rep.diff, sides: ["recorded", "replayed"] },
    );
  const dice = c.dice.status === "pass" || !g.rolls.length;
  const rules = rep.status === "pass";
  const waiting = [];
  if (c.parent && c.parent.status === "skipped") waiting.push("the parent's rolls can be recomputed once its seed is revealed");
  if (!dice) waiting.push(`the ${g.rolls.length} rolls can be recomputed once the referee reveals the server seed`);
  if (c.sealed.unrevealed && c.sealed.unrevealed.length)
    waiting.push(`${c.sealed.unrevealed.length} sealed input(s) are still closed`);
  const fork = c.parent ? " This fork's parent part checks out too, up to the position it starts from." : "";
  if (rules && !waiting.length) {
    const rolls = g.rolls.length
      ? `every one of the ${g.rolls.length} rolls is what the seeds give`
      : "no dice were rolled";
    return {
      status: "pass",
      text: `✓ Every event chains and ${rolls} — checked in this browser — and the rules give this record: ${rep.said}, by this server.${fork}`,
    };
  }
  const checked = dice ? "Chain and dice verified" : "Chain verified";
  const why = rules
    ? `${checked} and the rules re-run by this server`
    : rep.status === "running"
      ? `${checked} — ${rep.detail}`
      : `${checked} — rules not re-run: ${rep.detail}`;
  const other = rep.by === "other" ? { seq: 1, diff: rep.diff, sides: ["this file", "this server's game"] } : {};
  return { status: "pending", text: `… ${why}${waiting.length ? `; ${waiting.join("; ")}` : ""}.${fork}`, ...other };
}

/** The fields that differ at the first seq that differs, as a small table under the verdict. */
function diffTable(v) {
  if (!v.diff || !v.diff.length) return null;
  const shown = v.diff.slice(0, 8);
  return h(
    "table",
    { class: "grid verdict-diff", id: "verdict-diff" },
    h("tr", {}, h("th", {}, `event ${v.seq}: field`), h("th", {}, v.sides[0]), h("th", {}, v.sides[1])),
    shown.map((d) =>
      h(
        "tr",
        { dataset: { path: d.path } },
        h("td", {}, h("code", {}, d.path)),
        h("td", {}, h("code", {}, short(canonical(d.a), 80))),
        h("td", {}, h("code", {}, short(canonical(d.b), 80))),
      ),
    ),
    v.diff.length > shown.length ? h("tr", {}, h("td", { colspan: 3 }, `and ${v.diff.length - shown.length} more`)) : null,
  );
}

/** A check's badge; a game with nothing sealed says "none" rather than "valid". */
function checkBadge(name, c) {
  if (name === "sealed" && c.status === "pass" && c.sealed === 0) return badge("none");
  if (name === "sealed" && c.status === "pass" && c.unrevealed.length) return badge("pending", "… still sealed");
  if (name === "replay" && c.status === "skipped") return badge("skipped", "— skipped"); // the server's word: not later
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
  const v = verdictOf(g);
  const settled = !["running"].includes(g.checks.replay.status);
  const rows = Object.entries(g.checks).map(([name, c]) => {
    const link =
      name === "chain" && c.status === "fail"
        ? h("a", { href: `${base()}/events/${c.first_bad_seq}` }, `show event ${c.first_bad_seq}`)
        : name === "dice" && c.status === "fail" && c.first_bad_k != null
          ? h("a", { href: `${base()}/roll/${c.first_bad_k}` }, `show roll k=${c.first_bad_k}`)
          : (name === "sealed" || name === "replay" || name === "dice") && c.status === "fail" && c.first_bad_seq
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
    if (!g.record || g.record.state !== "held")
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
  const open = kept().open ?? anyBad;
  put(
    el,
    h("h2", {}, "What was checked"),
    h(
      "div",
      { class: `verdict ${v.status}`, id: "verdict", dataset: { status: v.status, settled: settled ? "1" : "" } },
      h("span", { id: "verdict-text" }, v.text),
      v.seq && v.status === "fail"
        ? [" ", h("a", { href: `${base()}/events/${v.seq}`, id: "verdict-link" }, `show event ${v.seq}`)]
        : null,
      diffTable(v),
    ),
    h(
      "details",
      { class: "check-details", open, ontoggle: (e) => (kept().open = e.target.open) },
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

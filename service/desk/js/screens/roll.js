// @ts-check
// One roll: why it was rolled, what it needed, what it showed, whether it is genuine, how to check it by hand,
// and the game just before and after it.

import { unhex } from "../crypto.js";
import { add, badge, clear, copyButton, die, errorText, h, put, scrolling } from "../dom.js";
import { canonical, isObject, pretty } from "../json.js";
import { base, position } from "../nav.js";
import { opensslLines, roller } from "../umpire1.js";
import { orderedViews } from "../pictures/index.js";
import { noViews, showView, viewPicker, viewsSource } from "./views.js";

const STATUS_LINE = {
  verified: "✓ Verified: the seeds give exactly these faces.",
  mismatch: "✗ Mismatch: the seeds give other faces.",
  pending: "… Pending: the server seed is not revealed yet.",
  unverifiable: "✗ Cannot be checked: the seed inputs are not trustworthy.",
};

export function drawRoll(el, g, k) {
  const draw = async () => {
    const i = g.rolls.findIndex((x) => x.k === k);
    const r = g.rolls[i];
    if (!r) return put(el, h("p", { class: "empty" }, `No roll k=${k} in this game (yet).`));
    const prev = g.rolls[i - 1];
    const next = g.rolls[i + 1];
    const nav = h(
      "div",
      { class: "roll-nav" },
      h("a", { href: `${base()}/rolls` }, "← all rolls"),
      prev ? h("a", { href: `${base()}/roll/${prev.k}`, id: "prev-roll" }, `‹ roll ${prev.k}`) : null,
      next ? h("a", { href: `${base()}/roll/${next.k}`, id: "next-roll" }, `roll ${next.k} ›`) : null,
      h("a", { href: `${base()}/timeline/${r.seq}` }, "see it on the timeline"),
    );
    const head = h(
      "h2",
      { id: "roll-title" },
      `Roll k=${r.k} `,
      h("span", { class: "muted" }, `at event seq ${r.seq}`),
      " ",
      badge(r.status),
    );
    const genuine = {
      verified: `The faces are exactly what the revealed server seed and the locked client seeds give for roll ${r.k} with these dice. ${g.fairness()}`,
      mismatch: `These faces are NOT what the seeds give: ${r.detail}. The record was changed after the roll, or the server did not use the seed it committed to.`,
      pending: `The server seed is still secret, so this roll cannot be recomputed yet. Its commitment (SHA-256 of the seed) is in the game's first event; once the referee reveals the seed, this page recomputes the roll. What the record settles already: ${g.fairness()}`,
      unverifiable: r.detail,
    }[r.status];
    const others = g.rolls.filter((x) => x.rerolls === r.k);
    const why = h(
      "section",
      { class: "card" },
      h("h3", {}, "Why it was rolled"),
      h("p", {}, h("b", {}, r.purpose), " — rule ", h("code", {}, r.rule)),
      r.rerolls != null ? h("p", {}, `A re-roll of roll k=${r.rerolls}, as a rule allows.`) : null,
      others.length ? h("p", {}, `Superseded by the re-roll k=${others.map((x) => x.k).join(", ")}.`) : null,
      h("div", { id: "roll-command" }, h("p", { class: "loading" }, "finding the command…")),
    );
    const res = isObject(r.result) ? r.result : null;
    const needed = h(
      "section",
      { class: "card" },
      h("h3", {}, "What it needed"),
      res && (res.target != null || res.active != null || res.passive != null || (res.modifiers || []).length)
        ? [
            h(
              "table",
              { class: "plain" },
              res.target != null ? h("tr", {}, h("th", {}, "target"), h("td", {}, res.target)) : null,
              res.active != null ? h("tr", {}, h("th", {}, "active"), h("td", {}, res.active)) : null,
              res.passive != null ? h("tr", {}, h("th", {}, "passive"), h("td", {}, res.passive)) : null,
              (res.modifiers || []).map((m) =>
                h("tr", {}, h("th", {}, `${m.value > 0 ? "+" : ""}${m.value} (${m.side})`), h("td", {}, m.reason)),
              ),
              res.total != null ? h("tr", {}, h("th", {}, "total"), h("td", {}, res.total)) : null,
            ),
          ]
        : h(
            "p",
            { class: "muted" },
            res
              ? "No target or modifiers: the outcome reads the faces as its rule says."
              : "A plain draw (a pick or a shuffle): no target.",
          ),
    );
    const showed = h(
      "section",
      { class: "card" },
      h("h3", {}, "What it showed"),
      h(
        "p",
        { class: "faces big" },
        Array.isArray(r.faces)
          ? r.faces.map((f, j) => die(f, Array.isArray(r.sides) ? r.sides[j] : "?", r.status))
          : canonical(r.faces),
      ),
      res ? h("p", { id: "roll-outcome" }, h("b", {}, "Outcome: "), res.outcome) : null,
    );
    const check = h(
      "section",
      { class: "card" },
      h("h3", {}, "Is it genuine?"),
      h(
        "p",
        {
          class: `verdict ${r.status === "verified" ? "pass" : r.status === "pending" ? "pending" : "fail"}`,
          id: "roll-verdict",
        },
        STATUS_LINE[r.status],
      ),
      h("p", {}, genuine),
      r.inChain
        ? null
        : h(
            "p",
            { class: "notice" },
            "This event is at or after the first broken link of the chain, so it is not proven to be the game's record.",
          ),
    );
    const hand = h("section", { class: "card wide", id: "by-hand" }, h("h3", {}, "Check it by hand"));
    const states = h(
      "section",
      { class: "card wide", id: "before-after" },
      h("h3", {}, "The game just before and just after"),
    );
    put(el, nav, head, h("div", { class: "roll-grid" }, why, needed, showed, check), hand, states);
    drawCommand(el.querySelector("#roll-command"), g, r);
    drawByHand(hand, g, r);
    drawBeforeAfter(states, g, r);
  };
  draw();
  return (what) => {
    // "match": the server's answer to "do you hold this game?" (its pictures) can come after the screen is drawn
    if (what === "checks" || what === "match") draw();
  };
}

async function drawCommand(el, g, r) {
  try {
    if (g.source === "live") await g.loadCommands();
  } catch {
    /* shown without the payload */
  }
  const c = g.commandOf(r.seq);
  if (!c) return clear(el);
  const before = g.events.filter((e) => e.body.command === c.command_id && e.body.seq < r.seq);
  put(
    el,
    h(
      "p",
      {},
      "Caused by command ",
      h("code", {}, c.command_id ?? "—"),
      c.seat ? [" sent by ", h("b", {}, c.seat)] : null,
      c.seqs ? ` (events ${c.seqs[0]}–${c.seqs[1]})` : "",
    ),
    r.opened != null
      ? h(
          "p",
          { class: "notice", id: "closed-step" },
          `This was the last submission of a simultaneous step: at `,
          h("a", { href: `${base()}/timeline/${r.opened}` }, `seq ${r.opened}`),
          " it opened every seat's sealed orders, and the step's rolls, this one too, were then made for those orders: " +
            "the seat that sent it did not roll for its own orders alone. The purpose says whose ships this roll is for.",
        )
      : null,
    c.payload !== undefined
      ? h("pre", { class: "json small", id: "command-payload" }, pretty(c.payload))
      : h("p", { class: "muted" }, "(its payload is in the game's bundle)"),
    before.length
      ? h(
          "details",
          {},
          h("summary", {}, `what that command did before this roll (${before.length} events)`),
          h(
            "ul",
            { class: "plain small" },
            before.map((e) =>
              h("li", {}, `seq ${e.body.seq} ${e.body.type}: `, h("code", {}, canonical(e.body.data).slice(0, 200))),
            ),
          ),
        )
      : null,
  );
}

async function drawByHand(el, g, r) {
  const d = g.header.dice;
  const intro = h(
    "p",
    {},
    "With ",
    h("code", {}, "openssl"),
    " (and ",
    h("code", {}, "xxd"),
    ") in a terminal, each line below prints the value beside it. Nothing here depends on this page or the server.",
  );
  if (!d.server_seed || !g.gameSeed) {
    const text = `printf '%s' <SERVER_SEED> | xxd -r -p | openssl dgst -sha256`;
    add(
      el,
      intro,
      h(
        "p",
        {},
        "The server seed is not revealed yet. Once it is, this prints the commitment published in the game's first event:",
      ),
      h(
        "div",
        { class: "cmd" },
        h("pre", {}, text),
        h("span", { class: "expect" }, "→ ", h("code", {}, d.server_commit)),
      ),
    );
    return;
  }
  /** @type {import("../umpire1.js").Block[]} */
  const trace = [];
  try {
    const roll = await roller(unhex(g.gameSeed));
    await roll.faces(r.k, r.sides, trace);
  } catch (e) {
    add(el, h("p", { class: "notice" }, `These dice cannot be rolled: ${errorText(e)}`));
    return;
  }
  const seed = {
    serverSeed: d.server_seed,
    commit: d.server_commit,
    gameId: g.id,
    clientSeeds: d.client_seeds,
    beacon: d.beacon ?? null,
    gameSeedHex: g.gameSeed,
  };
  const lines = opensslLines(seed, r.k, trace);
  const all = lines.map((l) => l.cmd).join("\n");
  add(
    el,
    intro,
    lines.map((l) =>
      h(
        "div",
        { class: "cmd" },
        h("p", { class: "what" }, l.what),
        h("pre", { class: "openssl" }, l.cmd),
        h("span", { class: "expect" }, "→ ", h("code", {}, l.expect)),
      ),
    ),
    h("p", {}, copyButton(all, "copy all the commands")),
    h("h4", {}, "From the blocks to the faces"),
    h(
      "p",
      { class: "small" },
      "Read each block as eight lanes of 8 hex digits (32-bit numbers). Each die takes the next lane x: if x is at or above the limit 2³² − (2³² mod sides) the lane is skipped (so every face is equally likely); otherwise the face is (x mod sides) + 1.",
    ),
    scrolling(h(
      "table",
      { class: "grid lanes", id: "lanes" },
      h(
        "tr",
        {},
        ["block", "lane", "hex", "x", "die", "limit", "face"].map((t) => h("th", {}, t)),
      ),
      trace.flatMap((b) =>
        b.lanes.map((l) =>
          h(
            "tr",
            { class: l.ok ? "" : "skipped" },
            h("td", {}, b.block),
            h("td", {}, l.lane),
            h("td", {}, h("code", {}, b.hex.substr(l.lane * 8, 8))),
            h("td", { class: "num" }, l.x),
            h("td", {}, `d${l.sides}`),
            h("td", { class: "num" }, l.limit),
            h("td", {}, l.ok ? h("b", {}, `${l.x} mod ${l.sides} + 1 = ${l.face}`) : "skipped (x ≥ limit)"),
          ),
        ),
      ),
    ), "from the blocks to the faces"),
  );
}

// what names an item, first found first: a ship's or a boat's name before the seat that owns several
const ID_KEYS = ["sz", "power", "ship", "boat", "escort", "uboat", "number", "round", "name", "territory", "seat"];

/** An array item's name in a path: [sz 7] rather than [4] where the item says what it is. */
function itemName(x, i) {
  const key = isObject(x) && ID_KEYS.find((k) => typeof x[k] === "string" || typeof x[k] === "number");
  return key ? `[${key} ${x[key]}]` : `[${i}]`;
}

/** Where two views differ, as readable paths (at most 40). */
function changes(a, b, path = "", out = []) {
  if (out.length > 40) return out;
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])])
      changes(a[k], b[k], path ? `${path}.${k}` : k, out);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => changes(x, b[i], `${path}${itemName(x, i)}`, out));
  } else if (canonical(a ?? null) !== canonical(b ?? null)) out.push([path, a, b]);
  return out;
}

/** The last event of the run this roll started: its command's events up to the next roll (its effect). */
function effectEnd(g, r) {
  let end = r.seq;
  for (const e of g.events.slice(r.seq)) {
    if (e.body.command !== r.command || e.body.type === "DiceRolled") break;
    end = e.body.seq;
  }
  return end;
}

function drawBeforeAfter(el, g, r) {
  const body = h("div", {});
  const afterSeq = effectEnd(g, r);
  const at0 = r.seq - 1;
  const diffOf = async (name) => {
    const [a, b] = await Promise.all([at0 >= 1 ? g.viewAt(name, at0) : { data: {} }, g.viewAt(name, afterSeq)]);
    return changes(a.data, b.data).filter(([p]) => !p.startsWith("now."));
  };
  const redraw = async () => {
    clear(body);
    if (!g.views.length) return add(body, noViews(g, el, redraw));
    put(body, h("p", { class: "loading" }, "reading the views before and after…"));
    // the views this roll changed are flagged, and the first of them is shown unless another was chosen
    const names = g.views.map((v) => v.name);
    const diffs = new Map(await Promise.all(names.map(async (n) => [n, await diffOf(n).catch(() => [])])));
    const marked = new Set(names.filter((n) => diffs.get(n).length));
    const at = position();
    if (!marked.has(at.view) && marked.size) at.view = orderedViews(g.ruleset.id, [...marked])[0];
    const before = h("div", { class: "half" });
    const after = h("div", { class: "half" });
    const diff = h("div", { class: "diff", id: "diff" });
    const pick = (name) => {
      if (at0 >= 1) showView(before, g, name, at0);
      else put(before, h("p", { class: "muted" }, "Before the first event there is no game."));
      showView(after, g, name, afterSeq);
      const ch = diffs.get(name) || [];
      put(
        diff,
        h("h4", {}, `What changed in ${name}`),
        ch.length
          ? h(
              "ul",
              { class: "plain small" },
              ch.map(([p, x, y]) =>
                h(
                  "li",
                  {},
                  h("code", {}, p),
                  ": ",
                  h("del", {}, canonical(x ?? null).slice(0, 80)),
                  " → ",
                  h("ins", {}, canonical(y ?? null).slice(0, 80)),
                ),
              ),
            )
          : h(
              "p",
              { class: "muted" },
              marked.size
                ? "nothing in this view: the views marked • changed"
                : "no view changed with this roll and the events right after it: its effect shows later on the timeline",
            ),
      );
    };
    // a command that rolls several times may apply what they decided together, after its last roll
    const siblings = g.rolls.filter((x) => x.command === r.command);
    const first = siblings[0];
    const last = siblings[siblings.length - 1];
    const together =
      siblings.length < 2
        ? null
        : h(
            "p",
            { class: "muted", id: "rolled-together" },
            `Its command rolled ${siblings.length} times (k=${first.k}–${last.k}). `,
            last === r
              ? "What follows this last roll may be what all of them decided, applied together, not this roll's alone."
              : [
                  "What a roll decided may be applied only after the last of them: see ",
                  h("a", { href: `${base()}/roll/${last.k}` }, `roll k=${last.k}`),
                  ".",
                ],
          );
    const afterTitle =
      afterSeq === r.seq
        ? `Just after the roll (after event ${r.seq})`
        : `Just after the roll and what it led to (events ${r.seq}–${afterSeq})`;
    put(
      body,
      together,
      viewsSource(g),
      viewPicker(g, pick, marked),
      diff,
      h(
        "div",
        { class: "halves" },
        h("div", {}, h("h4", {}, `Just before the roll (after event ${r.seq - 1})`), before),
        h("div", {}, h("h4", {}, afterTitle), after),
      ),
    );
    pick(position().view);
  };
  add(el, body);
  redraw();
}

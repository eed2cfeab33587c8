// @ts-check
// The timeline: every event on a strip, a slider to any seq, and the pictures of the game as it stood then.

import { badge, h, put, s } from "../dom.js";
import { canonical } from "../json.js";
import { base, go, position } from "../nav.js";
import { noViews, showView, viewPicker, viewsSource } from "./views.js";

const CATEGORY = (type) =>
  type === "DiceRolled"
    ? "roll"
    : ["GameCreated", "SeedLocked", "ClientSeedContributed", "ServerSeedRevealed", "GameEnded"].includes(type)
      ? "core"
      : /Decision|Submission/.test(type)
        ? "decision"
        : "other";

export function drawTimeline(el, g, seqArg) {
  let seq = Math.min(Math.max(1, seqArg || position().seq || g.events.length), g.events.length);
  const W = 1000;
  const strip = s("svg", { viewBox: `0 0 ${W} 46`, class: "strip", preserveAspectRatio: "none", id: "strip" });
  const range = h("input", {
    type: "range",
    id: "scrub",
    min: 1,
    max: g.events.length,
    value: seq,
    "aria-label": "event seq",
  });
  const label = h("span", { class: "seq-label", id: "seq-label" });
  const eventBox = h("div", { class: "event-at", id: "event-at" });
  const pics = h("div", { class: "pictures", id: "pictures" });
  const nextOf = (dir, pred) => {
    const order = dir > 0 ? g.events.slice(seq) : g.events.slice(0, seq - 1).reverse();
    const e = order.find(pred);
    return e ? e.body.seq : null;
  };
  const button = (text, id, f) =>
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id,
        onclick: () => {
          const t = f();
          if (t) set(t);
        },
      },
      text,
    );
  const controls = h(
    "div",
    { class: "scrub-row" },
    button("« first", "first", () => 1),
    button("‹ roll", "prev-roll-t", () => nextOf(-1, (e) => e.body.type === "DiceRolled")),
    button("‹", "prev-event", () => Math.max(1, seq - 1)),
    range,
    button("›", "next-event", () => Math.min(g.events.length, seq + 1)),
    button("roll ›", "next-roll-t", () => nextOf(1, (e) => e.body.type === "DiceRolled")),
    button("last »", "last", () => g.events.length),
    label,
    g.source === "live"
      ? h(
          "a",
          {
            class: "button secondary",
            id: "whatif-here",
            href: `${base()}/whatif/${seq}`,
            onclick: (e) => (e.currentTarget.href = `${base()}/whatif/${seq}`),
            title: "the odds from this position, or a fork of the game here",
          },
          "What-if from here…",
        )
      : null,
  );
  put(
    el,
    h(
      "p",
      { class: "hint" },
      "Drag the slider (or click the strip) to any event: the pictures show the game as it stood right after it. Rolls are the tall red marks.",
    ),
    strip,
    controls,
    eventBox,
    pics,
  );
  function drawStrip() {
    const n = g.events.length;
    const bad = g.checks && g.checks.chain.status === "fail" ? g.checks.chain.first_bad_seq : null;
    const x = (q) => ((q - 0.5) / n) * W;
    const marks = g.events.map((e) => {
      const cat = CATEGORY(e.body.type);
      const tall = cat === "roll" ? 8 : cat === "core" ? 4 : 18;
      return s("line", { x1: x(e.body.seq), x2: x(e.body.seq), y1: tall, y2: 38, class: `mark ${cat}` });
    });
    put(
      strip,
      bad
        ? s("rect", { x: x(bad) - W / n / 2, y: 0, width: W - x(bad) + W / n / 2, height: 46, class: "broken" })
        : null,
      marks,
      s("rect", { x: x(seq) - Math.max(1.5, W / n / 2), y: 0, width: Math.max(3, W / n), height: 46, class: "cursor" }),
    );
  }
  strip.addEventListener("click", (e) => {
    const rect = strip.getBoundingClientRect();
    set(Math.min(g.events.length, Math.max(1, Math.ceil(((e.clientX - rect.left) / rect.width) * g.events.length))));
  });
  let timer = null;
  range.addEventListener("input", () => set(Number(range.value), true));
  function set(q, dragging = false) {
    seq = q;
    position().seq = q;
    range.value = q;
    go(`/timeline/${q}`, true);
    drawStrip();
    drawEvent();
    clearTimeout(timer);
    timer = setTimeout(drawPictures, dragging ? 150 : 0);
  }
  function drawEvent() {
    const e = g.events[seq - 1];
    label.textContent = `event ${seq} of ${g.events.length}`;
    const roll = e.body.type === "DiceRolled" ? g.rolls.find((r) => r.seq === seq) : null;
    put(
      eventBox,
      h(
        "p",
        {},
        h("b", {}, `seq ${seq}: ${e.body.type}`),
        e.body.command ? [" · command ", h("code", {}, e.body.command)] : null,
        g.seatOf(e) ? ` · ${g.seatOf(e)}` : "",
        roll
          ? [" · ", h("a", { href: `${base()}/roll/${roll.k}` }, `roll k=${roll.k}`), " ", badge(roll.status)]
          : null,
      ),
      h("pre", { class: "json small" }, canonical(e.body.data).slice(0, 600)),
    );
  }
  let picker = null;
  function drawPictures() {
    if (!g.views.length) {
      put(
        pics,
        noViews(g, el, () => drawTimeline(el, g, seq)),
      );
      return;
    }
    const box = h("div", {});
    if (!picker || !pics.contains(picker)) {
      picker = viewPicker(g, () => drawPictures());
      put(pics, viewsSource(g), picker, box);
    } else {
      pics.lastChild.replaceWith(box);
    }
    showView(box, g, position().view, seq);
  }
  drawStrip();
  drawEvent();
  drawPictures();
  return (what) => {
    if (what === "events") {
      const atEnd = seq === Number(range.max);
      range.max = g.events.length;
      if (atEnd) set(g.events.length);
      else drawStrip();
    }
    if (what === "checks" || what === "match") drawStrip();
    // the server's answer to "do you hold this game?" can come after the tab is drawn: its pictures come with it
    if (what === "match" && !(picker && pics.contains(picker))) drawPictures();
  };
}

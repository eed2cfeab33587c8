// @ts-check
// The odds' charts, as `umpire simulate --plot` draws them (service/whatif.py plot): a quantity's histogram with the
// real game's value marked and its percentile, a category's shares with the real game's category marked.

import { h, s } from "../dom.js";
import { PyFloat } from "../json.js";

const W = 460;
const H = 190;
const PAD = { left: 40, right: 14, top: 30, bottom: 34 };

/** A number as the exact JSON parser gives it (a Python float is a PyFloat, a big int a BigInt) as a plain one. */
/** @param {unknown} v @returns {any} */
const plain = (v) => (v instanceof PyFloat ? v.value : typeof v === "bigint" ? Number(v) : v);
/** @param {unknown} v */
const num = (v) => plain(v).toLocaleString("en", { maximumFractionDigits: 1 });

/**
 * One figure's histogram: bars [{lo, hi, count}] over the continuations, the real value as a red line.
 * @param {string} name
 * @param {Record<string, unknown>} figure the job's result for it (histogram, actual, percentile, median, …)
 */
export function histogram(name, figure) {
  const f = Object.fromEntries(Object.entries(figure).map(([k, v]) => [k, plain(v)]));
  const bins = f.histogram;
  const lo = Math.min(bins[0].lo, f.actual ?? Infinity) - 0.5;
  const hi = Math.max(bins[bins.length - 1].hi, f.actual ?? -Infinity) + 0.5;
  /** @typedef {{lo: number, hi: number, count: number}} Bin */
  const top = Math.max(...bins.map((/** @type {Bin} */ b) => b.count), 1);
  /** @param {number} v */
  const x = (v) => PAD.left + ((v - lo) / (hi - lo)) * (W - PAD.left - PAD.right);
  /** @param {number} c */
  const y = (c) => H - PAD.bottom - (c / top) * (H - PAD.top - PAD.bottom);
  const bars = bins.map((/** @type {Bin} */ b) => {
    const x0 = x(b.lo - 0.5);
    const x1 = x(b.hi + 0.5);
    const gap = (x1 - x0) * 0.05;
    return s(
      "rect",
      { x: x0 + gap, y: y(b.count), width: Math.max(1, x1 - x0 - 2 * gap), height: y(0) - y(b.count), class: "bar", dataset: { lo: b.lo, hi: b.hi, count: b.count } },
      s("title", {}, `${b.lo === b.hi ? num(b.lo) : `${num(b.lo)} to ${num(b.hi)}`}: ${b.count} game(s)`),
    );
  });
  const real =
    f.actual === null || f.actual === undefined
      ? null
      : s(
          "g",
          { class: "real", dataset: { actual: f.actual } },
          s("line", { x1: x(f.actual), x2: x(f.actual), y1: PAD.top - 6, y2: y(0) }),
          s("text", { x: x(f.actual), y: PAD.top - 9, class: "tick" }, `real ${num(f.actual)}`),
        );
  const title =
    f.actual === null || f.actual === undefined
      ? name
      : `${name}: real ${num(f.actual)} (percentile ${f.percentile})`;
  const ends = [
    s("text", { x: x(bins[0].lo), y: H - PAD.bottom + 14, class: "tick" }, num(bins[0].lo)),
    bins.length > 1
      ? s("text", { x: x(bins[bins.length - 1].hi), y: H - PAD.bottom + 14, class: "tick end" }, num(bins[bins.length - 1].hi))
      : null,
  ];
  return chart(name, f, title, String(top), "games", [bars, ...ends, real]);
}

/**
 * One category's shares (a winner, a result level): a bar per category in percent of the continuations, the real
 * game's category in red. Its values are names, not amounts: no axis of values, no percentile.
 * @param {string} name
 * @param {Record<string, unknown>} figure the job's result for it (shares, actual_label)
 */
export function sharesChart(name, figure) {
  const f = Object.fromEntries(Object.entries(figure).map(([k, v]) => [k, plain(v)]));
  /** @type {[string, number][]} */
  const entries = Object.entries(f.shares).map(([label, pct]) => [label, plain(pct)]);
  const slot = (W - PAD.left - PAD.right) / Math.max(entries.length, 1);
  /** @param {number} pct */
  const y = (pct) => H - PAD.bottom - (pct / 100) * (H - PAD.top - PAD.bottom);
  const bars = entries.map(([label, pct], i) => {
    const x0 = PAD.left + i * slot;
    return [
      s(
        "rect",
        { x: x0 + slot * 0.1, y: y(pct), width: slot * 0.8, height: y(0) - y(pct), class: label === f.actual_label ? "bar real" : "bar", dataset: { label, share: pct } },
        s("title", {}, `${label}: ${num(pct)}% of the games`),
      ),
      s("text", { x: x0 + slot / 2, y: H - PAD.bottom + 14, class: "tick" }, label),
    ];
  });
  const title = f.actual_label === null || f.actual_label === undefined ? name : `${name}: real ${f.actual_label}`;
  return chart(name, f, title, "100%", "% of games", bars.flat());
}

/**
 * A figure's frame: its title, the axes (the top of the count axis labelled `top`, the axis named `axis`), what is
 * drawn in it and its caption.
 * @param {string} name @param {Record<string, any>} f @param {string} title @param {string} top @param {string} axis
 * @param {import("../dom.js").Child[]} drawn
 */
function chart(name, f, title, top, axis, drawn) {
  const y0 = H - PAD.bottom;
  return h(
    "figure",
    { class: "odds-figure", dataset: { figure: name } },
    s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, class: "chart odds-chart", role: "img", "aria-label": title },
      s("text", { x: PAD.left, y: 14, class: "panel-title" }, title),
      s("line", { x1: PAD.left, x2: W - PAD.right, y1: y0, y2: y0, class: "axis" }),
      s("line", { x1: PAD.left, x2: PAD.left, y1: y0, y2: PAD.top, class: "axis" }),
      s("text", { x: PAD.left - 4, y: PAD.top + 4, class: "tick end" }, top),
      s("text", { x: PAD.left - 4, y: y0, class: "tick end" }, "0"),
      s("text", { x: 10, y: (PAD.top + y0) / 2, class: "tick", transform: `rotate(-90 10 ${(PAD.top + y0) / 2})` }, axis),
      ...drawn,
    ),
    h("figcaption", {}, caption(f)),
  );
}

/**
 * What a figure comes to in words: a category (a winner, a result level) as each one's share of the games, a
 * quantity as its median, spread and mean with the mean's 95% interval.
 * @param {Record<string, any>} f
 */
export function caption(f) {
  if (f.shares) {
    const shares = Object.entries(f.shares)
      .map(([label, pct]) => [label, plain(pct)])
      .sort((a, b) => b[1] - a[1])
      .map(([label, pct]) => `${label} ${num(pct)}%`)
      .join(", ");
    return f.actual_label ? `${shares} · the real game: ${f.actual_label}` : shares;
  }
  const ci = Array.isArray(f.ci95) ? ` (95% interval ${num(f.ci95[0])} to ${num(f.ci95[1])})` : "";
  return `median ${num(f.median)} · middle half ${num(f.p25)} to ${num(f.p75)} · 90% within ${num(f.p5)} to ${num(f.p95)} · mean ${num(f.mean)}${ci} · range ${num(f.min)} to ${num(f.max)}`;
}

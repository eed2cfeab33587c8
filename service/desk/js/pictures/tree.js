// @ts-check
// Any JSON as a readable, foldable tree: the picture of a view the desk has no drawing for.

import { h } from "../dom.js";
import { canonical, isObject } from "../json.js";

/** @param {unknown} v */
function scalar(v) {
  const kind = v === null ? "null" : typeof v === "string" ? "str" : typeof v === "boolean" ? "bool" : "num";
  return h("span", { class: `j-${kind}` }, typeof v === "string" ? v : canonical(v));
}

/** @param {string | null} key @param {unknown} v @param {number} depth @returns {Element} */
function node(key, v, depth) {
  const label = key === null ? null : h("span", { class: "j-key" }, key);
  if (Array.isArray(v) || isObject(v)) {
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    const size = Array.isArray(v) ? `[${v.length}]` : `{${entries.length}}`;
    if (!entries.length)
      return h(
        "div",
        { class: "j-row" },
        label,
        label && ": ",
        h("span", { class: "j-null" }, Array.isArray(v) ? "[]" : "{}"),
      );
    const flat = Array.isArray(v) && v.every((x) => !Array.isArray(x) && !isObject(x)) && v.length <= 24;
    if (flat)
      return h(
        "div",
        { class: "j-row" },
        label,
        label && ": ",
        h(
          "span",
          { class: "j-flat" },
          "[",
          v.map((x, i) => [i ? ", " : "", scalar(x)]),
          "]",
        ),
      );
    return h(
      "details",
      { class: "j-node", open: depth < 2 || canonical(v).length < 400 },
      h("summary", {}, label || "", h("span", { class: "j-size" }, ` ${size}`)),
      entries.map(([k, x]) => node(k, x, depth + 1)),
    );
  }
  return h("div", { class: "j-row" }, label, label && ": ", scalar(v));
}

/** Any JSON as a foldable tree. @param {unknown} value @returns {Element} */
export function jsonTree(value) {
  return h("div", { class: "json-tree" }, node(null, value, 0));
}

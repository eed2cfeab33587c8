// @ts-check
// A few helpers to build the page without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An element's attributes: `on…` a listener, `dataset` its data- attributes, true an empty attribute; null,
 * undefined and false leave the attribute out.
 * @typedef {Record<string, any>} Attrs
 * @typedef {Node | string | number | bigint | boolean | null | undefined | unknown[]} Child arrays of children too,
 *   flattened
 */

/** What was thrown, in words (an Error's message, else the value itself). @param {unknown} e */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/** @template {Element} E @param {E} el @param {Attrs | null} attrs @param {Child[]} children @returns {E} */
function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(/** @type {HTMLElement | SVGElement} */ (/** @type {unknown} */ (el)).dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of /** @type {Child[]} */ (children.flat(Infinity))) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h("div", {class: "x", onclick: f}, child, "text", [more])
 * @param {string} tag @param {Attrs | null} [attrs] @param {...Child} children @returns {any} an HTML element (any: its
 *   tag decides which, and its readers use what that kind has) */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/**
 * A rule's prose as children of an element: its `code` spans (between backticks, as the API's descriptions write
 * field names) as <code>, the rest as text; text whose backticks do not pair is kept as written.
 * @param {string} text @returns {(string | HTMLElement)[]}
 */
export function prose(text) {
  const parts = text.split("`");
  if (parts.length % 2 === 0) return [text];
  return parts.map((p, i) => (i % 2 ? h("code", {}, p) : p)).filter((p) => p !== "");
}

/**
 * An identifier that stands alone (`vital-tonnage`, `end_campaign`) in words ("vital tonnage"); any other text as
 * written: a roll's purpose such as "draw events: U-43: move into north-sea" names things by their hyphens (U-43 is not
 * U 43). @param {string} text
 */
export function words(text) {
  return /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(text) ? text.replace(/[-_]/g, " ") : text;
}

/** An SVG element. @param {string} tag @param {Attrs | null} [attrs] @param {...Child} children @returns {SVGElement} */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** @template {Element} E @param {E} el */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** @type {Record<string, string>} */
export const STATUS_TEXT = {
  pass: "✓ valid",
  verified: "✓ verified",
  fail: "✗ failed",
  mismatch: "✗ mismatch",
  pending: "… pending",
  skipped: "… pending",
  unverifiable: "✗ unverifiable",
  none: "none",
  warn: "! warning",
  "not-run": "— not run",
  running: "… running",
};

/** @param {string} status @param {string | null} [text] */
export function badge(status, text = null) {
  return h("span", { class: `badge ${status}`, "data-status": status }, text ?? STATUS_TEXT[status] ?? status);
}

/** @param {unknown} hash @param {number} [n] */
export function short(hash, n = 12) {
  return typeof hash === "string" && hash.length > n ? hash.slice(0, n) + "…" : String(hash);
}

/** A die face: a small square with the number and its sides underneath. */
/** @param {unknown} face @param {unknown} sides @param {string} [status] */
export function die(face, sides, status = "") {
  return h(
    "span",
    { class: `die ${status}`, title: `a ${sides}-sided die showing ${face}` },
    h("b", {}, String(face)),
    h("small", {}, `d${sides}`),
  );
}

/** @param {string} text @param {string} [label] */
export function copyButton(text, label = "copy") {
  return h(
    "button",
    {
      class: "copy",
      type: "button",
      onclick: async (/** @type {{target: HTMLElement}} */ e) => {
        try {
          await navigator.clipboard.writeText(text);
          e.target.textContent = "copied";
        } catch {
          e.target.textContent = "select and copy by hand";
        }
        setTimeout(() => (e.target.textContent = label), 1500);
      },
    },
    label,
  );
}

/** Append children (arrays flattened, null skipped). @template {Element} E @param {E} el @param {...Child} children */
export function add(el, ...children) {
  return build(el, {}, children);
}

/** Replace an element's children. @template {Element} E @param {E} el @param {...Child} children */
export function put(el, ...children) {
  return build(clear(el), {}, children);
}

/** A wide table in a region of its own that scrolls sideways on a phone (the page does not), reachable by keyboard.
 * @param {HTMLElement} table @param {string} label what the table is, for a screen reader */
export function scrolling(table, label) {
  return h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": label }, table);
}

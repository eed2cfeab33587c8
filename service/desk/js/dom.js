// A few helpers to build the page without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h("div", {class: "x", onclick: f}, child, "text", [more]) */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

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

export function badge(status, text = null) {
  return h("span", { class: `badge ${status}`, "data-status": status }, text ?? STATUS_TEXT[status] ?? status);
}

export function short(hash, n = 12) {
  return typeof hash === "string" && hash.length > n ? hash.slice(0, n) + "…" : String(hash);
}

/** A die face: a small square with the number and its sides underneath. */
export function die(face, sides, status = "") {
  return h(
    "span",
    { class: `die ${status}`, title: `a ${sides}-sided die showing ${face}` },
    h("b", {}, String(face)),
    h("small", {}, `d${sides}`),
  );
}

export function copyButton(text, label = "copy") {
  return h(
    "button",
    {
      class: "copy",
      type: "button",
      onclick: async (e) => {
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

/** Append children (arrays flattened, null skipped). */
export function add(el, ...children) {
  return build(el, {}, children);
}

/** Replace an element's children. */
export function put(el, ...children) {
  return build(clear(el), {}, children);
}

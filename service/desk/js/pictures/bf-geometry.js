// @ts-check
// Battlefleet 1900's table geometry, the one place the desk computes it, after domain/battlefleet_1900/geometry.py:
// millimetres with x east and y north, a heading in whole degrees clockwise from north, a pose's (x, y) at the bow,
// arcs in half-degrees clockwise off the bow (a port arc is its starboard one mirrored). The desk only draws with
// this (the rules decide with integers on the server), so floats are fine here.
// In the picture north is up: a table point (x, y) is drawn at (x, depth - y).

/**
 * @typedef {[number, number]} Point a table point in mm: [east, north]
 * @typedef {{x: number, y: number, h: number}} Pose a base's bow and heading (degrees clockwise from north)
 * @typedef {[number, number]} Arc half-degrees clockwise off the bow: [from, to]
 * @typedef {{x: number, y: number, w: number, h: number}} Frame
 */

const RAD = Math.PI / 180;

/** The unit vector of a bearing in degrees clockwise from north: [east, north]. */
/** @param {number} deg @returns {Point} */
export function unit(deg) {
  return [Math.sin(deg * RAD), Math.cos(deg * RAD)];
}

/** The point `along` mm aft of the bow and `lat` mm to starboard of a pose {x, y, h} (geometry.point). */
/** @param {Pose} pose @param {number} along @param {number} lat @returns {Point} */
export function point(pose, along, lat) {
  const [fx, fy] = unit(pose.h);
  const [sx, sy] = unit(pose.h + 90);
  return [pose.x - along * fx + lat * sx, pose.y - along * fy + lat * sy];
}

/** A base's corners: bow port, bow starboard, stern starboard, stern port (geometry.base). */
/** @param {Pose} pose @param {number} length @param {number} width @returns {Point[]} */
export function baseCorners(pose, length, width) {
  const w = Math.floor(width / 2);
  return [point(pose, 0, -w), point(pose, 0, w), point(pose, length, w), point(pose, length, -w)];
}

/** The funnel: where sight, range and arcs are measured from (rules/orders.funnel). */
/** @param {Pose} pose @param {number} funnelMm */
export function funnel(pose, funnelMm) {
  return point(pose, funnelMm, 0);
}

/** The arcs of a pattern group or tube on one side: starboard as the data gives them, port mirrored. */
/** @param {Arc[]} arcs @param {string | null | undefined} side @returns {Arc[]} */
export function sided(arcs, side) {
  return side === "port" ? arcs.map(([a, b]) => /** @type {Arc} */ ([-b, -a])) : arcs;
}

/** How far a weapon reaches: the brackets its penetrations cover (a null beyond is out of reach). */
/** @param {(number | null | undefined)[]} pen @param {number} bracketMm */
export function reach(pen, bracketMm) {
  let k = 0;
  pen.forEach((p, i) => {
    if (p !== null && p !== undefined) k = i + 1;
  });
  return k * bracketMm;
}

/** The view onto the table: a rectangle in table mm (x, y at its south-west corner, w, h). */
/** @param {number} x @param {number} y @param {number} w @param {number} h @returns {Frame} */
export function frame(x, y, w, h) {
  return { x, y, w, h };
}

/** The smallest frame holding `points` with `margin` mm around them, widened to the table's proportions. */
/** @param {Point[]} points @param {number} margin @param {number[]} bounds @param {number} [minWidth] */
export function fit(points, margin, bounds, minWidth = 600) {
  if (!points.length) return frame(0, 0, bounds[0], bounds[1]);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  let [x0, x1, y0, y1] = [Math.min(...xs) - margin, Math.max(...xs) + margin, Math.min(...ys) - margin, Math.max(...ys) + margin];
  const ratio = bounds[0] / bounds[1];
  let w = Math.max(x1 - x0, minWidth, (y1 - y0) * ratio);
  let h = w / ratio;
  return frame((x0 + x1 - w) / 2, (y0 + y1 - h) / 2, w, h);
}

/** Table mm to picture coordinates (north up): the SVG viewBox is the frame, y flipped about the table's depth. */
/** @param {number[]} p @param {number} depth @returns {Point} */
export function toPicture(p, depth) {
  return [p[0], depth - p[1]];
}

/** The SVG viewBox of a frame. @param {Frame} f @param {number} depth */
export function viewBox(f, depth) {
  return `${f.x} ${depth - f.y - f.h} ${f.w} ${f.h}`;
}

/**
 * An arc as an SVG path (picture coordinates): the sector from `centre` between a and b half-degrees clockwise off
 * heading h, out to radius r. Returns {d, from, to}: the path and the arc's bearings in degrees (0-360).
 * @param {Point} centre @param {number} h @param {number} a @param {number} b @param {number} r @param {number} depth
 */
export function sector(centre, h, a, b, r, depth) {
  const from = h + a / 2;
  const to = h + b / 2;
  const span = to - from;
  const [cx, cy] = toPicture(centre, depth);
  /** @param {number} deg */
  const at = (deg) => {
    const [e, n] = unit(deg);
    return [cx + r * e, cy - r * n];
  };
  /** @param {number} deg */
  const norm = (deg) => ((deg % 360) + 360) % 360;
  let d;
  if (span >= 360) {
    const [p, q] = [at(from), at(from + 180)];
    d = `M${p} A${r},${r} 0 1 1 ${q} A${r},${r} 0 1 1 ${p} Z`;
  } else {
    const [p, q] = [at(from), at(to)];
    d = `M${cx},${cy} L${p} A${r},${r} 0 ${span > 180 ? 1 : 0} 1 ${q} Z`;
  }
  return { d, from: norm(from), to: norm(to), span };
}

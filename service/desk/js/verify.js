// @ts-check
// Verification of a game's record in the browser (docs/spec/events.md, docs/spec/dice.md).
//
// The chain and dice checks follow service/replay.py step for step (same order, same first failure named),
// so the desk and `umpire verify` name the same seq and roll for any bundle; the tests hold them to it.
// The replay check needs the rules engine and is not run here. The sealed-input check is docs/spec/events.md's.

import { canonical, isInt, isObject, pyEq, pyStr, PyFloat } from "./json.js";
import { concat, hex, hmac, sha256, unhex, utf8 } from "./crypto.js";
import { gameSeed, roller } from "./umpire1.js";

/**
 * A bundle past bundleError(): its shape is checked, its values are not (they are what the checks judge).
 * @typedef {{body: any, hash: string, actor?: string | null}} BundleEvent the body as hashed, and its hash
 * @typedef {{command_id: string, seat: string, payload: any, seqs: number[]}} BundleCommand
 * @typedef {{scheme: string, mode: string, server_commit: string, server_seed: string | null, client_seeds: string[],
 *   beacon?: string | null}} BundleDice
 * @typedef {{format?: string, engine?: string, ruleset: {id: string, version: string, data_sha256: string},
 *   game: string, dice: BundleDice, commands: BundleCommand[], events: BundleEvent[], head: string | null,
 *   parent?: Bundle | null, commands_unread?: boolean}} Bundle (`commands_unread`: a live game's, whose commands are
 *   not read yet at its length: the list is then not checked against the events)
 * @typedef {{status: string, detail: string, first_bad_seq?: any, first_bad_k?: any, [more: string]: any}} Check
 *   a check's report, as `umpire verify` words it (first_bad_seq and first_bad_k as the bundle holds them)
 * @typedef {(event: BundleEvent) => string | null} SeatOf who sent the command that made an event
 */

export const FORMAT = "umpire-bundle/1";
const GENESIS = new Uint8Array(32);

/** @param {string} status @param {string} detail @param {object} [extra] @returns {Check} */
function check(status, detail, extra = {}) {
  return { status, detail, ...extra };
}

/** Ascending seqs as runs, "seqs 3–4, 20, 23–40" ("seq 3" for one), as service/replay.py `_seqs` writes them.
 * @param {number[]} seqs */
export function seqRuns(seqs) {
  /** @type {number[][]} */
  const runs = [];
  for (const seq of seqs) {
    const last = runs[runs.length - 1];
    if (last && seq === last[1] + 1) last[1] = seq;
    else runs.push([seq, seq]);
  }
  return (seqs.length === 1 ? "seq " : "seqs ") + runs.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(", ");
}

/** A key of an object, else `dflt` (Python's dict.get on what may not be a dict). @type {(o: unknown, key: string, dflt?: any) => any} */
const get = (o, key, dflt = null) => (isObject(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : dflt);

// ---- the bundle's shape (events/bundle.py: msgspec Structs, unknown fields refused) ----

/** @param {unknown} v */
function typeName(v) {
  if (v === null) return "null";
  if (typeof v === "boolean") return "bool";
  if (isInt(v)) return "int";
  if (v instanceof PyFloat) return "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "array";
  return "object";
}

/** @typedef {(v: unknown) => boolean} Test */
/** @type {Test} */
const STR = (v) => typeof v === "string";
/** @type {Test} */
const STR_OR_NULL = (v) => v === null || typeof v === "string";
/** A `Literal` of events/bundle.py: one of these strings. @param {string[]} values @returns {Test} */
const oneOf = (values) => (v) => typeof v === "string" && values.includes(v);
/** @type {Test} */
const INT = (v) => isInt(v);
/** @type {Test} */
const OBJ = (v) => isObject(v);
/** @param {Test} item @returns {Test} */
const listOf = (item) => (v) => Array.isArray(v) && v.every(item);

/** Each Struct's fields: [what it must be, its test (or another shape's name), "optional"].
 * @type {Record<string, Record<string, [string, (Test | null)?, string?]>>} */
const SHAPES = {
  bundle: {
    format: ["str", STR],
    engine: ["str", STR],
    ruleset: ["ruleset"],
    game: ["str", STR],
    dice: ["dice"],
    commands: ["commands"],
    events: ["events"],
    head: ["str", STR],
    parent: ["bundle | null", null, "optional"], // a fork's parent: its bundle up to the fork's seq
  },
  ruleset: { id: ["str", STR], version: ["str", STR], data_sha256: ["str", STR] },
  dice: {
    scheme: ["'umpire1'", oneOf(["umpire1"])],
    mode: ["'fair' | 'public-seed'", oneOf(["fair", "public-seed"])],
    server_commit: ["str", STR],
    server_seed: ["str | null", STR_OR_NULL],
    client_seeds: ["array of str", listOf(STR)],
    beacon: ["str | null", STR_OR_NULL, "optional"],
  },
  command: {
    command_id: ["str", STR],
    seat: ["str", STR],
    payload: ["object", OBJ],
    seqs: ["array of int", listOf(INT)],
  },
  event: { body: ["object", OBJ], hash: ["str", STR] },
};

/** @param {unknown} v @param {string} shape @param {string} at @returns {string | null} */
function shapeError(v, shape, at) {
  if (!isObject(v)) return `Expected \`object\`, got \`${typeName(v)}\` - at \`${at}\``;
  const fields = SHAPES[shape];
  for (const key of Object.keys(v)) {
    if (!(key in fields)) return `Object contains unknown field \`${key}\` - at \`${at}\``;
  }
  for (const [key, [want, ok, optional]] of Object.entries(fields)) {
    const here = `${at}.${key}`;
    if (!(key in v)) {
      if (optional) continue;
      return `Object missing required field \`${key}\` - at \`${at}\``;
    }
    const x = v[key];
    if (want === "bundle | null") {
      if (x === null) continue;
      const err = shapeError(x, "bundle", here);
      if (err) return err;
    } else if (want in SHAPES) {
      const err = shapeError(x, want, here);
      if (err) return err;
    } else if (want === "commands" || want === "events") {
      if (!Array.isArray(x)) return `Expected \`array\`, got \`${typeName(x)}\` - at \`${here}\``;
      for (let i = 0; i < x.length; i++) {
        const err = shapeError(x[i], want.slice(0, -1), `${here}[${i}]`);
        if (err) return err;
      }
    } else if (!ok || !ok(x)) return `Expected \`${want}\`, got \`${typeName(x)}\` - at \`${here}\``;
  }
  return null;
}

/** null when `v` is an umpire-bundle/1, else what is wrong with it (the `format` check of verify).
 * @param {any} v */
export function bundleError(v) {
  const err = shapeError(v, "bundle", "$");
  if (err) return err;
  for (let b = v; b; b = b.parent) {
    if (b.format !== FORMAT) return `format is '${b.format}', this engine reads '${FORMAT}'`;
  }
  return null;
}

// ---- 1. the chain ----

/** @param {Uint8Array} prev @param {unknown} body */
async function linkHash(prev, body) {
  return sha256(concat(prev, utf8(canonical(body))));
}

/** What the chain demands of the event at `seq` (1-based) given the events before it: its hash recomputed.
 * @param {BundleEvent[]} events @param {number} seq */
export async function expectedHash(events, seq) {
  const prev = seq > 1 ? unhex(events[seq - 2].hash) : GENESIS;
  return hex(await linkHash(prev, events[seq - 1].body));
}

/** Whether a body holds a float anywhere (the spec: no floats, anywhere in an event; the server's canonical bytes
 * and the spec's json.dumps write floats differently, so the chain breaks at such a body, as `umpire verify` says).
 * @param {unknown} body */
export function holdsFloat(body) {
  const stack = [body];
  while (stack.length) {
    const x = stack.pop();
    if (x instanceof PyFloat || (typeof x === "number" && !Number.isInteger(x))) return true;
    // one push at a time: a spread of a 200,000-element array overflows the call stack
    if (Array.isArray(x)) for (const v of x) stack.push(v);
    else if (isObject(x)) for (const v of Object.values(x)) stack.push(v);
  }
  return false;
}

/**
 * first_broken_link of events/canonical.py: the seq of the first event that does not verify, and the head
 * recomputed up to it. `memo` (a WeakMap) keeps each event's verified hash so a live game re-checks only
 * what is new.
 * @param {BundleEvent[]} events
 * @param {WeakMap<object, {prev: Uint8Array, hash: import("./crypto.js").Bytes}> | null} [memo]
 */
export async function firstBrokenLink(events, memo = null) {
  let prev = GENESIS;
  for (let i = 0; i < events.length; i++) {
    const seq = i + 1;
    const { body, hash } = events[i];
    if (!isObject(body) || !pyEq(get(body, "seq"), seq)) return { bad: seq, head: hex(prev) };
    const known = memo && memo.get(events[i]);
    let h;
    if (known && known.prev === prev) h = known.hash;
    else {
      if (holdsFloat(body)) return { bad: seq, head: hex(prev) };
      h = await linkHash(prev, body);
      if (memo) memo.set(events[i], { prev, hash: h });
    }
    if (hex(h) !== hash) return { bad: seq, head: hex(prev) };
    prev = h;
  }
  return { bad: null, head: hex(prev) };
}

/** @param {Bundle} b @param {WeakMap<object, any> | null} [memo] */
export async function verifyChain(b, memo = null) {
  const { bad, head } = await firstBrokenLink(b.events, memo);
  if (bad !== null) {
    const why = bad <= b.events.length && holdsFloat(b.events[bad - 1].body)
      ? "its body holds a number with a fraction or an exponent, which no event may (integers only)"
      : "its body or hash was changed, dropped or moved";
    return check("fail", `event seq ${bad} does not verify: ${why}`, { first_bad_seq: bad });
  }
  const wrong = b.events.find((e) => !pyEq(get(e.body, "game"), b.game));
  if (wrong) {
    const seq = get(wrong.body, "seq");
    return check("fail", `event seq ${pyStr(seq)} belongs to another game`, { first_bad_seq: seq });
  }
  if (head !== b.head) {
    return check("fail", `the bundle's head is not its last event's hash: head ${b.head}, last event's hash ${head}`, {
      first_bad_seq: b.events.length,
    });
  }
  if (!b.events.length) return check("fail", "the bundle has no events", { first_bad_seq: 1 });
  const genesis = get(b.events[0].body, "data", {});
  const gdice = get(genesis, "dice", {});
  /** @type {Record<string, unknown>} */
  const said = {
    ruleset: b.ruleset,
    "dice.mode": b.dice.mode,
    "dice.scheme": b.dice.scheme,
    "dice.server_commit": b.dice.server_commit,
    "dice.beacon": b.dice.beacon ?? null,
  };
  /** @type {Record<string, unknown>} */
  const logged = {
    ruleset: get(genesis, "ruleset"),
    "dice.mode": get(gdice, "mode"),
    "dice.scheme": get(gdice, "scheme"),
    "dice.server_commit": get(gdice, "server_commit"),
    "dice.beacon": get(gdice, "beacon"),
  };
  const differ = Object.keys(said).filter((k) => !pyEq(said[k], logged[k]));
  if (get(b.events[0].body, "type") !== "GameCreated") {
    return check("fail", "the bundle's first event is not its GameCreated", { first_bad_seq: 1 });
  }
  if (differ.length) {
    const told = differ.map((k) => `the header's ${k} ${shown(said[k])}, GameCreated's ${shown(logged[k])}`).join("; ");
    return check("fail", `the bundle's header differs from what GameCreated (seq 1) records: ${told}`, {
      first_bad_seq: 1,
    });
  }
  const chained = `${b.events.length} event${b.events.length === 1 ? " chains" : "s chain"} to head ${head}`;
  if (b.commands_unread) {
    return check("pass", `${chained}; the bundle's header matches the genesis`, {
      first_bad_seq: null,
      events: b.events.length,
    });
  }
  const unmade = commandsAgainstEvents(b);
  if (unmade) return check("fail", unmade.detail, { first_bad_seq: unmade.seq });
  const n = b.commands.length;
  const listed =
    n !== 1
      ? `${n} commands are those the events name, each over the seqs it made`
      : b.events.length === 1
        ? "1 command is the one the event names, over the seq it made"
        : "1 command is the one the events name, over the seqs it made";
  return check(
    "pass",
    `${chained}; the bundle's header matches the genesis; its ${listed}`,
    { first_bad_seq: null, events: b.events.length },
  );
}

/** The command list against the events (service/replay.py `_commands_against_events`): each event names the command
 * that made it, so the list must be those commands, once each, in order, each over the seqs its events hold.
 * @param {Bundle} b @returns {{detail: string, seq: unknown} | null} */
function commandsAgainstEvents(b) {
  let expected = 1;
  const seen = new Set();
  for (const cmd of b.commands) {
    const [first, last] = cmd.seqs;
    if (seen.has(cmd.command_id)) return { detail: `command ${cmd.command_id} is listed twice`, seq: first };
    seen.add(cmd.command_id);
    if (first !== expected || last < first) {
      return {
        detail: `command ${cmd.command_id} gives seqs ${first}-${last}, but the commands before it end at seq ${expected - 1}: a command was dropped, added or moved, or its seqs changed`,
        seq: Math.min(Number(first), expected), // a seq past 2^53 is a BigInt
      };
    }
    if (last > b.events.length) {
      return {
        detail: `command ${cmd.command_id} gives seqs ${first}-${last}, past the last event (seq ${b.events.length}): no event of this bundle was made by it`,
        seq: first,
      };
    }
    for (const e of b.events.slice(first - 1, last)) {
      if (!pyEq(get(e.body, "command"), cmd.command_id)) {
        const seq = get(e.body, "seq");
        return {
          detail: `event seq ${pyStr(seq)} was made by command ${pyStr(get(e.body, "command"))}, not by ${cmd.command_id}, whose seqs ${first}-${last} the list gives: the command list was changed`,
          seq: isInt(seq) ? seq : first,
        };
      }
    }
    expected = last + 1;
  }
  if (expected - 1 !== b.events.length) {
    const name = expected <= b.events.length ? get(b.events[expected - 1].body, "command") : null;
    return { detail: `event seq ${expected} was made by command ${pyStr(name)}, which the command list lacks`, seq: expected };
  }
  return null;
}

// ---- 2. the dice ----

/** bytes.fromhex: pairs of hex digits, ASCII whitespace allowed between pairs. @param {string} s */
function fromhex(s) {
  if (!/^(?:[ \t\n\r\f\v]*[0-9a-fA-F]{2})*[ \t\n\r\f\v]*$/.test(s)) return null;
  return unhex(s.replace(/[ \t\n\r\f\v]/g, ""));
}

/** @param {unknown} v @returns {number | undefined} */
function numeric(v) {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (v instanceof PyFloat) return v.value;
  return undefined; // a BigInt is past 2^32 sides anyway; anything else is Python's TypeError
}

/** faces_for with Python's leniency (a side may be a bool or a float); null where Python raises.
 * @param {{faces: (k: any, sides: number[]) => Promise<number[]>}} roll @param {unknown} k @param {unknown} sides
 * @returns {Promise<(number | PyFloat)[] | null>} */
async function pyFaces(roll, k, sides) {
  if (!Array.isArray(sides)) return null;
  const nums = sides.map(numeric);
  if (!nums.every((s) => s !== undefined && s >= 1 && s <= 2 ** 32)) return null;
  const ok = /** @type {number[]} */ (nums);
  if (ok.every(Number.isInteger) && sides.every((s) => !(s instanceof PyFloat))) return roll.faces(pyStr(k), ok);
  // float sides: Python computes limit and face in floats; so do we, and the faces come out as floats
  const faces = await roll.faces(pyStr(k), ok);
  return faces.map((f) => new PyFloat(f));
}

/** _which_changed of service/replay.py: which side of a header-vs-log difference was changed, as the end of the
 * sentence that names it: the log, where its events do not chain up to the first of type `kind`, else most likely
 * the header. @param {Bundle} b @param {string} kind */
async function whichChanged(b, kind) {
  const i = b.events.findIndex((x) => get(x.body, "type") === kind);
  const { bad } = await firstBrokenLink(b.events.slice(0, i < 0 ? b.events.length : i + 1));
  if (bad !== null) return `, and the log was changed: its event seq ${bad} does not verify (the chain check names it)`;
  return ": the chained log's is the game's, so the header was changed (or the log was)";
}

/** _locked_differently of service/replay.py: what of the header's seed inputs is not what SeedLocked records, field
 * by field (each seat's client seed, in the genesis's seat order, and the beacon), both values, which side changed.
 * @param {Bundle} b @param {any} lock */
async function lockedDifferently(b, lock) {
  const at = pyStr(get(lock, "seq"));
  const data = get(lock, "data", {});
  const d = b.dice;
  const seats = b.events.length ? get(get(b.events[0].body, "data", {}), "seats") : null;
  const logged = get(data, "client_seeds", ABSENT); // a forged lock may leave it out: said as absent
  /** @type {[string, unknown, unknown][]} (what, the header's, the log's) */
  const fields = [];
  if (Array.isArray(logged)) {
    for (let i = 0; i < Math.max(logged.length, d.client_seeds.length); i++) {
      const seat = Array.isArray(seats) && i < seats.length && typeof seats[i] === "string" ? seats[i] : `#${i}`;
      const [mine, theirs] = [d.client_seeds, logged].map((x) => (i < x.length ? x[i] : ABSENT));
      if (mine === ABSENT || theirs === ABSENT || !pyEq(mine, theirs)) fields.push([`client seed of ${seat}`, mine, theirs]);
    }
  } else fields.push(["client seeds", d.client_seeds, logged]);
  if (!pyEq(get(data, "beacon"), d.beacon ?? null)) fields.push(["beacon", d.beacon ?? null, get(data, "beacon")]);
  const seeds = fields.filter(([what]) => what.startsWith("client seed of ")).map(([what]) => what.slice(15));
  const named = fields.filter(([what]) => !what.startsWith("client seed of ")).map(([what]) => what); // the beacon first
  if (seeds.length) {
    const listed = seeds.length === 1 ? seeds[0] : `${seeds.slice(0, -1).join(", ")} and ${seeds[seeds.length - 1]}`;
    named.push(`client seed${seeds.length > 1 ? "s" : ""} of ${listed}`);
  }
  const values = fields
    .map(([what, mine, theirs]) => `header ${what} ${shown(mine)}, SeedLocked ${what} at seq ${at} ${shown(theirs)}`)
    .join("; ");
  return (
    `the header's ${named.join(" and ")} ${fields.length === 1 ? "is" : "are"} not what SeedLocked records at seq ` +
    `${at}${await whichChanged(b, "SeedLocked")}: ${values}`
  );
}

const ABSENT = Symbol("absent"); // a list's entry past its end

/** A value of the header or the log in a check's words: a string as it is, anything else as its JSON.
 * @param {unknown} value */
function shown(value) {
  if (value === ABSENT) return "(none)";
  return typeof value === "string" ? value : canonical(value);
}

/** @param {Bundle} b */
function lockEvent(b) {
  const e = b.events.find((x) => get(x.body, "type") === "SeedLocked");
  return e ? e.body : null;
}

/**
 * The seed half of verify_dice: scheme, seed revealed, commit, the locked inputs, the game seed. A failure here is
 * no one roll's: its first_bad_k is null.
 * Returns {stop: a check to report as is, or null; gameSeed: bytes when every roll can be recomputed}.
 * @typedef {{stop: Check | null, gameSeed: import("./crypto.js").Bytes | null}} SeedStage
 * @param {Bundle} b
 * @returns {Promise<SeedStage>}
 */
async function seedStage(b) {
  const d = b.dice;
  const [logged, at] = loggedSeed(b);
  /** @param {string} detail @param {unknown} k @param {unknown} seq */
  const fail = (detail, k, seq) => ({
    stop: check("fail", detail, { first_bad_k: k, first_bad_seq: seq }),
    gameSeed: null,
  });
  if (d.scheme !== "umpire1") return fail(`unknown dice scheme '${d.scheme}'`, null, null);
  if (d.server_seed === null) {
    const stop = check("skipped", "the server seed is not revealed yet; rolls can be checked after reveal", {
      first_bad_k: null,
      first_bad_seq: null,
    });
    return { stop, gameSeed: null };
  }
  const seed = fromhex(d.server_seed);
  if (seed === null) return fail("server_seed is not hex", null, 1);
  if (at !== null && !pyEq(logged, d.server_seed)) {
    return fail(
      `the header's dice.server_seed is not the seed ServerSeedRevealed records at seq ${pyStr(at)}` +
        `${await whichChanged(b, "ServerSeedRevealed")}: header dice.server_seed ${d.server_seed}, ` +
        `ServerSeedRevealed at seq ${pyStr(at)} ${pyStr(logged)}`,
      null,
      at,
    );
  }
  if (hex(await sha256(seed)) !== d.server_commit) {
    return fail("SHA-256(server_seed) is not the server_commit published in GameCreated (seq 1)", null, 1);
  }
  const genesis = b.events.length ? b.events[0].body : {};
  if (!pyEq(get(get(get(genesis, "data", {}), "dice", {}), "server_commit"), d.server_commit)) {
    return fail("the commit in GameCreated is not the bundle's server_commit", null, 1);
  }
  const lock = lockEvent(b);
  if (lock !== null) {
    const data = get(lock, "data", {});
    if (!pyEq(get(data, "client_seeds"), d.client_seeds) || !pyEq(get(data, "beacon"), d.beacon ?? null)) {
      return fail(await lockedDifferently(b, lock), null, get(lock, "seq"));
    }
  }
  return { stop: null, gameSeed: await gameSeed(hex(seed), b.game, d.client_seeds, d.beacon ?? null) };
}

/** logged_seed of service/replay.py: the server seed the log's ServerSeedRevealed records, and its seq ([null, null]
 * without one). Public once revealed, and chained, unlike the header's dice.server_seed.
 * @param {Bundle} b @returns {[unknown, unknown]} */
function loggedSeed(b) {
  const e = b.events.find((x) => get(x.body, "type") === "ServerSeedRevealed");
  return e ? [get(get(e.body, "data"), "server_seed"), get(e.body, "seq")] : [null, null];
}

/** with_logged_seed of service/replay.py: a header that leaves dice.server_seed null gets the seed its own log
 * reveals (the seq it came from in `from`; null when nothing was taken).
 * @param {Bundle} b @returns {{bundle: Bundle, from: unknown}} */
export function withLoggedSeed(b) {
  const [seed, at] = loggedSeed(b);
  if (b.dice.server_seed !== null || typeof seed !== "string") return { bundle: b, from: null };
  return { bundle: { ...b, dice: { ...b.dice, server_seed: seed } }, from: at };
}

/** first_k of service/replay.py: a game's first roll number, 0, or for a fork its parent's next k at the fork's seq.
 * @param {Bundle} b @returns {number} */
export function firstK(b) {
  if (!b.parent) return 0;
  return firstK(b.parent) + b.parent.events.filter((e) => get(e.body, "type") === "DiceRolled").length;
}

/** @param {Bundle} b @param {SeedStage | null} [stage] @returns {Promise<Check>} */
export async function verifyDice(b, stage = null) {
  stage ??= await seedStage(b);
  if (stage.stop) return stage.stop;
  if (!stage.gameSeed) throw new Error("a seed stage with neither a stop nor a game seed");
  /** @param {string} detail @param {unknown} k @param {unknown} seq */
  const fail = (detail, k, seq) => check("fail", detail, { first_bad_k: k, first_bad_seq: seq });
  const gs = stage.gameSeed;
  const roll = await roller(gs);
  const first = firstK(b);
  let expected = first;
  for (const e of b.events) {
    if (get(e.body, "type") !== "DiceRolled") continue;
    const data = get(e.body, "data", {});
    const [k, sides, faces] = [get(data, "k"), get(data, "sides"), get(data, "faces")];
    const seq = get(e.body, "seq");
    if (!pyEq(k, expected)) {
      return fail(
        `roll k=${pyStr(k)} at seq ${pyStr(seq)}: expected k=${expected} (k is gapless from 0)`,
        expected,
        seq,
      );
    }
    const recomputed = await pyFaces(roll, k, sides);
    if (recomputed === null || !pyEq(recomputed, faces)) {
      return fail(
        `roll k=${pyStr(k)} at seq ${pyStr(seq)}: recorded faces ${canonical(faces)}, the seed gives ${recomputed === null ? "None" : canonical(recomputed)}`,
        k,
        seq,
      );
    }
    expected += 1;
  }
  return check("pass", `commit matches; game seed ${hex(gs)}; ${expected - first} rolls recomputed alone`, {
    first_bad_k: null,
    first_bad_seq: null,
    rolls: expected - first,
    game_seed: hex(gs),
  });
}

// ---- sealed inputs (docs/spec/events.md "Sealed inputs"; verify_sealed of service/replay.py, step for step) ----

/** A dict key as Python hashes it: 1, 1.0 and true are one key. @param {unknown} v */
function pyKey(v) {
  const n = numeric(v);
  return n !== undefined ? `n:${n}` : typeof v === "bigint" ? `n:${v}` : `j:${canonical(v)}`;
}

/** @param {unknown} content @param {unknown} salt */
async function commitmentOf(content, salt) {
  return hex(await sha256(utf8(canonical({ content, salt }))));
}

/** Each revealed sealed record against its commitment and (once the seed is known) its salt; in a finished game a
 * record never revealed fails. `sealed` counts the records, `opened` lists each revealed one with its content.
 * @param {Bundle} b */
export async function verifySealed(b) {
  /** @type {Map<string, {seq: any, data: any}>} */
  const sealed = new Map();
  /** @type {Map<string, {seq: any, seat: any, kind: any, content: any, revealed_at: any}>} */
  const opened = new Map();
  const seed = b.dice.server_seed ? fromhex(b.dice.server_seed) : null;
  /** @param {string} detail @param {unknown} seq */
  const fail = (detail, seq) => ({
    ...check("fail", detail, { first_bad_seq: seq }),
    sealed: sealed.size,
    opened: [...opened.values()],
  });
  for (const e of b.events) {
    const body = e.body;
    const data = get(body, "data") || {};
    const type = get(body, "type");
    if (type === "SubmissionSealed") sealed.set(pyKey(get(body, "seq")), { seq: get(body, "seq"), data });
    if (type !== "SubmissionsRevealed") continue;
    const entries = get(data, "entries");
    for (const raw of Array.isArray(entries) ? entries : []) {
      const entry = isObject(raw) ? raw : {};
      const at = get(entry, "seq");
      const record = sealed.get(pyKey(at));
      const where = `SubmissionsRevealed at seq ${pyStr(get(body, "seq"))} opens seq ${pyStr(at)}`;
      if (!record || opened.has(pyKey(at))) return fail(`${where}: no sealed record there to open`, get(body, "seq"));
      if (!pyEq(get(record.data, "seat"), get(entry, "seat")) || !pyEq(get(record.data, "kind"), get(entry, "kind"))) {
        return fail(`${where}: seat or kind differ from the record's`, at);
      }
      if ((await commitmentOf(get(entry, "content"), get(entry, "salt"))) !== get(record.data, "commitment")) {
        return fail(`${where}: its content and salt do not match the commitment made at seq ${pyStr(at)}`, at);
      }
      if (seed !== null) {
        const salt = hex(await hmac(seed, utf8(`umpire1:salt:${b.game}:${pyStr(at)}`)));
        if (get(entry, "salt") !== salt) return fail(`${where}: the salt is not the one the server seed gives`, at);
      }
      opened.set(pyKey(at), {
        seq: at,
        seat: get(entry, "seat"),
        kind: get(entry, "kind"),
        content: get(entry, "content"),
        revealed_at: get(body, "seq"),
      });
    }
  }
  const closed = [...sealed.entries()]
    .filter(([k]) => !opened.has(k))
    .map(([, r]) => r.seq)
    .sort((x, y) => Number(x) - Number(y));
  const base = { sealed: sealed.size, opened: [...opened.values()], unrevealed: closed };
  // a command shown {"sealed": ...} shows its own record's commitment (service/replay.py `_placeholders`)
  /** @type {unknown[]} */
  const shown = [];
  const isClosed = new Set(closed.map(pyKey));
  for (const cmd of b.commands_unread ? [] : b.commands) {
    const [first, last] = cmd.seqs;
    const mine = [...sealed.values()].filter(
      (r) => isInt(r.seq) && first <= Number(r.seq) && Number(r.seq) <= last && pyEq(get(r.data, "seat"), cmd.seat),
    );
    const payload = isObject(cmd.payload) ? cmd.payload : {};
    if (Object.keys(payload).length === 1 && "sealed" in payload) {
      if (!mine.some((r) => pyEq(payload.sealed, get(r.data, "commitment")))) {
        const at = mine.length ? mine[0].seq : first;
        return {
          ...fail(`command ${cmd.command_id} shows {"sealed": ...} with a commitment no sealed record of its made (seq ${pyStr(at)}): the command list was changed`, at),
          unrevealed: closed,
        };
      }
    } else shown.push(...mine.filter((r) => isClosed.has(pyKey(r.seq))).map((r) => r.seq));
  }
  if (closed.length && b.events.some((e) => get(e.body, "type") === "GameEnded")) {
    return {
      ...fail(`the game is over but sealed records at ${seqRuns(closed)} were never revealed`, closed[0]),
      unrevealed: closed,
    };
  }
  if (!sealed.size) return { ...check("pass", "this game has no sealed inputs", { first_bad_seq: null }), ...base };
  const parts = [];
  if (opened.size) {
    const salts = seed !== null ? "and its salt" : "(salts checkable once the seed is revealed)";
    parts.push(`${opened.size} sealed record(s) revealed, each matching its commitment ${salts}`);
  }
  if (closed.length)
    parts.push(`${closed.length} still sealed (${seqRuns(closed)}): opened when the rules reveal them`);
  if (shown.length)
    parts.push(`the commands of ${shown.length} still sealed show their content, which no one can check before the reveal gives its salt (a seat's or the referee's own copy)`);
  return { ...check("pass", parts.join("; "), { first_bad_seq: null }), ...base };
}

// ---- every roll on its own ----

/**
 * @typedef {{seq: any, k: any, sides: any, faces: any, purpose: any, rule: any, result: any, rerolls: any,
 *   command: any, seat: string | null, opened: number | null, inChain: boolean, index: number, status?: string,
 *   detail?: string, recomputed?: (number | PyFloat)[] | null}} RollRecord a DiceRolled event's roll, as the ledger
 *   shows it; `opened`: the seq where its command, before it, opened another seat's sealed records (the last
 *   submission of a simultaneous step, which rolls for every seat's orders), else null
 */

/**
 * One record per DiceRolled event, each recomputed alone from (game_seed, k, sides): verified, mismatch,
 * pending (seed not revealed) or unverifiable (the seed does not match its commitment or the locked inputs).
 * @param {Bundle} b @param {SeedStage} stage @param {Check} chain @param {SeatOf} seatOf
 */
export async function rollRecords(b, stage, chain, seatOf) {
  /** @type {RollRecord[]} */
  const out = [];
  const roll = stage.gameSeed ? await roller(stage.gameSeed) : null;
  const firstBad = chain && chain.status === "fail" ? chain.first_bad_seq : null;
  let index = firstK(b);
  /** @type {Map<any, number>} command id -> the seq where it opened another seat's sealed records */
  const opened = new Map();
  for (const e of b.events) {
    if (get(e.body, "type") === "SubmissionsRevealed") {
      const entries = get(get(e.body, "data", {}), "entries", []);
      const sender = seatOf(e);
      if (Array.isArray(entries) && entries.some((x) => get(x, "seat") !== sender))
        opened.set(get(e.body, "command"), get(e.body, "seq"));
    }
    if (get(e.body, "type") !== "DiceRolled") continue;
    const data = get(e.body, "data", {});
    const seq = get(e.body, "seq");
    /** @type {RollRecord} */
    const r = {
      seq,
      k: get(data, "k"),
      sides: get(data, "sides"),
      faces: get(data, "faces"),
      purpose: get(data, "purpose"),
      rule: get(data, "rule"),
      result: get(data, "result"),
      rerolls: get(data, "rerolls"),
      command: get(e.body, "command"),
      seat: seatOf(e),
      opened: opened.get(get(e.body, "command")) ?? null,
      inChain: firstBad === null || (typeof seq === "number" && seq < firstBad && e === b.events[seq - 1]),
      index,
    };
    if (stage.stop && stage.stop.status === "skipped") {
      Object.assign(r, {
        status: "pending",
        detail: "the server seed is not revealed yet: this roll can be checked after the reveal",
      });
    } else if (!roll) {
      Object.assign(r, { status: "unverifiable", detail: `no trusted seed: ${stage.stop?.detail}` });
    } else {
      let recomputed = null;
      try {
        recomputed = await pyFaces(roll, r.k, r.sides);
      } catch {
        recomputed = null;
      }
      r.recomputed = recomputed;
      if (!pyEq(r.k, index)) {
        Object.assign(r, {
          status: "mismatch",
          detail: `k is ${pyStr(r.k)} but this is roll number ${index} (k is gapless from 0)`,
        });
      } else if (recomputed !== null && pyEq(recomputed, r.faces)) {
        Object.assign(r, {
          status: "verified",
          detail: "the faces are what the revealed seed gives for this k and these dice",
        });
      } else {
        Object.assign(r, {
          status: "mismatch",
          detail: `recorded ${canonical(r.faces)}, the seed gives ${recomputed === null ? "no faces (bad dice)" : canonical(recomputed)}`,
        });
      }
    }
    out.push(r);
    index += 1;
  }
  return out;
}

// ---- a fork's parent (verify_parent of service/replay.py, step for step) ----

// a parent's part never changes: a live fork re-checks only its own events as they arrive
/** @type {WeakMap<Bundle, Promise<Verified>>} */
const checkedParents = new WeakMap();

/**
 * A fork's parent part: its bundle (up to the fork's seq) checked on its own, and the very position the fork's
 * genesis names (the parent game, the seq, the parent's hash there). null for a game that is not a fork. The
 * parent's replay is not run here (it needs the rules engine), so a parent whose only fault is in its commands
 * passes here and fails `umpire verify`.
 * @param {Bundle} b
 * @returns {Promise<Check | null>}
 */
export async function verifyParent(b) {
  const genesis = get(b.events[0] && b.events[0].body, "data") || {};
  const ref = get(genesis, "parent");
  const parent = b.parent ?? null;
  if (ref === null && parent === null) return null;
  if (ref === null || parent === null) {
    return check("fail", "the genesis and the bundle disagree on whether this game is a fork", { first_bad_seq: 1 });
  }
  if (!checkedParents.has(parent)) checkedParents.set(parent, verifyAll(parent, () => null));
  const inner = /** @type {Verified} */ (await checkedParents.get(parent));
  /** @type {Record<string, [unknown, unknown]>} */
  const named = {
    game: [get(ref, "game"), parent.game],
    seq: [get(ref, "seq"), parent.events.length],
    hash: [get(ref, "hash"), parent.head],
  };
  const wrong = Object.keys(named).filter((k) => !pyEq(named[k][0], named[k][1]));
  const where = `parent ${parent.game} up to seq ${parent.events.length}`;
  if (wrong.length) {
    return check("fail", `the fork's genesis names another ${wrong.join(", ")} than its parent's bundle`, {
      first_bad_seq: 1,
    });
  }
  const checks = { parent: inner.parent, chain: inner.chain, dice: inner.dice, sealed: inner.sealed };
  const failed = Object.entries(checks).find(([, c]) => c && c.status === "fail");
  if (failed && failed[1]) {
    const [name, c] = failed;
    return check("fail", `${where}: ${name} check failed: ${c.detail}`, {
      first_bad_seq: c.first_bad_seq ?? null,
      first_bad_k: c.first_bad_k ?? null,
      game: parent.game,
      inner,
    });
  }
  const skipped = Object.entries(checks)
    .filter(([, c]) => c && c.status === "skipped")
    .map(([n]) => n);
  const detail = skipped.length
    ? `${where}: ${skipped.join(", ")} not checked (its seed is not revealed)`
    : `${where}: its chain, dice and sealed inputs verify, and it ends at the hash the fork's genesis names`;
  return check(skipped.length ? "skipped" : "pass", detail, { first_bad_seq: null, game: parent.game, inner });
}

/** Everything the browser can check, for a bundle already past bundleError(). */
/**
 * @typedef {{parent: Check | null, chain: Check, dice: Check, sealed: Check, rolls: RollRecord[],
 *   gameSeed: string | null}} Verified
 * @param {Bundle} given @param {SeatOf} seatOf @param {WeakMap<object, any> | null} [memo]
 * @returns {Promise<Verified>}
 */
export async function verifyAll(given, seatOf, memo = null) {
  const { bundle: b, from } = withLoggedSeed(given); // a header without the seed its own chained log reveals
  const chain = await verifyChain(b, memo);
  const parent = await verifyParent(b);
  const stage = await seedStage(b);
  let dice = await verifyDice(b, stage);
  if (from !== null) {
    dice = { ...dice, detail: `the server seed revealed at seq ${pyStr(from)} (the header's dice.server_seed is null): ${dice.detail}` };
  }
  const sealed = await verifySealed(b);
  const rolls = await rollRecords(b, stage, chain, seatOf);
  return { parent, chain, dice, sealed, rolls, gameSeed: stage.gameSeed ? hex(stage.gameSeed) : null };
}

// ---- what the desk asks the server that holds the game (docs/desk.md "What the server checks") ----

/**
 * The bundle as the public reads it: a command whose sealed record the bundle leaves closed shows only its commitment
 * (a seat's or the referee's copy shows the content). The server takes an unrevealed game's sealed records as
 * commitments only (docs/spec/api.md "Hidden information"), so this is what the desk sends it. Returns the same
 * object when nothing changes.
 * @param {Bundle} b
 * @returns {Bundle}
 */
export function publicForm(b) {
  const parent = b.parent ? publicForm(b.parent) : b.parent;
  /** @param {Bundle} x @returns {Bundle} */
  const withParent = (x) => (parent === undefined ? x : { ...x, parent });
  if (b.dice.server_seed !== null) return parent === b.parent ? b : withParent(b);
  /** @type {Map<number, any>} seq -> the SubmissionSealed's data */
  const closed = new Map();
  for (const e of b.events) {
    const data = get(e.body, "data");
    if (get(e.body, "type") === "SubmissionSealed") closed.set(Number(get(e.body, "seq")), data);
    else if (get(e.body, "type") === "SubmissionsRevealed")
      for (const entry of Array.isArray(get(data, "entries")) ? data.entries : []) closed.delete(Number(get(entry, "seq")));
  }
  let changed = parent !== b.parent;
  const commands = b.commands.map((c) => {
    const [first, last] = c.seqs.map(Number);
    for (const [seq, d] of closed) {
      if (seq < first || seq > last || get(d, "seat") !== c.seat || get(d, "kind") !== get(c.payload, "type")) continue;
      changed = true;
      return { ...c, payload: { sealed: get(d, "commitment") } };
    }
    return c;
  });
  return changed ? withParent({ ...b, commands }) : b;
}

/** Where two JSON values differ, as paths (service/replay.py `diff`): [{path, a, b}], "<absent>" for a missing key. */
/** @param {unknown} a @param {unknown} b @param {string} [path] @returns {{path: string, a: unknown, b: unknown}[]} */
export function diffValues(a, b, path = "") {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffValues(get(a, k, "<absent>"), get(b, k, "<absent>"), path ? `${path}.${k}` : k));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => diffValues(x, b[i], `${path}[${i}]`));
  if (canonical(a) === canonical(b)) return [];
  return [{ path: path || "(body)", a, b }];
}

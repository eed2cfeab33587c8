// @ts-check
// A game's record as the desk holds it, from a bundle file or live from the server, and what the
// browser concluded about it. Emits "change" when events arrive or a check finishes.

import * as api from "./api.js";
import { sha256, hex, utf8 } from "./crypto.js";
import { canonical, isObject, parse } from "./json.js";
import { reader } from "./reader.js";
import { bundleError, diffValues, publicForm, verifyAll } from "./verify.js";

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @typedef {{id: string, version: string, data_sha256: string}} RulesetRef
 * @typedef {{ruleset: RulesetRef, dice: any, head: string | null, engine?: string}} Header
 * @typedef {{state: "asking" | "yes" | "no", why?: "same" | "differs" | "absent" | "error", detail: string}} Match
 * @typedef {{state: "asking" | "held" | "differs" | "other" | "absent" | "error", detail: string, seq?: number,
 *   diff?: {path: string, a: unknown, b: unknown}[]}} ServerRecord
 * @typedef {{state: "asking" | "done" | "error", at: number, asked: boolean, report?: any, detail?: string}} ServerReport
 */

/** Something thrown, as an ApiError (a failure that is no answer of the server's is status 0). @param {unknown} e */
const asApiError = (e) => (e instanceof api.ApiError ? e : new api.ApiError(0, null, e instanceof Error ? e.message : String(e)));

export class Game extends EventTarget {
  /** @param {"bundle" | "live"} source @param {string} id */
  constructor(source, id) {
    super();
    this.source = source; // "bundle" | "live"
    this.id = id;
    /** @type {import("./api.js").DeskEvent[]} */
    this.events = [];
    /** @type {import("./verify.js").BundleCommand[] | null} the commands with their payloads, when known */
    this.commands = null;
    /** @type {Header} the bundle's ruleset/dice/head (a live game's comes from its own genesis); "?" until read */
    this.header = { ruleset: { id: "?", version: "?", data_sha256: "?" }, dice: {}, head: null };
    /** @type {string | null} the file's name (a bundle file) */
    this.fileName = null;
    /** @type {string | null} the file's text, as read */
    this.bundleText = null;
    /** @type {any} the bundle (a file, or a fork's parent part) */
    this.bundle = null;
    /** @type {any} a live fork's parent part, from its bundle */
    this.parentBundle = undefined;
    /** @type {string | null} why a live fork's parent part could not be read */
    this.parentError = null;
    /** @type {Record<string, import("./verify.js").Check> | null} what the browser concluded, check by check */
    this.checks = null;
    /** @type {import("./verify.js").RollRecord[]} */
    this.rolls = [];
    /** @type {string | null} */
    this.gameSeed = null;
    /** @type {{name: string, description?: string, per_seat?: boolean}[]} the ruleset's views, when a server draws them */
    this.views = [];
    /** @type {string | null} the ruleset's name, as the server that draws the views calls it */
    this.rulesetTitle = null;
    /** @type {"server" | null} */
    this.viewsFrom = null;
    /** @type {Match | null} a bundle on this server: null (not asked) */
    this.match = null;
    /** @type {any} GET /games/{id} (a live game) */
    this.summary = null;
    /** live: "connecting" | "live" | "reconnecting" | "waiting" | "closed" */
    this.stream = "none";
    this.streamDetail = "";
    /** @type {{head: string | null, version: number | null} | null} */
    this.serverHead = null;
    // what this server says of the game (docs/desk.md "What the server checks"): its own record of the game against
    // the file's (null | {state: "asking" | "held" | "differs" | "absent" | "error", detail, seq, diff}), and its
    // replay of the rules (null | {state: "asking" | "done" | "error", at, report, detail, asked})
    /** @type {ServerRecord | null} */
    this.record = null;
    /** @type {ServerReport | null} */
    this.serverReport = null;
    this._memo = new WeakMap();
    /** @type {Map<string, Promise<{view: string, at: number, data: any}>>} */
    this._viewCache = new Map();
    /** @type {Promise<void> | null} */
    this._verifying = null;
    this._dirty = false;
    /** @type {Promise<void> | null} */
    this._replaying = null;
    this._replayAgain = false;
    /** @type {{close: () => void} | null} */
    this._follow = null;
    /** @type {string | null} */
    this._commandsAt = null;
    /** @type {Map<number, import("./verify.js").BundleCommand>} */
    this._bySeq = new Map();
    /** @type {Promise<{data: any, from: string}> | null} */
    this._dataSet = null;
  }

  get ruleset() {
    return this.header.ruleset;
  }

  /** @param {string} what */
  changed(what) {
    this.dispatchEvent(new CustomEvent("change", { detail: what }));
  }

  // ---- a bundle file ----

  /** A Game from a file's text; throws Error("not an umpire-bundle/1: …") as `umpire verify` would say. */
  /** @param {string} text @param {string} fileName */
  static async fromBundleText(text, fileName) {
    let b;
    try {
      b = parse(text);
    } catch (e) {
      throw new Error(`not an umpire-bundle/1: the file is not JSON (${asApiError(e).message})`);
    }
    const err = bundleError(b);
    if (err) throw new Error(`not an umpire-bundle/1: ${err}`);
    return Game.fromBundle(b, text, fileName);
  }

  /** A Game from a bundle already read and shape-checked (a file, or the parent part a fork's bundle carries). */
  /** @param {import("./verify.js").Bundle} b @param {string | null} text @param {string} fileName */
  static async fromBundle(b, text, fileName) {
    const g = new Game("bundle", b.game);
    g.fileName = fileName;
    g.bundleText = text;
    g.bundle = b;
    g.events = b.events;
    g.commands = b.commands;
    g.header = { ruleset: b.ruleset, dice: b.dice, head: b.head, engine: b.engine };
    g._indexCommands();
    await g.verify();
    g.crossCheck();
    return g;
  }

  /** The position a fork starts from, as its genesis names it: {game, seq, hash}, or null. */
  get forkOf() {
    const data = this.events[0] && this.events[0].body.data;
    const ref = isObject(data) ? data.parent : null;
    return isObject(ref) ? ref : null;
  }

  /** Does this server hold the same game? Only the game id and one seq go out; the answer is checked by hash.
   * `match.why`: "same" (the server's event at the file's last seq has the file's hash), "differs", "absent" (no such
   * game here) or "error". */
  async askServer() {
    this.match = { state: "asking", detail: "asking this server…" };
    this.changed("match");
    const n = this.events.length;
    try {
      const hash = await api.hashAt(this.id, n);
      if (hash !== this.events[n - 1].hash) {
        this.match = { state: "no", why: "differs", detail: `this server's game ${this.id} differs from the file at seq ${n}` };
      } else {
        this._rulesetFrom(await api.rulesetInfo(this.ruleset.id));
        this.match = { state: "yes", why: "same", detail: `this server holds game ${this.id} with the same hash at seq ${n}` };
      }
    } catch (thrown) {
      const e = asApiError(thrown);
      this.match =
        e.status === 404
          ? { state: "no", why: "absent", detail: `this server has no game ${this.id}` }
          : { state: "no", why: "error", detail: e.message };
    }
    this.changed("match");
    return /** @type {Match} */ (this.match);
  }

  /**
   * A file, checked against this server on its own (only the game id goes out first): where the server holds the game
   * with the file's hash at its last seq, the server re-runs the rules on the file (its public form: the server holds
   * the game, so nothing it does not have is sent); where the server's record differs, the first seq that differs and
   * the fields that differ there; where it holds no such game, the page says the rules were not re-run, and why.
   */
  async crossCheck() {
    if (this.checks && this.checks.chain.status === "fail") return; // the file does not hold together: nothing to ask
    this.record = { state: "asking", detail: "asking this server whether it holds this game…" };
    this._replayChanged();
    const m = await this.askServer();
    if (m.why === "same") {
      this.record = { state: "held", detail: m.detail };
      this._replayChanged();
      await this.runServerReplay();
      return;
    }
    if (m.why === "differs") {
      try {
        const d = await this._firstDifference();
        // a first event that differs is another game under the same id (an older edition's golden game, a game of
        // another server), not this server's game altered: the page says so, and re-runs nothing
        this.record =
          d.seq === 1
            ? { state: "other", ...d, detail: `this server holds another game under the id ${this.id}: its first event differs from this file's` }
            : { state: "differs", ...d };
      } catch (e) {
        this.record = { state: "error", detail: `could not read this server's record: ${asApiError(e).message}` };
      }
    } else if (m.why === "absent") {
      this.record = { state: "absent", detail: `this server does not hold game ${this.id}` };
    } else {
      this.record = { state: "error", detail: `could not ask this server: ${m.detail}` };
    }
    this._replayChanged();
  }

  /** The first seq at which this server's log of the game differs from the file's, with the fields that differ. */
  async _firstDifference() {
    const n = this.events.length;
    let after = 0;
    let held = 0;
    for (;;) {
      const page = await api.eventsPage(this.id, after, 1000);
      for (const ev of page.events) {
        const seq = Number(ev.body.seq);
        held = Math.max(held, seq);
        const mine = this.events[seq - 1];
        if (!mine) break;
        if (mine.hash !== ev.hash) {
          return {
            seq,
            detail: `this server holds game ${this.id}, and its record differs from this file at event seq ${seq}`,
            diff: diffValues(mine.body, ev.body),
          };
        }
      }
      if (!page.events.length || page.nextAfter >= n || page.nextAfter >= page.version) break;
      after = page.nextAfter;
    }
    const seq = Math.min(held + 1, n);
    return {
      seq,
      detail: `this server holds game ${this.id} up to seq ${held}; the file goes on with events it never recorded, from seq ${seq}`,
      diff: diffValues(this.events[seq - 1].body, "<absent>"),
    };
  }

  /** The referee asks for the server's replay of a file this server does not hold (it uploads the file). */
  askServerToVerify() {
    return this.runServerReplay(true);
  }

  /**
   * This server's replay of the rules (POST /bundles/verify), of the file's public form or, live, of the server's own
   * public bundle. One at a time; events that arrive meanwhile are re-run once it is done. A busy server is asked
   * again after the seconds it names.
   */
  async runServerReplay(asked = false) {
    if (this._replaying) {
      this._replayAgain = true;
      return this._replaying;
    }
    this._replaying = (async () => {
      do {
        this._replayAgain = false;
        const at = this.events.length;
        this.serverReport = { state: "asking", at, asked };
        this._replayChanged();
        for (let attempt = 0; ; attempt++) {
          try {
            const text = this.source === "live" ? await api.bundleText(this.id) : this._publicText();
            const report = await api.serverVerify(text);
            const held = this.source === "live" ? parse(text).events.length : at;
            this.serverReport = { state: "done", at: held, asked, report };
            break;
          } catch (thrown) {
            const e = asApiError(thrown);
            if (e.status === 429 && attempt < 6) {
              await sleep(1000 * Math.min(5, Number(e.retryAfter) || 2));
              continue;
            }
            this.serverReport = { state: "error", at, asked, detail: e.message };
            break;
          }
        }
        this._replayChanged();
        if (this._replayAgain) await sleep(this.source === "live" ? 5000 : 1000); // a game in play: every 5 s at most
      } while (this._replayAgain);
      this._replaying = null;
    })();
    return this._replaying;
  }

  /** The file as the server is sent it: its public form (sealed records still closed as their commitments). */
  _publicText() {
    const pub = publicForm(this.bundle);
    return pub === this.bundle && this.bundleText !== null ? this.bundleText : canonical(pub);
  }

  /** The replay check as the page shows it: what this server said, or why nothing re-ran the rules. */
  replayCheck() {
    /** @param {string} detail */
    const none = (detail) => ({ status: "not-run", detail, first_bad_seq: null });
    const rec = this.record;
    if (rec && rec.state === "differs")
      return { status: "fail", detail: rec.detail, first_bad_seq: rec.seq, diff: rec.diff, by: "record" };
    const rep = this.serverReport;
    if (rep && rep.state === "asking") return { status: "running", detail: "this server is re-running the rules…", first_bad_seq: null };
    if (rep && rep.state === "done") {
      const c = rep.report.checks.replay || { status: "not-run", detail: "its report has no replay check" };
      const diff = Array.isArray(c.diff) ? c.diff.map((/** @type {any} */ d) => ({ path: d.path, a: d.recorded, b: d.replayed })) : null;
      const stale = this.source === "live" && rep.at < this.events.length;
      const out = {
        status: c.status,
        detail: `${c.status === "skipped" ? "this server skipped its replay" : "this server re-ran the rules"}: ${c.detail}`,
        said: c.detail,
        first_bad_seq: c.first_bad_seq ?? null,
      };
      if (c.status === "pass" && stale)
        return { ...out, status: "running", detail: `this server re-ran the rules up to seq ${rep.at}; the events since are being re-run` };
      return { ...out, diff, by: "replay", at: rep.at };
    }
    if (rep && rep.state === "error") return none(`this server could not re-run the rules: ${rep.detail}`);
    if (rec && rec.state === "asking") return { status: "running", detail: rec.detail, first_bad_seq: null };
    if (rec && rec.state === "absent")
      return none(
        `${rec.detail}, so nothing here re-ran the rules (this page has no rules engine): run \`umpire verify FILE\`, or ask this server to replay the file below (it uploads the file)`,
      );
    if (rec && rec.state === "error") return none(rec.detail);
    if (rec && rec.state === "other")
      return {
        ...none(
          `${rec.detail}, so nothing here re-ran this file's rules: run \`umpire verify FILE\`, or ask this server to replay the file below (it uploads the file)`,
        ),
        diff: rec.diff,
        seq: 1,
        by: "other",
      };
    return none("the replay re-runs every command through the rules engine, which this page does not have");
  }

  _replayChanged() {
    if (this.checks) this.checks.replay = this.replayCheck();
    this.changed("server-report");
  }

  // ---- a live game ----

  /** @param {string} id */
  static async live(id) {
    const g = new Game("live", id);
    g.summary = await api.summary(id);
    let after = 0;
    for (;;) {
      const page = await api.eventsPage(id, after);
      g.events.push(...page.events);
      g.serverHead = { head: page.head, version: page.version };
      if (!page.events.length || page.nextAfter >= page.version) break;
      after = page.nextAfter;
    }
    g._headerFromGenesis();
    if (g.forkOf) {
      try {
        await g.loadCommands(); // a fork's bundle carries its parent's part, which the checks need
      } catch (e) {
        g.parentError = asApiError(e).message;
      }
    }
    try {
      g._rulesetFrom(await api.rulesetInfo(g.ruleset.id));
    } catch {
      g.views = [];
    }
    await g.verify();
    g.runServerReplay();
    return g;
  }

  /** The views and the title of the game's ruleset, as this server describes it (GET /rulesets/{id}). */
  /** @param {import("./client/types.js").RulesetInfo} info */
  _rulesetFrom(info) {
    this.views = info.views || [];
    this.rulesetTitle = info.title || null;
    this.viewsFrom = "server";
  }

  follow() {
    if (this.source !== "live" || this._follow) return;
    this.stream = "connecting";
    this._follow = api.follow(
      this.id,
      this.events.length,
      (ev) => {
        if (ev.body.seq !== this.events.length + 1) return; // the stream resumes after what we hold
        this.events.push(ev);
        this._headerFromGenesis();
        this.changed("events");
        this.verify();
        this.runServerReplay();
      },
      (end) => {
        this.serverHead = { head: end.head, version: end.version };
        if (this.summary) this.summary.status = end.status;
        this.changed("summary");
      },
      (state, detail) => {
        this.stream = state;
        this.streamDetail = detail || "";
        this.changed("stream");
      },
    );
  }

  stop() {
    if (this._follow) this._follow.close();
    this._follow = null;
  }

  async refreshSummary() {
    try {
      this.summary = await api.summary(this.id);
      this.changed("summary");
    } catch {
      /* the log is what matters; the summary is only shown */
    }
  }

  /** A live game's commands with their payloads (from its bundle: the same for every reader, a sealed command not
   * yet revealed its commitment), for a roll's "what caused it" and the what-if positions; and a fork's parent part. */
  async loadCommands() {
    const r = reader(this.id);
    const at = `${this.events.length}/${r.as}`;
    if (this.source === "bundle" || this._commandsAt === at) return;
    const held = this.events.length;
    const b = await api.bundle(this.id, r.token);
    const err = bundleError(b);
    if (err) throw new Error(`the server's bundle is not an umpire-bundle/1: ${err}`);
    // the game may have moved on while the bundle was read: its commands up to the events this page holds
    this.commands = b.commands.filter((/** @type {import("./verify.js").BundleCommand} */ c) => Number(c.seqs[1]) <= held);
    this._commandsAt = at;
    this._indexCommands();
    if (b.parent && !this.parentBundle) {
      this.parentBundle = b.parent;
      await this.verify();
    }
  }

  /** The tokens in the tab changed: views and payloads are read again as the new reader. */
  readerChanged() {
    this._viewCache.clear();
    this._commandsAt = null;
    this.changed("reader");
  }

  _headerFromGenesis() {
    const data = (this.events[0] && this.events[0].body.data) || {};
    const d = data.dice || {};
    const lock = this.events.find((e) => e.body.type === "SeedLocked");
    const rev = this.events.find((e) => e.body.type === "ServerSeedRevealed");
    this.header = {
      ruleset: data.ruleset || { id: "?", version: "?", data_sha256: "?" },
      dice: {
        scheme: d.scheme,
        mode: d.mode,
        server_commit: d.server_commit,
        server_seed: rev ? rev.body.data.server_seed : null,
        client_seeds: lock ? lock.body.data.client_seeds : [],
        beacon: lock ? (lock.body.data.beacon ?? null) : (d.beacon ?? null),
      },
      head: this.events.length ? this.events[this.events.length - 1].hash : null,
    };
  }

  /**
   * What a verified roll proves in this game, in words (docs/spec/dice.md "Modes"). A client seed given with the creation
   * request was known to the server when it made its seed; one sent after the commitment was published is what
   * keeps the server from picking a seed to suit the rolls.
   */
  fairness() {
    if (this.header.dice.mode !== "fair") {
      return "But this game is in public-seed mode: its creator chose the server seed, so the rolls are reproducible and unchanged since, and no claim is made that nobody chose them.";
    }
    const created = this.events[0] ? this.events[0].body.command : null;
    const later = this.events.filter((e) => e.body.type === "ClientSeedContributed" && e.body.command !== created);
    const lock = this.events.find((e) => e.body.type === "SeedLocked");
    if (!later.length) {
      return "The server committed to its seed before play and cannot have changed this roll since. But no seat sent a seed of its own after that commitment, so nothing kept the server from choosing its seed with the rolls in mind: a seat that contributes a seed before the first roll closes that gap.";
    }
    const seats = [...new Set(later.map((e) => e.body.data.seat))];
    const who = seats.join(", ");
    return `The server published SHA-256 of its seed in the game's first event, before ${who} added ${seats.length > 1 ? "their own seeds" : "its own seed"} (locked at seq ${lock ? lock.body.seq : "?"}), so it could neither pick a seed to suit this roll nor change the roll afterwards.`;
  }

  // ---- what the browser checks ----

  _bundleLike() {
    if (this.source === "bundle") return this.bundle;
    return {
      game: this.id,
      ruleset: this.header.ruleset,
      dice: this.header.dice,
      events: this.events,
      head: this.header.head,
      commands: this.commands || [],
      // a live game's commands are read when asked for (loadCommands): until they are read at this length, the list
      // is not checked against the events (verify.js), nor are its sealed placeholders
      commands_unread: this.commands === null || !String(this._commandsAt).startsWith(`${this.events.length}/`),
      parent: this.parentBundle,
    };
  }

  _indexCommands() {
    this._bySeq = new Map();
    for (const c of this.commands || []) {
      const [first, last] = c.seqs;
      for (let s = first; s <= last && s - first < 100000; s++) this._bySeq.set(s, c);
    }
  }

  /** The recorded command that produced event `seq` (payload only where the commands are known). */
  /** @param {number} seq */
  commandOf(seq) {
    const c = this._bySeq && this._bySeq.get(seq);
    if (c) return c;
    const e = this.events[seq - 1];
    return e ? { command_id: e.body.command, seat: e.actor, payload: undefined, seqs: null } : null;
  }

  /** @param {import("./verify.js").BundleEvent} event */
  seatOf(event) {
    if (event.actor) return event.actor;
    const c = this._bySeq && this._bySeq.get(event.body.seq);
    return c ? c.seat : null;
  }

  /** A live fork whose bundle could not be read: its parent's part is not checked, and the page says why. */
  _unreadParent() {
    const detail = `the parent's part could not be read from this server (${this.parentError}); download the bundle and check it`;
    return { status: "skipped", detail, first_bad_seq: null };
  }

  /** Re-run every check (a live game coalesces bursts of events into one run). */
  async verify() {
    if (this._verifying) {
      this._dirty = true;
      return this._verifying;
    }
    this._verifying = (async () => {
      do {
        this._dirty = false;
        const r = await verifyAll(this._bundleLike(), (e) => this.seatOf(e), this._memo);
        const parent = this.parentError && !this.parentBundle ? this._unreadParent() : r.parent;
        this.checks = {
          ...(parent ? { parent } : {}),
          chain: r.chain,
          dice: r.dice,
          sealed: r.sealed,
          replay: this.replayCheck(),
        };
        this.rolls = r.rolls;
        this.gameSeed = r.gameSeed;
      } while (this._dirty);
      this._verifying = null;
      this.changed("checks");
    })();
    return this._verifying;
  }

  // ---- views (drawn by the rules engine on the server) ----

  /** @param {string} name @param {number} at */
  async viewAt(name, at) {
    const r = reader(this.id);
    const key = `${name}@${at}/${r.as}`;
    if (!this._viewCache.has(key)) {
      const p = api.view(this.id, name, at, r.token).catch((e) => {
        this._viewCache.delete(key);
        throw e;
      });
      this._viewCache.set(key, p);
    }
    return this._viewCache.get(key);
  }

  /**
   * The data set this game pinned (its SHA-256 is in the genesis), for pictures drawn from it (Battlefleet's arcs):
   * the game's own (options.data in its genesis) or this server's default, checked against the pinned hash here.
   * Resolves {data, from} or rejects with what differs.
   */
  dataSet() {
    this._dataSet ??= (async () => {
      const pinned = this.header.ruleset.data_sha256;
      const own = isObject(this.events[0] && this.events[0].body.data) ? this.events[0].body.data.options : null;
      if (isObject(own) && own.data !== undefined && own.data !== null) {
        const got = hex(await sha256(utf8(canonical(own.data))));
        if (got !== pinned) throw new Error(`the data set in the genesis hashes to ${got}, not the pinned ${pinned}`);
        return { data: own.data, from: "the game's own data set (in its genesis), SHA-256 checked" };
      }
      const text = await api.dataSetText(this.ruleset.id, this.header.ruleset.version);
      const got = hex(await sha256(utf8(text)));
      if (got !== pinned) {
        throw new Error(`this server's ${this.ruleset.id} data set is not the one this game pinned (${pinned.slice(0, 12)}…)`);
      }
      return { data: parse(text), from: "the data set this game pinned, SHA-256 checked in this browser" };
    })();
    this._dataSet.catch(() => (this._dataSet = null));
    return this._dataSet;
  }
}

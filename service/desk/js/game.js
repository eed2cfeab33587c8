// A game's record as the desk holds it, from a bundle file or live from the server, and what the
// browser concluded about it. Emits "change" when events arrive or a check finishes.

import * as api from "./api.js";
import { sha256, hex, utf8 } from "./crypto.js";
import { canonical, isObject, parse } from "./json.js";
import { reader } from "./reader.js";
import { bundleError, verifyAll } from "./verify.js";

const NOT_RUN = {
  bundle:
    "the replay re-runs every command through the rules engine, which this page does not have: run `umpire verify FILE`, " +
    "or ask this server (below)",
  live: "the replay re-runs every command through the rules engine, which this page does not have: download the bundle and run `umpire verify` on it",
};

export class Game extends EventTarget {
  constructor(source, id) {
    super();
    this.source = source; // "bundle" | "live"
    this.id = id;
    this.events = [];
    this.commands = null; // [{command_id, seat, payload, seqs}] when known
    this.header = null; // the bundle's ruleset/dice/head (a live game's comes from its own genesis)
    this.checks = null;
    this.rolls = [];
    this.gameSeed = null;
    this.views = []; // [{name}] the ruleset's views, when a server can draw them
    this.viewsFrom = null; // null | "server"
    this.match = null; // a bundle on this server: null (not asked), {state: "asking"|"yes"|"no", detail}
    this.summary = null;
    this.stream = "none"; // live: "connecting" | "live" | "reconnecting" | "closed"
    this.serverHead = null;
    this.serverReport = null;
    this._memo = new WeakMap();
    this._viewCache = new Map();
    this._verifying = null;
    this._dirty = false;
  }

  get ruleset() {
    return this.header ? this.header.ruleset : null;
  }

  changed(what) {
    this.dispatchEvent(new CustomEvent("change", { detail: what }));
  }

  // ---- a bundle file ----

  /** A Game from a file's text; throws Error("not an umpire-bundle/1: …") as `umpire verify` would say. */
  static async fromBundleText(text, fileName) {
    let b;
    try {
      b = parse(text);
    } catch (e) {
      throw new Error(`not an umpire-bundle/1: the file is not JSON (${e.message})`);
    }
    const err = bundleError(b);
    if (err) throw new Error(`not an umpire-bundle/1: ${err}`);
    return Game.fromBundle(b, text, fileName);
  }

  /** A Game from a bundle already read and shape-checked (a file, or the parent part a fork's bundle carries). */
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
    return g;
  }

  /** The position a fork starts from, as its genesis names it: {game, seq, hash}, or null. */
  get forkOf() {
    const data = this.events[0] && this.events[0].body.data;
    const ref = isObject(data) ? data.parent : null;
    return isObject(ref) ? ref : null;
  }

  /** Does this server hold the same game? Only the game id and one seq go out; the answer is checked by hash. */
  async askServer() {
    this.match = { state: "asking", detail: "asking this server…" };
    this.changed("match");
    const n = this.events.length;
    try {
      const hash = await api.hashAt(this.id, n);
      if (hash !== this.events[n - 1].hash) {
        this.match = { state: "no", detail: `this server's game ${this.id} differs from the file at seq ${n}` };
      } else {
        this.views = await api.rulesetViews(this.ruleset.id);
        this.viewsFrom = "server";
        this.match = { state: "yes", detail: `this server holds game ${this.id} with the same hash at seq ${n}` };
      }
    } catch (e) {
      this.match = { state: "no", detail: e.status === 404 ? `this server has no game ${this.id}` : e.message };
    }
    this.changed("match");
  }

  async askServerToVerify() {
    this.serverReport = { state: "asking" };
    this.changed("server-report");
    try {
      this.serverReport = { state: "done", report: await api.serverVerify(this.bundleText) };
    } catch (e) {
      this.serverReport = { state: "error", detail: e.message };
    }
    this.changed("server-report");
  }

  // ---- a live game ----

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
        g.parentError = e.message;
      }
    }
    try {
      g.views = await api.rulesetViews(g.ruleset.id);
      g.viewsFrom = "server";
    } catch {
      g.views = [];
    }
    await g.verify();
    return g;
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

  /** A live game's commands with their payloads (from its bundle, read as the reader may), for a roll's "what
   * caused it" and the what-if positions; and a fork's parent part. */
  async loadCommands() {
    const r = reader(this.id);
    const at = `${this.events.length}/${r.as}`;
    if (this.source === "bundle" || this._commandsAt === at) return;
    const b = await api.bundle(this.id, r.token);
    const err = bundleError(b);
    if (err) throw new Error(`the server's bundle is not an umpire-bundle/1: ${err}`);
    this.commands = b.commands;
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
  commandOf(seq) {
    const c = this._bySeq && this._bySeq.get(seq);
    if (c) return c;
    const e = this.events[seq - 1];
    return e ? { command_id: e.body.command, seat: e.actor, payload: undefined, seqs: null } : null;
  }

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
          replay: { status: "not-run", detail: NOT_RUN[this.source], first_bad_seq: null },
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
      const text = await api.dataSetText(this.ruleset.id);
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

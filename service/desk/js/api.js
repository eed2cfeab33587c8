// @ts-check
// Everything the desk asks the server, and how its answers are read: the one place to adjust when the API
// changes shape. Answers are read with the exact JSON parser, so what is verified is what was sent.
// Verification never depends on these answers being honest: the chain and the dice are recomputed.

import { parse } from "./json.js";

/** An answer that is not 2xx (status 0: no answer at all), with the problem's code and detail when it sent one. */
export class ApiError extends Error {
  /** @param {number} status @param {string | null} code @param {string} detail */
  constructor(status, code, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    /** @type {string | null} seconds to wait, where a busy server said (Retry-After) */
    this.retryAfter = null;
  }
}

/**
 * GET (or `init`'s method) a path of this server; the answer's body read exactly, and its text.
 * @param {string} path @param {RequestInit} [init] @returns {Promise<{body: any, text: string}>}
 */
async function request(path, init = {}) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "unreachable", `the server did not answer (${e instanceof Error ? e.message : e}); is it running?`);
  }
  const text = await res.text();
  let body = null;
  try {
    body = text ? parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const detail = body && typeof body.detail === "string" ? body.detail : text.slice(0, 300) || res.statusText;
    const err = new ApiError(res.status, body && body.code, detail);
    err.retryAfter = res.headers.get("Retry-After");
    throw err;
  }
  return { body, text };
}

const enc = encodeURIComponent;
/** @param {string | null | undefined} token @returns {Record<string, string>} */
const auth = (token) => (token ? { Authorization: `Bearer ${token}` } : {});
const JSON_BODY = { "Content-Type": "application/json" };

/** An event as the desk keeps it: the hashed body (docs/spec/events.md), its hash, and who/when beside it. */
/**
 * @typedef {import("./verify.js").BundleEvent & {recorded_at?: string | null}} DeskEvent
 * @param {any} raw an event as GET /events or the stream sends it @param {string} gameId @returns {DeskEvent}
 */
export function normalizeEvent(raw, gameId) {
  // today GET /events sends {seq, type, v, body, hash, ...}; the target shape sends the body's fields flat
  const body = raw.body ?? {
    game: gameId,
    seq: raw.seq,
    type: raw.type,
    v: raw.v,
    command: raw.command ?? null,
    data: raw.data,
  };
  return { body, hash: raw.hash, actor: raw.actor ?? null, recorded_at: raw.recorded_at ?? null };
}

/** The newest games on this server: [{game_id, ruleset, status, version, created_at}]. */
export async function listGames(limit = 20) {
  const { body } = await request(`/games?limit=${limit}`);
  return body.games.map((/** @type {any} */ g) => ({
    id: g.game_id,
    ruleset: g.ruleset.id,
    status: g.status,
    version: g.version,
    createdAt: g.created_at,
  }));
}

/** GET /games/{id}: the game's status, version, seats and who is awaited. @param {string} gameId */
export async function summary(gameId) {
  return (await request(`/games/${enc(gameId)}`)).body;
}

/** What this server says of a ruleset (GET /rulesets/{id}): its title, views, commands, options. */
/** @param {string} rulesetId @returns {Promise<import("./client/types.js").RulesetInfo>} */
export async function rulesetInfo(rulesetId) {
  return (await request(`/rulesets/${enc(rulesetId)}`)).body;
}

/** Every ruleset this server runs (GET /rulesets), read once per page: the desk's lists and labels come from it.
 * @returns {Promise<import("./client/types.js").RulesetList>} */
export function rulesets() {
  rulesetList ??= request("/rulesets").then((r) => r.body);
  rulesetList.catch(() => (rulesetList = null));
  return rulesetList;
}
/** @type {Promise<import("./client/types.js").RulesetList> | null} */
let rulesetList = null;

/** A page of the log after `after`. @param {string} gameId @param {number} after @param {number} [limit] */
export async function eventsPage(gameId, after, limit = 1000) {
  const { body } = await request(`/games/${enc(gameId)}/events?after=${after}&limit=${limit}`);
  return {
    events: body.events.map((/** @type {any} */ e) => normalizeEvent(e, gameId)),
    nextAfter: body.next_after,
    version: body.version ?? null,
    head: body.head ?? null,
  };
}

/** The hash the server holds for one seq (to tell whether a bundle is a game this server has).
 * @param {string} gameId @param {number} seq */
export async function hashAt(gameId, seq) {
  const page = await eventsPage(gameId, seq - 1, 1);
  return page.events.length ? page.events[0].hash : null;
}

/** A view at `at` (the head when null), read as the public or, with a token, as that seat or the referee. */
/** @param {string} gameId @param {string} name @param {number | null} at @param {string | null} [token] */
export async function view(gameId, name, at, token = null) {
  const q = at ? `?at=${at}` : "";
  const { body } = await request(`/games/${enc(gameId)}/views/${enc(name)}${q}`, { headers: auth(token) });
  return { view: body.view, at: body.at, data: body.data };
}

/** The bundle: the same file for every reader (a sealed command's payload a commitment until revealed); a token
 * sent must be this game's. */
/** @param {string} gameId @param {string | null} [token] */
export async function bundle(gameId, token = null) {
  return (await request(`/games/${enc(gameId)}/bundle`, { headers: auth(token) })).body;
}

/** The bundle's exact bytes (to save as a file). */
/** @param {string} gameId @param {string | null} [token] */
export async function bundleText(gameId, token = null) {
  return (await request(`/games/${enc(gameId)}/bundle`, { headers: auth(token) })).text;
}

/** Who a token is in a game: {seat, referee, may, …} (401 when it is none of this game's). */
/** @param {string} gameId @param {string} token */
export async function me(gameId, token) {
  return (await request(`/games/${enc(gameId)}/me`, { headers: auth(token) })).body;
}

/** The data set a ruleset's games of `version` use by default (an edition may revise it), as the exact bytes its
 * SHA-256 was taken of. @param {string} rulesetId @param {string} version */
export async function dataSetText(rulesetId, version) {
  return (await request(`/desk/data/${enc(rulesetId)}.json?edition=${enc(version)}`)).text;
}

/** POST /games/{id}/forks: a new game from the position after event `at` → {game_id, seats, referee_token, …}. */
/** @param {string} gameId @param {number} at @param {string} [mode] */
export async function fork(gameId, at, mode = "fair") {
  const init = { method: "POST", headers: JSON_BODY, body: JSON.stringify({ at, dice: { mode } }) };
  return (await request(`/games/${enc(gameId)}/forks`, init)).body;
}

/** POST /games/{id}/odds: continuations from a position, as a job → {job_id, status, done, games, stream, …}. */
/** @param {string} gameId @param {number} at @param {number} games @param {number} seed */
export async function odds(gameId, at, games, seed) {
  const init = { method: "POST", headers: JSON_BODY, body: JSON.stringify({ at, games, seed }) };
  return (await request(`/games/${enc(gameId)}/odds`, init)).body;
}

/** @param {string} jobId */
export async function job(jobId) {
  return (await request(`/jobs/${enc(jobId)}`)).body;
}

/**
 * A job live (`GET /jobs/{id}/stream`): onProgress({done, games}) as continuations finish, then onResult(job) once.
 * If the stream drops before the result, the job is read once more with GET /jobs/{id}. Returns {close()}.
 * @param {string} jobId @param {(p: any) => void} onProgress @param {(job: any) => void} onResult
 * @param {(e: unknown) => void} onError
 */
export function followJob(jobId, onProgress, onResult, onError) {
  const ctrl = new AbortController();
  (async () => {
    try {
      const res = await fetch(`/jobs/${enc(jobId)}/stream`, {
        headers: { Accept: "text/event-stream" },
        signal: ctrl.signal,
      });
      if (!res.ok) throw new ApiError(res.status, null, `the job's stream answered ${res.status}`);
      const done = await readEvents(res, (name, data) => {
        if (name === "progress") onProgress(parse(data));
        if (name === "result") {
          onResult(parse(data));
          return true;
        }
        return false;
      });
      if (!done) onResult(await job(jobId));
    } catch (e) {
      if (!ctrl.signal.aborted) onError(e);
    }
  })();
  return { close: () => ctrl.abort() };
}

/** Read a text/event-stream response, calling onMessage(eventName, data) per message until it returns true.
 * @param {Response} res @param {(name: string, data: string) => boolean} onMessage */
async function readEvents(res, onMessage) {
  if (!res.body) return false;
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let name = "message";
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += dec.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line === "") {
        if (data.length && onMessage(name, data.join("\n"))) {
          reader.cancel().catch(() => {});
          return true;
        }
        name = "message";
        data = [];
      } else if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
  }
}

/** @param {string} gameId @param {string} token */
export async function reveal(gameId, token) {
  return (await request(`/games/${enc(gameId)}/reveal`, { method: "POST", headers: auth(token) })).body;
}

/** @param {string} gameId @param {string} token */
export async function end(gameId, token) {
  return (await request(`/games/${enc(gameId)}/end`, { method: "POST", headers: auth(token) })).body;
}

/** The referee changes the turn clock (docs/api.md "Deadlines"): `{paused}`, `{extend: {seat: seconds}}`, or
 * `{turn_seconds, on_expiry}`; a recorded command, answered as one.
 * @param {string} gameId @param {string} token @param {Record<string, unknown>} change */
export async function changeDeadlines(gameId, token, change) {
  const init = { method: "POST", headers: { ...auth(token), ...JSON_BODY }, body: JSON.stringify(change) };
  return (await request(`/games/${enc(gameId)}/deadlines`, init)).body;
}

/** The server's own report (it replays the commands): of a game it holds, or of any file when the referee asks. */
/** @param {string} bundleText */
export async function serverVerify(bundleText) {
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: bundleText };
  return (await request(`/bundles/verify`, init)).body;
}

/**
 * Follow the log live (Server-Sent Events read over fetch, so events of every type arrive and a dropped
 * connection resumes after the last seq). Calls onEvent(event) in seq order, onEnd({status, version, head}) when
 * the server says the game is over (an `end` message), and onState("live" | "reconnecting" | "waiting" | "closed",
 * detail). A game over but not revealed is watched on (the referee may still reveal it); a revealed game is done.
 * Returns {close()}.
 * @param {string} gameId @param {number} after @param {(event: DeskEvent) => void} onEvent
 * @param {(end: {status: string, version: number, head: string}) => void} onEnd
 * @param {(state: string, detail?: string) => void} onState
 */
export function follow(gameId, after, onEvent, onEnd, onState) {
  const ctrl = new AbortController();
  let last = after;
  let stopped = false;
  /** @type {{status: string, version: number, head: string} | null} the stream's `end` message, once sent */
  let ended = null;
  async function once() {
    const res = await fetch(`/games/${enc(gameId)}/events/stream?after=${last}`, {
      headers: { Accept: "text/event-stream" },
      signal: ctrl.signal,
    });
    if (!res.ok) throw new ApiError(res.status, null, `the stream answered ${res.status}`);
    onState("live");
    await readEvents(res, (_name, data) => {
      const msg = parse(data); // {message: "event" | "state" | "end", ...} (docs/api.md "The stream")
      if (msg.message === "end") {
        ended = msg;
        onEnd(msg);
      } else if (msg.message === "event") {
        const ev = normalizeEvent(msg.event, gameId);
        if (ev.body.seq > last) {
          last = ev.body.seq;
          onEvent(ev);
        }
      }
      return false;
    });
  }
  (async () => {
    while (!stopped) {
      try {
        await once();
      } catch (e) {
        if (stopped) break;
        onState("reconnecting", e instanceof Error ? e.message : String(e));
      }
      const over = /** @type {{status: string} | null} */ (ended); // set by the stream's reader, above
      if (over && over.status === "revealed") break;
      if (ended) onState("waiting");
      if (!stopped) await new Promise((r) => setTimeout(r, ended ? 2000 : 1000));
    }
    onState("closed");
  })();
  return {
    close() {
      stopped = true;
      ctrl.abort();
    },
  };
}

/**
 * `@naval-umpire/client`: the hand-written layer over the generated types (./api.ts, from openapi/openapi.json): a
 * typed method per operation of the API, its problem+json errors as typed exceptions, each reader's own stream with
 * tickets and resume, and command(spec, choice). Runs in browsers and Node 20 (fetch and streams only).
 *
 *   const api = new Umpire("http://127.0.0.1:8000", token);
 *   const game = await api.game(id);                       // typed GameSummary
 *   await api.send(id, command(game.awaiting[0], game.awaiting[0].choices![0]));
 *   const live = api.follow(id, { onMessage: (m) => ... }); // this reader's own stream, resumed on drops
 *
 * Errors are `Problem`s (the API's problem+json, `code` typed). docs/api.md is the contract.
 */
import type { paths } from "./api.js";
import type {
  BundleUpload,
  ChangeDeadlines,
  Command,
  CommandResult,
  CommandSpec,
  CreateGame,
  ForkGame,
  JobProgress,
  OddsJob,
  OddsRequest,
  ProblemBody,
  SeedRequest,
  StreamMessage,
} from "./types.js";

export type * from "./types.js";

/** Every `code` docs/api.md "Errors" lists, and those its "Notifications" and "Deadlines" name (a server newer than
 * this client may send others: still a string). */
export type ProblemCode =
  | "invalid-last-event-id" | "cors-refused" | "reader-conflict"
  | "invalid-ticket" | "expired-ticket" | "missing-token" | "invalid-token" | "creation-token-required"
  | "metrics-token-required" | "metrics-off"
  | "not-your-turn" | "referee-only" | "not-a-seat" | "invalid-invitation" | "cors-disabled"
  | "unknown-game" | "unknown-view" | "unknown-roll" | "unknown-job" | "unknown-ruleset" | "not-found"
  | "method-not-allowed"
  | "request-timeout"
  | "illegal-command" | "version-conflict" | "command-id-reused" | "seed-locked" | "seed-already-contributed"
  | "seats-open" | "no-deadlines" | "no-notifications" | "confirmation-refused" | "ticket-in-use" | "no-bot" | "no-data-set" | "not-ready"
  | "game-over" | "game-revealed" | "data-mismatch" | "edition-not-run" | "fork-sealed" | "fork-parent-changed"
  | "body-too-large" | "bundle-too-large"
  | "unsupported-media-type"
  | "invalid-request" | "unknown-parameter" | "invalid-json" | "invalid-command" | "invalid-command-id"
  | "invalid-expected-version" | "invalid-if-match" | "unknown-edition" | "edition-withdrawn" | "invalid-options"
  | "invalid-seats"
  | "unknown-seat" | "invalid-bots" | "invalid-dice" | "invalid-data" | "unknown-data-file" | "invalid-client-seed"
  | "invalid-bundle" | "sealed-content" | "invalid-cursor" | "invalid-version" | "invalid-at"
  | "invalid-deadlines" | "webhook-refused"
  | "too-many-requests"
  | "internal-error"
  | "outcome-unknown" | "store-unavailable" | "storage-unavailable" | "busy" | "too-many-connections"
  | "http-error" // no problem+json came back (a proxy's page): made by this client
  | (string & {});

/** An error answer of the API (application/problem+json), thrown by every call: `status`, the stable `code`, `detail`
 * (what to do) and the whole `body`. */
export class Problem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  /** The problem's `detail`: what went wrong and what to do ("" if the answer had none). */
  readonly detail: string;
  readonly body: ProblemBody;
  constructor(body: ProblemBody) {
    super(`${body.status} ${body.code}: ${body.detail}`);
    this.name = new.target.name;
    this.status = body.status;
    this.code = body.code;
    this.detail = body.detail ?? "";
    this.body = body;
  }
  /** The legal commands now, on a 409 illegal-command (in the shape of `awaiting`). */
  get legal(): CommandSpec[] {
    return (this.body.legal ?? []) as CommandSpec[];
  }
  /** Seconds to wait before sending again (429, 503), when the server said. */
  get retryAfter(): number | null {
    return this.body.retry_after ?? null;
  }
}

/** 401: the token is missing, wrong or rotated, or a stream's ticket is invalid or expired. */
export class Unauthorized extends Problem {}
/** 403: not this seat's command now, referee-only, a spent invitation, CORS not enabled. */
export class Forbidden extends Problem {}
/** 404: no such game, view, roll, job or ruleset. */
export class NotFound extends Problem {}
/** 409 (and 412): the game's state refuses it: over, revealed, a seed too late, a reused command id… */
export class Conflict extends Problem {}
/** 409 illegal-command: the rules refuse it now; `legal` says what they allow. */
export class IllegalCommand extends Conflict {}
/** 409/412 version-conflict: the game moved on (`body.version`): read again and decide again. */
export class VersionConflict extends Conflict {}
/** 413: a body over the limit (`body.limit`). */
export class TooLarge extends Problem {}
/** 422 (and 400, 415): a request of the wrong shape; `detail` says which part. */
export class InvalidRequest extends Problem {}
/** 429: too many games created, bundles verified or odds computed at once: wait `retryAfter`. */
export class TooManyRequests extends Problem {}
/** 503: nothing was appended, or (outcome-unknown) maybe it was: send again, with `body.command_id` if given. */
export class Unavailable extends Problem {}

function problemOf(body: ProblemBody): Problem {
  if (body.code === "illegal-command") return new IllegalCommand(body);
  if (body.code === "version-conflict") return new VersionConflict(body);
  const byStatus: Record<number, typeof Problem> = {
    400: InvalidRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 412: Conflict,
    413: TooLarge, 415: InvalidRequest, 422: InvalidRequest, 429: TooManyRequests, 503: Unavailable,
  };
  return new (byStatus[body.status] ?? Problem)(body);
}

/** The arguments of one entry of `awaiting`'s `choices`. */
export type ChoiceOf<S extends CommandSpec> = S extends { choices: (infer C)[] | null } ? C : never;

/**
 * A command from an `awaiting` entry and one of its choices (or arguments built from its `ui` or `schema`): exactly
 * what POST /games/{id}/commands takes — `{type, ...choice}`.
 */
export function command<S extends CommandSpec>(spec: S, choice?: ChoiceOf<S> | Record<string, unknown>): Command {
  return { ...(choice ?? {}), type: spec.type } as unknown as Command;
}

/** The label of choice i of an entry (for a button), or a plain rendering when the ruleset gave none. */
export function label(spec: CommandSpec, i: number): string {
  const labels = spec.labels as string[] | null | undefined;
  const choice = spec.choices?.[i] as Record<string, unknown> | undefined;
  return labels?.[i] ?? (choice && Object.keys(choice).length ? `${spec.type} ${JSON.stringify(choice)}` : spec.type);
}

// Each method's types come from the operation at its path in ./api.ts: its path and query parameters, its JSON
// body and its success answer (a 204's: null).
/** The HTTP methods of the API's operations. */
export type Method = "get" | "post" | "put" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Ok<O> = O extends { responses: infer R }
  ? R extends { 200: infer A } ? Json<A> : R extends { 201: infer A } ? Json<A> : R extends { 202: infer A } ? Json<A>
    : R extends { 204: unknown } ? null : never
  : never;
type Body<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;
/** The query parameters of an operation (`Params<"/games", "get">`: ruleset, status, cursor, limit). */
export type Params<P extends keyof paths, M extends Method = "get"> = Query<Op<P, M>>;
/** The success answer of an operation. */
export type Answer<P extends keyof paths, M extends Method = "get"> = Ok<Op<P, M>>;

interface Call<O> {
  path?: PathParams<O>;
  query?: Query<O>;
  body?: Body<O>;
  headers?: Record<string, string>;
}

export interface FollowOptions {
  /** the seq already read: the stream sends what comes after (then resumes by Last-Event-ID on its own) */
  after?: number;
  /** every message: an event, this reader's state after each command's events, the end */
  onMessage: (m: StreamMessage) => void;
  /** "live", "reconnecting" (with why), "closed" (with why, when a refusal a retry would repeat ended it: a void
   * token, a game not here, an `after` past the game's version) */
  onStatus?: (status: "live" | "reconnecting" | "closed", detail?: string) => void;
  /** read as the token's seat (default: yes when the client has a token; else the public) */
  asReader?: boolean;
}

export interface Following {
  close(): void;
  /** resolves when the stream has ended (the game is over and revealed) or was closed */
  done: Promise<void>;
}

export class Umpire {
  readonly base: string;
  token: string | null;
  private fetchImpl: typeof fetch;

  constructor(base = "", token: string | null = null, fetchImpl: typeof fetch = (...a) => fetch(...a)) {
    this.base = base.replace(/\/$/, "");
    this.token = token;
    this.fetchImpl = fetchImpl;
  }

  /** One request: the parsed JSON answer, or a thrown Problem. */
  async request<T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const h: Record<string, string> = { Accept: "application/json", ...headers };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await this.fetchImpl(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw problemFromText(res, text);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** One operation of the API by its path in the OpenAPI document, typed from it (every method below is one). */
  call<P extends keyof paths, M extends Method>(method: M, path: P, req: Call<Op<P, M>> = {}): Promise<Ok<Op<P, M>>> {
    const params = (req.path ?? {}) as Record<string, string | number>;
    let url = (path as string).replace(/\{(\w+)\}/g, (_, name: string) => enc(String(params[name])));
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
      if (v !== undefined && v !== null) query.set(k, String(v));
    }
    if (query.toString()) url += `?${query}`;
    return this.request(method.toUpperCase() as Uppercase<Method>, url, req.body, req.headers);
  }

  // ---- the service and its rulesets ----
  root() {
    return this.call("get", "/");
  }
  rulesets() {
    return this.call("get", "/rulesets");
  }
  ruleset(rulesetId: string) {
    return this.call("get", "/rulesets/{ruleset_id}", { path: { ruleset_id: rulesetId } });
  }
  /** The seats a game of this ruleset gets with these options when `createGame` names none (corvette-command's
   * `two_player` makes two escorts): what a lobby offers to seat people or bots in before it creates the game. */
  seats(rulesetId: string, options: Record<string, unknown> = {}) {
    return this.call("get", "/rulesets/{ruleset_id}/seats", {
      path: { ruleset_id: rulesetId },
      query: { options: JSON.stringify(options) },
    });
  }
  /** Liveness: 200 while the process answers requests (it reads nothing from the store). */
  live() {
    return this.call("get", "/health/live");
  }
  /** Readiness: 200 when the store answers; else a 503 `not-ready` (`Unavailable`). */
  ready() {
    return this.call("get", "/health/ready");
  }

  // ---- games: create, find, join, tokens ----
  createGame(body: CreateGame) {
    return this.call("post", "/games", { body });
  }
  /** Games, newest first; pass `next_cursor` as `cursor` for the next page. */
  listGames(query: Params<"/games"> = {}) {
    return this.call("get", "/games", { query });
  }
  /** What an invitation offers (`{game_id, seat, ruleset, umpired}`), read before it is accepted: nothing is spent. */
  invitation(gameId: string, invitation: string) {
    return this.call("post", "/games/{game_id}/invitation", { path: { game_id: gameId }, body: { invitation } });
  }
  /** Take an open seat with its invitation: the seat's token, shown only in this answer. `seed`: the seat's client
   * seed for the dice (`{passphrase}` or `{client_seed}`), recorded with the join, before anyone's first command. */
  join(gameId: string, invitation: string, seed: { passphrase: string } | { client_seed: string } | {} = {}) {
    return this.call("post", "/games/{game_id}/join", { path: { game_id: gameId }, body: { invitation, ...seed } });
  }
  /** A new token for this client's seat (or the referee); the old one is refused at once. */
  rotate(gameId: string) {
    return this.call("post", "/games/{game_id}/token", { path: { game_id: gameId } });
  }
  /** A 60 s ticket to open this token's own stream (`follow` asks for one on every connection). */
  ticket(gameId: string) {
    return this.call("post", "/games/{game_id}/tickets", { path: { game_id: gameId } });
  }

  // ---- reading a game ----
  game(gameId: string) {
    return this.call("get", "/games/{game_id}", { path: { game_id: gameId } });
  }
  /** The legal commands now, as this token may see them (`game(gameId)`'s `awaiting`), as the Python client's
   * `awaiting(game_id)`. */
  async awaiting(gameId: string) {
    return (await this.game(gameId)).awaiting;
  }
  me(gameId: string) {
    return this.call("get", "/games/{game_id}/me", { path: { game_id: gameId } });
  }
  view(gameId: string, name: string, at?: number) {
    return this.call("get", "/games/{game_id}/views/{view}", { path: { game_id: gameId, view: name }, query: { at } });
  }
  events(gameId: string, after = 0, limit = 1000) {
    return this.call("get", "/games/{game_id}/events", { path: { game_id: gameId }, query: { after, limit } });
  }
  /** Since my last turn: the events after `version` (the last one this reader saw) as this token reads them, and
   * `digest`, their account in plain words; `more`: ask again with `version: upto`. */
  since(gameId: string, version: number, limit?: number) {
    return this.call("get", "/games/{game_id}/since", { path: { game_id: gameId }, query: { version, limit } });
  }
  rolls(gameId: string, after = 0, limit = 1000) {
    return this.call("get", "/games/{game_id}/rolls", { path: { game_id: gameId }, query: { after, limit } });
  }
  roll(gameId: string, k: number) {
    return this.call("get", "/games/{game_id}/rolls/{k}", { path: { game_id: gameId, k } });
  }
  /** The replay bundle (docs/bundles.md). */
  bundle(gameId: string) {
    return this.call("get", "/games/{game_id}/bundle", { path: { game_id: gameId } });
  }

  // ---- playing ----
  /** Send a command (build it with `command(spec, choice)`); `ifMatch`: only if the game is still at that ETag. */
  send(gameId: string, cmd: Command, opts: { ifMatch?: string } = {}): Promise<CommandResult> {
    const headers: Record<string, string> = opts.ifMatch ? { "If-Match": opts.ifMatch } : {};
    return this.call("post", "/games/{game_id}/commands", { path: { game_id: gameId }, body: cmd, headers });
  }
  /** This seat's client seed for the dice, before the first command. */
  contributeSeed(gameId: string, body: SeedRequest) {
    return this.call("post", "/games/{game_id}/seeds", { path: { game_id: gameId }, body });
  }
  /** Referee: publish the server seed; the game is closed. */
  reveal(gameId: string) {
    return this.call("post", "/games/{game_id}/reveal", { path: { game_id: gameId } });
  }
  /** Referee: end the game without revealing the seed. */
  end(gameId: string) {
    return this.call("post", "/games/{game_id}/end", { path: { game_id: gameId } });
  }
  /** Referee: change the turn clock of a game created with `deadlines` (`turn_seconds`, `on_expiry`, `paused`,
   * `extend`: seconds more for seats' running turns); recorded, answered like a command. */
  changeDeadlines(gameId: string, change: ChangeDeadlines) {
    return this.call("post", "/games/{game_id}/deadlines", { path: { game_id: gameId }, body: change });
  }

  // ---- notifications (webhooks or e-mail) of this token's reader ----
  /** Register this reader's one target (a second call replaces it): a webhook URL, whose signing `secret` is shown
   * only here, or `mailto:name@host.example` where the server sends e-mail: it is mailed a code, and nothing more
   * until `confirmNotifications` sends the code back (`confirmed: false` until then; `secret` null). */
  setNotifications(gameId: string, url: string) {
    return this.call("put", "/games/{game_id}/notifications", { path: { game_id: gameId }, body: { url } });
  }
  /** Confirm this reader's e-mail address with the code mailed to it: notifications are mailed from now on. A code
   * that is not the last one mailed is `confirmation-refused`. */
  confirmNotifications(gameId: string, code: string) {
    return this.call("post", "/games/{game_id}/notifications/confirm", { path: { game_id: gameId }, body: { code } });
  }
  /** This reader's target and its latest deliveries; `NotFound` (`no-notifications`) without one. */
  notifications(gameId: string) {
    return this.call("get", "/games/{game_id}/notifications", { path: { game_id: gameId } });
  }
  /** Remove this reader's target: nothing more is delivered to it, retries included. */
  deleteNotifications(gameId: string) {
    return this.call("delete", "/games/{game_id}/notifications", { path: { game_id: gameId } });
  }
  /** A new signing secret; the old one signs too until `old_secret_signs_until` (a day). */
  rotateNotificationSecret(gameId: string) {
    return this.call("post", "/games/{game_id}/notifications/secret", { path: { game_id: gameId } });
  }
  /** Queue a signed `ping` to the target: `{id}`, its `webhook-id`; `notifications()` shows how it went. */
  testNotifications(gameId: string) {
    return this.call("post", "/games/{game_id}/notifications/test", { path: { game_id: gameId } });
  }

  // ---- what-if and verification ----
  /** A new game from the position after event `at` (docs/whatif.md). */
  fork(gameId: string, body: ForkGame) {
    return this.call("post", "/games/{game_id}/forks", { path: { game_id: gameId }, body });
  }
  /** The odds from a position, as a job: read it with `job`, or wait for it with `followJob`. */
  odds(gameId: string, body: OddsRequest) {
    return this.call("post", "/games/{game_id}/odds", { path: { game_id: gameId }, body });
  }
  job(jobId: string) {
    return this.call("get", "/jobs/{job_id}", { path: { job_id: jobId } });
  }
  /** The four-part report of a bundle: chain, dice, sealed records, replay. */
  verifyBundle(bundle: BundleUpload) {
    return this.call("post", "/bundles/verify", { body: bundle });
  }

  /** A job's stream: `onProgress` as continuations finish; resolves with the job once done, failed or lost. */
  async followJob(jobId: string, onProgress: (p: JobProgress) => void = () => {}): Promise<OddsJob> {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`; // a seat's own odds job reads with its token only
    const res = await this.fetchImpl(`${this.base}/jobs/${enc(jobId)}/stream`, { headers });
    if (!res.ok || !res.body) throw await problemFrom(res);
    let result: OddsJob | null = null;
    await readSse(res.body, (data, event) => {
      if (event === "progress") onProgress(JSON.parse(data) as JobProgress);
      if (event === "result") result = JSON.parse(data) as OddsJob;
    });
    return result ?? this.job(jobId); // the stream was cut before its result: the job says where it is
  }

  /**
   * Follow the game live as this client's reader: with a token, a ticket is asked for on every (re)connection, so
   * the stream carries the seat's own sealed content and `awaiting`; without one, the public stream. A dropped
   * connection resumes after the last seq received (Last-Event-ID). Ends after the `end` of a revealed game.
   */
  follow(gameId: string, opts: FollowOptions): Following {
    const ctrl = new AbortController();
    let last = opts.after ?? 0;
    let stopped = false;
    const status = opts.onStatus ?? (() => {});
    const once = async (): Promise<"end" | "revealed" | "dropped"> => {
      let q = `after=${last}`;
      if (this.token && opts.asReader !== false) q += `&ticket=${encodeURIComponent((await this.ticket(gameId)).ticket)}`;
      const res = await this.fetchImpl(`${this.base}/games/${enc(gameId)}/events/stream?${q}`, {
        headers: { Accept: "text/event-stream", ...(last ? { "Last-Event-ID": String(last) } : {}) },
        signal: ctrl.signal,
      });
      if (!res.ok || !res.body) throw await problemFrom(res);
      status("live");
      let outcome: "end" | "revealed" | "dropped" = "dropped";
      await readSse(res.body, (data, event) => {
        if (event !== null) return; // a named message: not this client's (it asks for none)
        const m = JSON.parse(data) as StreamMessage;
        if (m.message === "event") {
          if (m.event.seq <= last) return;
          last = m.event.seq;
        }
        opts.onMessage(m);
        if (m.message === "end") outcome = m.status === "revealed" ? "revealed" : "end";
      });
      return outcome;
    };
    const done = (async () => {
      while (!stopped) {
        try {
          const outcome = await once();
          if (outcome === "revealed") break;
          if (outcome === "end") await sleep(2000); // over but not revealed: the referee may still reveal
        } catch (e) {
          if (stopped) break;
          const why = e instanceof Error ? e.message : String(e);
          // a void token, a game not here, an `after` past its version: reconnecting would be refused alike
          if (e instanceof Unauthorized || e instanceof NotFound || e instanceof InvalidRequest) {
            stopped = true;
            status("closed", why);
            return;
          }
          status("reconnecting", why);
          await sleep(1000);
        }
      }
      status("closed");
    })();
    return {
      close() {
        stopped = true;
        ctrl.abort();
      },
      done,
    };
  }
}

/** Each message of a Server-Sent Events body: its `data`, and its `event:` name (null for an unnamed message). */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (data: string, event: string | null) => void,
): Promise<void> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let data: string[] = [];
  let event: string | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line === "") {
        if (data.length) onMessage(data.join("\n"), event);
        data = [];
        event = null;
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line.startsWith("event:")) event = line.slice(6).trim();
    }
  }
}

async function problemFrom(res: Response): Promise<Problem> {
  return problemFromText(res, await res.text());
}

/** The Problem an error answer says, or an `http-error` one when it is no problem+json (a proxy's page). */
function problemFromText(res: Response, text: string): Problem {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: said below
  }
  if (body && typeof body === "object" && typeof (body as ProblemBody).code === "string") return problemOf(body as ProblemBody);
  return problemOf({
    type: "about:blank", title: res.statusText, status: res.status, code: "http-error",
    detail: text.slice(0, 200) || `HTTP ${res.status}`,
  });
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

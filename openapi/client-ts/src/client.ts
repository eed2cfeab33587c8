/**
 * The hand-written layer over the generated types (./api.ts, from openapi/openapi.json): what every frontend of
 * Naval Umpire would otherwise write itself. Runs in browsers and Node 20 (fetch and streams only).
 *
 *   const api = new Umpire("http://127.0.0.1:8000", token);
 *   const game = await api.game(id);                       // typed GameSummary
 *   await api.send(id, command(game.awaiting[0], game.awaiting[0].choices![0]));
 *   const live = api.follow(id, { onMessage: (m) => ... }); // this reader's own stream, resumed on drops
 *
 * Errors are `Problem`s (the API's problem+json, `code` typed). docs/api.md is the contract.
 */
import type { components } from "./api.js";

export type Schemas = components["schemas"];
export type GameSummary = Schemas["GameSummary"];
export type CommandSpec = Schemas["CommandSpec"];
export type Command = Schemas["Command"];
export type CommandResult = Schemas["CommandResult"];
export type Event = Schemas["Event"];
export type View = Schemas["View"];
export type Seat = Schemas["Seat"];
export type StreamMessage = Schemas["StreamData"]; // the JSON in a message's data
export type StreamState = Schemas["StreamState"];
export type ProblemBody = Schemas["Problem"];

/** An error answer of the API (application/problem+json), thrown by every call. */
export class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: ProblemBody;
  constructor(body: ProblemBody) {
    super(`${body.status} ${body.code}: ${body.detail}`);
    this.name = "Problem";
    this.status = body.status;
    this.code = body.code;
    this.body = body;
  }
  /** The legal commands now, on a 409 illegal-command (in the shape of `awaiting`). */
  get legal(): CommandSpec[] {
    return (this.body.legal ?? []) as CommandSpec[];
  }
}

/** A command the rules refuse now (409 illegal-command): `legal` says what they allow. */
export class IllegalCommand extends Problem {}
/** The token is missing, wrong, or rotated (401). */
export class Unauthorized extends Problem {}
/** The game moved on (409/412 version-conflict): read again and decide again. */
export class VersionConflict extends Problem {}

function problemOf(body: ProblemBody): Problem {
  if (body.code === "illegal-command") return new IllegalCommand(body);
  if (body.status === 401) return new Unauthorized(body);
  if (body.code === "version-conflict") return new VersionConflict(body);
  return new Problem(body);
}

/** The arguments of one entry of `awaiting`'s `choices`. */
export type ChoiceOf<S extends CommandSpec> = S extends { choices: (infer C)[] | null } ? C : never;

/**
 * A command from an `awaiting` entry and one of its choices (or arguments built from its `schema`): exactly what
 * POST /games/{id}/commands takes — `{type, ...choice}`.
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

export interface FollowOptions {
  /** the seq already read: the stream sends what comes after (then resumes by Last-Event-ID on its own) */
  after?: number;
  /** every message: an event, this reader's state after each command's events, the end */
  onMessage: (m: StreamMessage) => void;
  /** "live", "reconnecting" (with why), "closed" */
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
  async request<T>(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const h: Record<string, string> = { Accept: "application/json", ...headers };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await this.fetchImpl(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const p = parsed as ProblemBody | null;
      throw problemOf(p && typeof p.code === "string" ? p : {
        type: "about:blank", title: res.statusText, status: res.status, code: "http-error",
        detail: text.slice(0, 200) || `HTTP ${res.status}`,
      } as ProblemBody);
    }
    return parsed as T;
  }

  createGame(body: Schemas["CreateGame"]) {
    return this.request<Schemas["GameCreatedOut"]>("POST", "/games", body);
  }
  join(gameId: string, invitation: string) {
    return this.request<Schemas["SeatCredential"]>("POST", `/games/${enc(gameId)}/join`, { invitation });
  }
  rotate(gameId: string) {
    return this.request<Schemas["SeatCredential"]>("POST", `/games/${enc(gameId)}/token`);
  }
  game(gameId: string) {
    return this.request<GameSummary>("GET", `/games/${enc(gameId)}`);
  }
  me(gameId: string) {
    return this.request<Schemas["Me"]>("GET", `/games/${enc(gameId)}/me`);
  }
  view(gameId: string, name: string, at?: number) {
    return this.request<View>("GET", `/games/${enc(gameId)}/views/${enc(name)}${at ? `?at=${at}` : ""}`);
  }
  events(gameId: string, after = 0, limit = 1000) {
    return this.request<Schemas["EventsPage"]>("GET", `/games/${enc(gameId)}/events?after=${after}&limit=${limit}`);
  }
  /** Send a command (build it with `command(spec, choice)`). */
  send(gameId: string, cmd: Command, opts: { ifMatch?: string } = {}) {
    const headers: Record<string, string> = opts.ifMatch ? { "If-Match": opts.ifMatch } : {};
    return this.request<CommandResult>("POST", `/games/${enc(gameId)}/commands`, cmd, headers);
  }
  ticket(gameId: string) {
    return this.request<Schemas["Ticket"]>("POST", `/games/${enc(gameId)}/tickets`);
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
      if (!res.ok || !res.body) {
        const text = await res.text();
        throw problemOf(JSON.parse(text) as ProblemBody);
      }
      status("live");
      let outcome: "end" | "revealed" | "dropped" = "dropped";
      await readSse(res.body, (data) => {
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
          status("reconnecting", e instanceof Error ? e.message : String(e));
          if (e instanceof Unauthorized) break; // a rotated token: reconnecting will not help
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

/** The `data` of each message of a Server-Sent Events body, as an EventSource's onmessage would see it. */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let data: string[] = [];
  let named = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line === "") {
        if (data.length && !named) onData(data.join("\n"));
        data = [];
        named = false;
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line.startsWith("event:")) named = true; // a named message is not onmessage's
    }
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

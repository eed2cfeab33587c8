/** An error answer of the API (application/problem+json), thrown by every call. */
export class Problem extends Error {
    status;
    code;
    body;
    constructor(body) {
        super(`${body.status} ${body.code}: ${body.detail}`);
        this.name = "Problem";
        this.status = body.status;
        this.code = body.code;
        this.body = body;
    }
    /** The legal commands now, on a 409 illegal-command (in the shape of `awaiting`). */
    get legal() {
        return (this.body.legal ?? []);
    }
}
/** A command the rules refuse now (409 illegal-command): `legal` says what they allow. */
export class IllegalCommand extends Problem {
}
/** The token is missing, wrong, or rotated (401). */
export class Unauthorized extends Problem {
}
/** The game moved on (409/412 version-conflict): read again and decide again. */
export class VersionConflict extends Problem {
}
function problemOf(body) {
    if (body.code === "illegal-command")
        return new IllegalCommand(body);
    if (body.status === 401)
        return new Unauthorized(body);
    if (body.code === "version-conflict")
        return new VersionConflict(body);
    return new Problem(body);
}
/**
 * A command from an `awaiting` entry and one of its choices (or arguments built from its `schema`): exactly what
 * POST /games/{id}/commands takes — `{type, ...choice}`.
 */
export function command(spec, choice) {
    return { ...(choice ?? {}), type: spec.type };
}
/** The label of choice i of an entry (for a button), or a plain rendering when the ruleset gave none. */
export function label(spec, i) {
    const labels = spec.labels;
    const choice = spec.choices?.[i];
    return labels?.[i] ?? (choice && Object.keys(choice).length ? `${spec.type} ${JSON.stringify(choice)}` : spec.type);
}
export class Umpire {
    base;
    token;
    fetchImpl;
    constructor(base = "", token = null, fetchImpl = (...a) => fetch(...a)) {
        this.base = base.replace(/\/$/, "");
        this.token = token;
        this.fetchImpl = fetchImpl;
    }
    /** One request: the parsed JSON answer, or a thrown Problem. */
    async request(method, path, body, headers = {}) {
        const h = { Accept: "application/json", ...headers };
        if (this.token)
            h.Authorization = `Bearer ${this.token}`;
        if (body !== undefined)
            h["Content-Type"] = "application/json";
        const res = await this.fetchImpl(this.base + path, {
            method,
            headers: h,
            body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        const parsed = text ? JSON.parse(text) : null;
        if (!res.ok) {
            const p = parsed;
            throw problemOf(p && typeof p.code === "string" ? p : {
                type: "about:blank", title: res.statusText, status: res.status, code: "http-error",
                detail: text.slice(0, 200) || `HTTP ${res.status}`,
            });
        }
        return parsed;
    }
    createGame(body) {
        return this.request("POST", "/games", body);
    }
    join(gameId, invitation) {
        return this.request("POST", `/games/${enc(gameId)}/join`, { invitation });
    }
    rotate(gameId) {
        return this.request("POST", `/games/${enc(gameId)}/token`);
    }
    game(gameId) {
        return this.request("GET", `/games/${enc(gameId)}`);
    }
    me(gameId) {
        return this.request("GET", `/games/${enc(gameId)}/me`);
    }
    view(gameId, name, at) {
        return this.request("GET", `/games/${enc(gameId)}/views/${enc(name)}${at ? `?at=${at}` : ""}`);
    }
    events(gameId, after = 0, limit = 1000) {
        return this.request("GET", `/games/${enc(gameId)}/events?after=${after}&limit=${limit}`);
    }
    /** Send a command (build it with `command(spec, choice)`). */
    send(gameId, cmd, opts = {}) {
        const headers = opts.ifMatch ? { "If-Match": opts.ifMatch } : {};
        return this.request("POST", `/games/${enc(gameId)}/commands`, cmd, headers);
    }
    ticket(gameId) {
        return this.request("POST", `/games/${enc(gameId)}/tickets`);
    }
    /**
     * Follow the game live as this client's reader: with a token, a ticket is asked for on every (re)connection, so
     * the stream carries the seat's own sealed content and `awaiting`; without one, the public stream. A dropped
     * connection resumes after the last seq received (Last-Event-ID). Ends after the `end` of a revealed game.
     */
    follow(gameId, opts) {
        const ctrl = new AbortController();
        let last = opts.after ?? 0;
        let stopped = false;
        const status = opts.onStatus ?? (() => { });
        const once = async () => {
            let q = `after=${last}`;
            if (this.token && opts.asReader !== false)
                q += `&ticket=${encodeURIComponent((await this.ticket(gameId)).ticket)}`;
            const res = await this.fetchImpl(`${this.base}/games/${enc(gameId)}/events/stream?${q}`, {
                headers: { Accept: "text/event-stream", ...(last ? { "Last-Event-ID": String(last) } : {}) },
                signal: ctrl.signal,
            });
            if (!res.ok || !res.body) {
                const text = await res.text();
                throw problemOf(JSON.parse(text));
            }
            status("live");
            let outcome = "dropped";
            await readSse(res.body, (data) => {
                const m = JSON.parse(data);
                if (m.message === "event") {
                    if (m.event.seq <= last)
                        return;
                    last = m.event.seq;
                }
                opts.onMessage(m);
                if (m.message === "end")
                    outcome = m.status === "revealed" ? "revealed" : "end";
            });
            return outcome;
        };
        const done = (async () => {
            while (!stopped) {
                try {
                    const outcome = await once();
                    if (outcome === "revealed")
                        break;
                    if (outcome === "end")
                        await sleep(2000); // over but not revealed: the referee may still reveal
                }
                catch (e) {
                    if (stopped)
                        break;
                    status("reconnecting", e instanceof Error ? e.message : String(e));
                    if (e instanceof Unauthorized)
                        break; // a rotated token: reconnecting will not help
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
export async function readSse(body, onData) {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    let data = [];
    let named = false;
    for (;;) {
        const { value, done } = await reader.read();
        if (done)
            return;
        buf += dec.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
            const line = buf.slice(0, nl).replace(/\r$/, "");
            buf = buf.slice(nl + 1);
            if (line === "") {
                if (data.length && !named)
                    onData(data.join("\n"));
                data = [];
                named = false;
            }
            else if (line.startsWith("data:"))
                data.push(line.slice(5).replace(/^ /, ""));
            else if (line.startsWith("event:"))
                named = true; // a named message is not onmessage's
        }
    }
}
function enc(s) {
    return encodeURIComponent(s);
}
function sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
}

/** The client against a real server (UMPIRE_URL; tests/test_client_ts.py starts one, letting webhooks reach
 * 127.0.0.1, and names the OpenAPI document in UMPIRE_OPENAPI): node --test. */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

import {
  Conflict,
  Forbidden,
  IllegalCommand,
  InvalidRequest,
  NotFound,
  Problem,
  Umpire,
  Unauthorized,
  VersionConflict,
  command,
  label,
  readSse,
  type BundleUpload,
  type CommandSpec,
  type StreamMessage,
} from "../src/client.js";
import type { operations } from "../src/api.js";
import type * as T from "../src/types.js";

const BASE = process.env.UMPIRE_URL ?? "http://127.0.0.1:8000";
const CORVETTE = { ruleset: "corvette-command", options: { convoys: 1 } } as const;

// Each method answers its operation's type, taken from ./api.ts (`never` would pass any use: checked exactly here).
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Answers<K extends keyof Umpire> = Umpire[K] extends (...a: never[]) => Promise<infer R> ? R : never;
const typed: [
  Equal<Answers<"root">, T.Root>, Equal<Answers<"rulesets">, T.RulesetList>, Equal<Answers<"ruleset">, T.RulesetInfo>,
  Equal<Answers<"createGame">, T.GameCreated>, Equal<Answers<"listGames">, T.GamesPage>,
  Equal<Answers<"join">, T.SeatCredential>, Equal<Answers<"rotate">, T.SeatCredential>, Equal<Answers<"ticket">, T.Ticket>,
  Equal<Answers<"game">, T.GameSummary>, Equal<Answers<"me">, T.Me>, Equal<Answers<"view">, T.View>,
  Equal<Answers<"events">, T.EventsPage>, Equal<Answers<"rolls">, T.RollsPage>, Equal<Answers<"roll">, T.RollOut>,
  Equal<Answers<"bundle">, T.Bundle>, Equal<Answers<"send">, T.CommandResult>, Equal<Answers<"contributeSeed">, T.CommandResult>,
  Equal<Answers<"reveal">, T.CommandResult>, Equal<Answers<"end">, T.CommandResult>, Equal<Answers<"fork">, T.GameCreated>,
  Equal<Answers<"odds">, T.OddsJob>, Equal<Answers<"job">, T.OddsJob>, Equal<Answers<"followJob">, T.OddsJob>,
  Equal<Answers<"verifyBundle">, T.VerifyReport>, Equal<Answers<"since">, T.Since>,
  Equal<Answers<"live">, T.Health>, Equal<Answers<"ready">, T.Health>, Equal<Answers<"invitation">, T.Invitation>,
  Equal<Answers<"changeDeadlines">, T.CommandResult>, Equal<Answers<"setNotifications">, T.NotificationRegistered>,
  Equal<Answers<"notifications">, T.Notifications>,
  Equal<Answers<"confirmNotifications">, T.Notifications>, Equal<Answers<"deleteNotifications">, null>,
  Equal<Answers<"rotateNotificationSecret">, T.SecretRotated>, Equal<Answers<"testNotifications">, T.PingQueued>,
] = [
  true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
  true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
];
void typed;

// Each operation of the API (by operationId) and a call of the method for it: an operation added to
// openapi/openapi.json (so to ./api.ts) without its method here fails to compile; the test below checks at run time
// that each sends its own HTTP method to its own path, and that the document has no operation this list lacks.
const G = "g-1";
const OPERATIONS: { [K in keyof operations]: (u: Umpire) => unknown } = {
  root: (u) => u.root(),
  live: (u) => u.live(),
  ready: (u) => u.ready(),
  list_rulesets: (u) => u.rulesets(),
  get_ruleset: (u) => u.ruleset("corvette-command"),
  get_ruleset_seats: (u) => u.seats("corvette-command", { two_player: true }),
  create_game: (u) => u.createGame(CORVETTE),
  list_games: (u) => u.listGames(),
  read_invitation: (u) => u.invitation(G, "inv"),
  join_game: (u) => u.join(G, "inv"),
  rotate_token: (u) => u.rotate(G),
  make_ticket: (u) => u.ticket(G),
  get_game: (u) => u.game(G),
  get_me: (u) => u.me(G),
  get_view: (u) => u.view(G, "public"),
  list_events: (u) => u.events(G),
  since: (u) => u.since(G, 0),
  list_rolls: (u) => u.rolls(G),
  get_roll: (u) => u.roll(G, 1),
  get_bundle: (u) => u.bundle(G),
  send_command: (u) => u.send(G, { type: "concede" } as never),
  contribute_seed: (u) => u.contributeSeed(G, { passphrase: "p" }),
  reveal: (u) => u.reveal(G),
  end_game: (u) => u.end(G),
  change_deadlines: (u) => u.changeDeadlines(G, { paused: true }),
  put_notifications: (u) => u.setNotifications(G, "https://hooks.example/umpire"),
  get_notifications: (u) => u.notifications(G),
  confirm_notifications: (u) => u.confirmNotifications(G, "code"),
  delete_notifications: (u) => u.deleteNotifications(G),
  rotate_notification_secret: (u) => u.rotateNotificationSecret(G),
  test_notifications: (u) => u.testNotifications(G),
  fork_game: (u) => u.fork(G, { at: 1 }),
  start_odds: (u) => u.odds(G, { at: 1, games: 1, seed: 1 }),
  get_job: (u) => u.job("j-1"),
  stream_job: (u) => u.followJob("j-1"),
  verify_bundle: (u) => u.verifyBundle({} as BundleUpload),
  stream_events: (u) => u.follow(G, { onMessage: () => {} }),
};

/** `p`, or a failure after `ms` (a deadline, not a pause). */
async function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

test("every operation of openapi/openapi.json has a method of Umpire, which sends its HTTP method to its path", async () => {
  const doc = (process.env.UMPIRE_OPENAPI
    ? JSON.parse(readFileSync(process.env.UMPIRE_OPENAPI, "utf8"))
    : await (await fetch(`${BASE}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const sent: { method: string; path: string }[] = [];
  const recorder = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ method: init?.method ?? "GET", path: new URL(String(input)).pathname });
    return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "put", "post", "delete", "patch", "head", "options", "trace"].includes(method)) continue;
      const id = op.operationId!;
      seen.add(id);
      const call = (OPERATIONS as Record<string, ((u: Umpire) => unknown) | undefined>)[id];
      assert.ok(call, `${method.toUpperCase()} ${path} (${id}) has no method in Umpire`);
      sent.length = 0;
      const out = call(new Umpire("http://umpire.test", null, recorder));
      if (out && typeof out === "object" && "close" in out) (out as ReturnType<Umpire["follow"]>).close();
      await (out && typeof out === "object" && "done" in out ? (out as ReturnType<Umpire["follow"]>).done : out);
      const template = new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`);
      assert.ok(sent.length > 0 && sent[0]!.method === method.toUpperCase() && template.test(sent[0]!.path),
        `${id}: ${method.toUpperCase()} ${path} expected, sent ${JSON.stringify(sent[0])}`);
    }
  }
  assert.deepEqual(Object.keys(OPERATIONS).filter((id) => !seen.has(id)), []); // none the document lacks
  assert.ok(seen.size >= 35);
});

test("errors are typed Problems with the API's code", async () => {
  const api = new Umpire(BASE);
  await assert.rejects(api.game("g-nope"), (e: unknown) => e instanceof NotFound && e.code === "unknown-game" && e.status === 404 &&
    e.detail.length > 0 && e.detail === e.body.detail && e.message === `404 unknown-game: ${e.detail}`);
  await assert.rejects(api.ruleset("no-such-rules"), (e: unknown) => e instanceof NotFound && e.code === "unknown-ruleset");
  await assert.rejects(api.createGame({ ruleset: "corvette-command", options: { convoys: -3 } } as never), (e: unknown) =>
    e instanceof InvalidRequest && e.status === 422 && e.code === "invalid-options");
  const g = await api.createGame(CORVETTE);
  const wrong = new Umpire(BASE, "not-a-token");
  await assert.rejects(wrong.send(g.game_id, { type: "concede" } as never), (e: unknown) => e instanceof Unauthorized && e.code === "invalid-token");
  const captain = new Umpire(BASE, g.seats[0]!.token);
  await assert.rejects(captain.send(g.game_id, { type: "launch_torpedoes" } as never), (e: unknown) =>
    e instanceof IllegalCommand && e instanceof Conflict && e.legal.length > 0 && e.legal[0]!.type.length > 0);
  assert.deepEqual(await captain.awaiting(g.game_id), (await captain.game(g.game_id)).awaiting);
  const spec = (await captain.awaiting(g.game_id))[0]!;
  await assert.rejects(captain.send(g.game_id, command(spec, spec.choices?.[0] ?? {}), { ifMatch: '"7"' }), (e: unknown) =>
    e instanceof VersionConflict && e.status === 412 && e.body.version === 1);
  await assert.rejects(captain.reveal(g.game_id), (e: unknown) => e instanceof Forbidden && e.code === "referee-only");
  await assert.rejects(api.join(g.game_id, "no-such-invitation"), (e: unknown) => e instanceof Forbidden && e.code === "invalid-invitation");
  await assert.rejects(api.listGames({ cursor: "nonsense" }), (e: unknown) => e instanceof InvalidRequest && e.code === "invalid-cursor");
});

test("an answer that is no problem+json (a proxy's page) is a Problem `http-error` with its status", async () => {
  const proxy = (async () => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" })) as typeof fetch;
  const api = new Umpire(BASE, null, proxy);
  await assert.rejects(api.root(), (e: unknown) => e instanceof Problem && e.status === 502 && e.code === "http-error" &&
    e.message.includes("Bad gateway") && e.detail === "<html>Bad gateway</html>");
});

test("the service, its rulesets and the list of games", async () => {
  const api = new Umpire(BASE);
  const root = await api.root();
  assert.ok(root.rulesets.includes("battlefleet-1900") && root.openapi.length > 0);
  const rulesets = await api.rulesets();
  assert.ok(rulesets.some((r) => r.id === "corvette-command"));
  const corvette = await api.ruleset("corvette-command");
  assert.equal(corvette.id, "corvette-command");
  assert.ok(corvette.commands.length > 0 && corvette.views.length > 0);
  const made = [await api.createGame(CORVETTE), await api.createGame(CORVETTE)];
  const first = await api.listGames({ ruleset: "corvette-command", limit: 1 });
  assert.equal(first.games.length, 1);
  assert.equal(first.games[0]!.game_id, made[1]!.game_id); // newest first
  const next = await api.listGames({ ruleset: "corvette-command", limit: 1, cursor: first.next_cursor! });
  assert.equal(next.games[0]!.game_id, made[0]!.game_id);
});

test("command(spec, choice) and the seat's own stream play a corvette convoy to its end; its record reads and verifies", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame(CORVETTE);
  const captain = new Umpire(BASE, g.seats[0]!.token);
  const got: StreamMessage[] = [];
  let opened!: () => void;
  const firstState = new Promise<void>((r) => (opened = r));
  const live = captain.follow(g.game_id, {
    onMessage: (m) => {
      got.push(m);
      if (m.message === "state") opened();
    },
  });
  await firstState; // the stream is open: what follows arrives live
  let awaiting: CommandSpec[] = (await api.game(g.game_id)).awaiting;
  let sent = 0;
  while (awaiting.length) {
    const spec = awaiting[0]!;
    assert.ok(label(spec, 0).length > 0);
    const answer = await captain.send(g.game_id, command(spec, spec.choices?.[0] ?? {}));
    awaiting = answer.awaiting;
    sent++;
  }
  const referee = new Umpire(BASE, g.referee_token);
  const revealed = await referee.reveal(g.game_id);
  await live.done;
  const summary = await api.game(g.game_id);
  assert.equal(revealed.version, summary.version);
  const seqs = got.flatMap((m) => (m.message === "event" ? [m.event.seq] : []));
  assert.deepEqual(seqs, Array.from({ length: summary.version }, (_, i) => i + 1));
  const states = got.filter((m) => m.message === "state");
  assert.ok(sent > 0 && states.length >= 2); // a convoy's length is the fair dice's (14 commands seen)
  const end = got.at(-1)!;
  assert.equal(end.message, "end");
  assert.ok(end.message === "end" && end.status === "revealed" && end.head === summary.head);

  const page = await api.events(g.game_id, 2, 3);
  assert.deepEqual(page.events.map((e) => e.seq), [3, 4, 5]);
  const since = await api.since(g.game_id, 2, 3);
  assert.ok(since.since === 2 && since.upto === 5 && since.more && since.events.length === 3);
  assert.ok(Array.isArray(since.digest));
  const rolls = await api.rolls(g.game_id);
  assert.ok(rolls.rolls.length > 0);
  const k = rolls.rolls[0]!.k;
  assert.deepEqual((await api.roll(g.game_id, k)).faces, rolls.rolls[0]!.faces);
  const name = (await api.ruleset("corvette-command")).views[0]!.name;
  const view = await api.view(g.game_id, name, 2);
  assert.ok(view.at === 2 && view.kind === `corvette-command/${name}`);
  const bundle = await api.bundle(g.game_id);
  const report = await api.verifyBundle(bundle as unknown as BundleUpload); // a served bundle is an upload as is
  assert.equal(report.verdict, "verified");
});

test("a resumed stream sends only what comes after; the public one reads without a token", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({ ruleset: "battlefleet-1900", options: { scenario: "yellow-sea-1904" } });
  const japan = new Umpire(BASE, g.seats[0]!.token);
  await japan.send(g.game_id, command((await japan.game(g.game_id)).awaiting[0]!, {}));
  const got: StreamMessage[] = [];
  let stated = () => {};
  const first = new Promise<void>((resolve) => (stated = resolve));
  const live = api.follow(g.game_id, {
    after: 1,
    onMessage: (m) => {
      got.push(m);
      if (m.message === "state") stated();
    },
  });
  await within(5000, first, "no state message on the stream");
  live.close();
  await live.done;
  const events = got.flatMap((m) => (m.message === "event" ? [m.event] : []));
  assert.ok(events.length > 0 && events[0]!.seq === 2);
  assert.ok(events.every((e) => !("sealed" in e)));
  const state = got.find((m) => m.message === "state");
  assert.ok(state && state.message === "state" && state.waiting_for.includes("russia"));
});

test("open seats: each player joins with an invitation; a rotated token is refused at once; a ticket names its reader", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({ ruleset: "battlefleet-1900", options: { scenario: "yellow-sea-1904" }, open_seats: true });
  assert.ok(g.seats.every((s) => s.token === null && typeof s.invitation === "string"));
  const joined = await api.join(g.game_id, g.seats[1]!.invitation!);
  assert.equal(joined.seat, "russia");
  await assert.rejects(api.join(g.game_id, g.seats[1]!.invitation!), (e: unknown) => e instanceof Forbidden && e.code === "invalid-invitation");
  const russia = new Umpire(BASE, joined.token);
  assert.equal((await russia.me(g.game_id)).seat, "russia");
  const ticket = await russia.ticket(g.game_id);
  assert.ok(ticket.reader === "russia" && ticket.stream.includes(ticket.ticket));
  const fresh = await russia.rotate(g.game_id);
  await assert.rejects(russia.me(g.game_id), (e: unknown) => e instanceof Unauthorized);
  russia.token = fresh.token;
  assert.equal((await russia.me(g.game_id)).seat, "russia");
});

test("a seat's client seed, once and before the first command; the referee ends a game", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame(CORVETTE);
  const captain = new Umpire(BASE, g.seats[0]!.token);
  const seeded = await captain.contributeSeed(g.game_id, { passphrase: "a sea of tests" });
  assert.equal(seeded.version, 2);
  await assert.rejects(captain.contributeSeed(g.game_id, { client_seed: "ab".repeat(32) }), (e: unknown) =>
    e instanceof Conflict && e.code === "seed-already-contributed");
  const ended = await new Umpire(BASE, g.referee_token).end(g.game_id);
  assert.deepEqual(ended.awaiting, []);
  assert.equal((await api.game(g.game_id)).status, "over");
  await assert.rejects(captain.send(g.game_id, { type: "start" } as never), (e: unknown) => e instanceof Conflict && e.code === "game-over");
});

test("a fork from a position, and the odds from it as a job followed to its result", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame(CORVETTE);
  const captain = new Umpire(BASE, g.seats[0]!.token);
  assert.deepEqual(await captain.awaiting(g.game_id), (await captain.game(g.game_id)).awaiting);
  const spec = (await captain.awaiting(g.game_id))[0]!;
  const first = await captain.send(g.game_id, command(spec, spec.choices?.[0] ?? {}));
  const fork = await api.fork(g.game_id, { at: first.version });
  assert.notEqual(fork.game_id, g.game_id);
  const forked = await api.game(fork.game_id);
  assert.ok(forked.version === 1 && forked.status === "open" && forked.awaiting.length > 0); // its own log: a genesis
  const job = await api.odds(g.game_id, { at: first.version, games: 2, seed: 7 });
  assert.equal(job.games, 2);
  const progress: number[] = [];
  const done = await api.followJob(job.job_id, (p) => progress.push(p.done));
  assert.equal(done.status, "done");
  assert.ok(done.result !== null && progress.every((d) => d <= 2));
  assert.deepEqual((await api.job(job.job_id)).result, done.result);
  // a seat's own odds (the game is not over): its job, and its stream, read with that seat's token only
  const own = await captain.odds(g.game_id, { at: first.version, games: 2, seed: 7 });
  await assert.rejects(api.job(own.job_id), (e: unknown) => e instanceof NotFound && e.code === "unknown-job");
  assert.equal((await captain.followJob(own.job_id)).status, "done");
});

test("readSse gives each message's data and its event name (null when unnamed), across chunk boundaries", async () => {
  const text = "retry: 2000\n\n: keep-alive\n\ndata: {\"a\":1}\n\nevent: progress\ndata: x\ndata: y\n\nid: 3\ndata: z\r\n\r\n";
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.slice(i, i + 5));
      c.close();
    },
  });
  const got: [string, string | null][] = [];
  await readSse(body, (data, event) => got.push([data, event]));
  assert.deepEqual(got, [['{"a":1}', null], ["x\ny", "progress"], ["z", null]]);
});

test("follow() stops, closed with the reason, on a refusal a retry would repeat (an `after` past the game's version)", { timeout: 20_000 }, async () => {
  const made = await new Umpire(BASE).createGame(CORVETTE);
  const seen: [string, string | undefined][] = [];
  const live = new Umpire(BASE).follow(made.game_id, { after: 999, onMessage: () => {}, onStatus: (s, d) => seen.push([s, d]) });
  await live.done; // before: it retried every second, "reconnecting", for good
  assert.deepEqual(seen.map(([s]) => s), ["closed"]);
  assert.match(seen[0]![1]!, /beyond this game's version/);
});

test("an invitation read spends nothing; the referee changes, pauses and extends the turn clock", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({
    ruleset: "battlefleet-1900", options: { scenario: "yellow-sea-1904" }, open_seats: true,
    deadlines: { turn_seconds: 86400, on_expiry: "default" },
  });
  const offer = await api.invitation(g.game_id, g.seats[1]!.invitation!);
  assert.ok(offer.game_id === g.game_id && offer.seat === "russia" && offer.umpired === true);
  assert.equal(offer.ruleset.id, "battlefleet-1900");
  await api.invitation(g.game_id, g.seats[1]!.invitation!); // read again: still unspent
  const russia = new Umpire(BASE, (await api.join(g.game_id, g.seats[1]!.invitation!)).token);
  await assert.rejects(api.invitation(g.game_id, g.seats[1]!.invitation!), (e: unknown) =>
    e instanceof Forbidden && e.code === "invalid-invitation");
  await api.join(g.game_id, g.seats[0]!.invitation!); // every seat taken: the clock runs

  const referee = new Umpire(BASE, g.referee_token);
  const paused = await referee.changeDeadlines(g.game_id, { paused: true });
  assert.ok(paused.events.some((e) => e.type === "DeadlinesChanged"));
  assert.ok((await api.game(g.game_id)).deadlines?.paused === true);
  const changed = await referee.changeDeadlines(g.game_id, { paused: false, turn_seconds: 3600, extend: { russia: 60 } });
  assert.equal(changed.version, paused.version + 1);
  const clock = (await api.game(g.game_id)).deadlines!;
  assert.ok(clock.paused === false && clock.turn_seconds === 3600 && Object.keys(clock.deadline_at).length > 0);
  await assert.rejects(russia.changeDeadlines(g.game_id, { paused: true }), (e: unknown) =>
    e instanceof Forbidden && e.code === "referee-only");
  await assert.rejects(referee.changeDeadlines(g.game_id, {}), (e: unknown) =>
    e instanceof InvalidRequest && e.code === "invalid-deadlines");
  const plain = await api.createGame(CORVETTE);
  await assert.rejects(new Umpire(BASE, plain.referee_token).changeDeadlines(plain.game_id, { paused: true }), (e: unknown) =>
    e instanceof Conflict && e.code === "no-deadlines");
});

test("a reader's webhook: registered (PUT), pinged and signed with its secret, read, rotated, removed (DELETE)", async () => {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const waiting: (() => void)[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.end();
      waiting.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r)); // UMPIRE_WEBHOOK_ALLOW=127.0.0.1
  const delivered = (n: number) => within(10_000, new Promise<void>(function check(r) {
    if (got.length >= n) r();
    else waiting.push(() => check(r));
  }), `delivery ${n} never arrived`);
  const signed = (secret: string, m: { headers: IncomingHttpHeaders; body: string }) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const text = `${m.headers["webhook-id"]}.${m.headers["webhook-timestamp"]}.${m.body}`;
    return `v1,${createHmac("sha256", key).update(text).digest("base64")}`;
  };
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/umpire`;
    const g = await new Umpire(BASE).createGame(CORVETTE);
    const captain = new Umpire(BASE, g.seats[0]!.token);
    await assert.rejects(captain.notifications(g.game_id), (e: unknown) => e instanceof NotFound && e.code === "no-notifications");
    await assert.rejects(captain.setNotifications(g.game_id, "http://10.1.2.3/"), (e: unknown) =>
      e instanceof InvalidRequest && e.code === "webhook-refused");
    const registered = await captain.setNotifications(g.game_id, url);
    const secret = registered.secret;
    assert.ok(secret !== null && registered.confirmed, "a webhook is signed, and has nothing to confirm");
    const hook = { ...registered, secret };
    assert.ok(hook.reader === "captain" && hook.url === url && hook.secret.startsWith("whsec_"));
    await assert.rejects(captain.confirmNotifications(g.game_id, "code"), (e: unknown) =>
      e instanceof InvalidRequest && e.code === "webhook-refused");

    const ping = await captain.testNotifications(g.game_id);
    await delivered(1);
    const first = got[0]!;
    assert.equal(first.headers["webhook-id"], ping.id);
    assert.equal(JSON.parse(first.body).type, "ping");
    assert.deepEqual(String(first.headers["webhook-signature"]).split(" "), [signed(hook.secret, first)]);
    const read = await captain.notifications(g.game_id);
    assert.ok(read.reader === "captain" && read.url === url);
    assert.ok(read.deliveries.some((d) => d.id === ping.id && d.kind === "ping"));

    const rotated = await captain.rotateNotificationSecret(g.game_id);
    assert.ok(rotated.secret !== hook.secret && rotated.old_secret_signs_until.length > 0);
    await captain.testNotifications(g.game_id);
    await delivered(2);
    const second = got[1]!; // the new secret's signature and, for a day, the old one's
    assert.deepEqual(String(second.headers["webhook-signature"]).split(" "), [signed(rotated.secret, second), signed(hook.secret, second)]);

    assert.equal(await captain.deleteNotifications(g.game_id), null);
    await assert.rejects(captain.notifications(g.game_id), (e: unknown) => e instanceof NotFound && e.code === "no-notifications");
  } finally {
    receiver.close();
  }
});

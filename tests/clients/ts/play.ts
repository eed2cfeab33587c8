/**
 * A corvette-command convoy played through a TypeScript client generated from openapi/openapi.json
 * (openapi-typescript for the types, openapi-fetch for the calls), like README's curl loop: create a game, send
 * the first choice `awaiting` offers until nothing is awaited, read the ship log typed by its `kind`, reveal the
 * server seed, download the bundle and have the server verify it. tests/test_clients.py generates `api.ts` beside
 * this file (`openapi-typescript openapi.json --default-non-nullable false -o api.ts`), compiles both with `tsc`
 * (strict) and runs the result: `node play.js <base URL>`.
 * The last line printed is a JSON summary the test checks against the server.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Schemas = components["schemas"];

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error("usage: node play.js <base URL of a running server>");
const api = createClient<paths>({ baseUrl });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The body of a 2xx answer, or an error naming the step, the status and the problem the server sent. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, step: string): T {
  if (answer.data === undefined) {
    throw new Error(`${step}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/** The command a UI sends when the player picks the first choice: `{type, ...choice}` (README's jq filter).
 * TypeScript cannot pair a spec variant with its command variant by itself, hence the one cast. */
function firstChoice(spec: Schemas["CommandSpec"]): Schemas["Command"] {
  return { type: spec.type, ...(spec.choices?.[0] ?? {}) } as Schemas["Command"];
}

const body: Schemas["CreateGameCorvetteCommand"] = { ruleset: "corvette-command", options: { convoys: 1 } };
const created = ok(await api.POST("/games", { body }), "POST /games");
const game_id = created.game_id;
const path = { path: { game_id } };
const captain = created.seats.find((s) => s.seat === "captain")?.token;
if (!captain) throw new Error(`no captain's token among ${JSON.stringify(created.seats)}`);

let next = ok(await api.GET("/games/{game_id}", { params: path }), "GET /games/{id}").awaiting[0];
const types = new Map<string, number>();
let commands = 0;
let last: Schemas["CommandResult"] | undefined;
while (next) {
  if (++commands > 5000) throw new Error("the convoy did not end within 5000 commands");
  const command = firstChoice(next);
  last = ok(
    await api.POST("/games/{game_id}/commands", { params: path, headers: bearer(captain), body: command }),
    `command ${command.type}`,
  );
  for (const e of last.events) types.set(e.type, (types.get(e.type) ?? 0) + 1);
  next = last.awaiting[0]; // the answer carries what is legal now: no extra read
}
// Events are a union discriminated by `type`: narrowing gives that event's own `data`.
const ended = last?.events.find((e): e is Schemas["GameEndedEvent"] => e.type === "GameEnded");
if (!ended) throw new Error("the last command did not end the game");

const summary = ok(await api.GET("/games/{game_id}", { params: path }), "GET /games/{id}");
if (summary.status !== "over") throw new Error(`expected the game over, it is ${summary.status}`);

// Views are a union discriminated by `kind`.
const view = ok(
  await api.GET("/games/{game_id}/views/{view}", { params: { path: { game_id, view: "ship-log" } } }),
  "GET ship-log",
);
if (view.kind !== "corvette-command/ship-log") throw new Error(`expected the ship log, got ${view.kind}`);
const shipLog: Schemas["ShipLog"] = view.data; // narrowed by `kind`: the corvette sheet's own fields

ok(await api.POST("/games/{game_id}/reveal", { params: path, headers: bearer(created.referee_token) }), "reveal");
const bundle: Schemas["Bundle"] = ok(await api.GET("/games/{game_id}/bundle", { params: path }), "GET bundle");
const report = ok(await api.POST("/bundles/verify", { body: bundle }), "POST /bundles/verify");

console.log(
  JSON.stringify({
    client: "typescript",
    game_id,
    commands,
    version: summary.version,
    ended: ended.data,
    ship_log: {
      kind: view.kind,
      at: view.at,
      over: shipLog.now.over,
      convoys_done: shipLog.now.convoys_done,
      hull_damage: shipLog.escorts.map((e) => [e.seat, e.hull_damage]),
    },
    bundle_events: bundle.events.length,
    head: bundle.head,
    verdict: report.verdict,
    event_types: Object.fromEntries([...types.entries()].sort()),
  }),
);

/** The client against a real server (UMPIRE_URL; tests/test_client_ts.py starts one): node --test. */
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  IllegalCommand,
  Problem,
  Umpire,
  Unauthorized,
  command,
  label,
  type CommandSpec,
  type StreamMessage,
} from "../src/client.js";

const BASE = process.env.UMPIRE_URL ?? "http://127.0.0.1:8000";

test("errors are typed Problems with the API's code", async () => {
  const api = new Umpire(BASE);
  await assert.rejects(api.game("g-nope"), (e: unknown) => e instanceof Problem && e.code === "unknown-game" && e.status === 404);
  const g = await api.createGame({ ruleset: "corvette-command", options: { convoys: 1 } });
  const wrong = new Umpire(BASE, "not-a-token");
  await assert.rejects(wrong.send(g.game_id, { type: "concede" } as never), (e: unknown) => e instanceof Unauthorized && e.code === "invalid-token");
  const captain = new Umpire(BASE, g.seats[0]!.token);
  await assert.rejects(captain.send(g.game_id, { type: "launch_torpedoes" } as never), (e: unknown) =>
    e instanceof IllegalCommand && e.legal.length > 0 && e.legal[0]!.type.length > 0);
});

test("command(spec, choice) and the seat's own stream play a corvette convoy to its end", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({ ruleset: "corvette-command", options: { convoys: 1 } });
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
  await referee.request("POST", `/games/${g.game_id}/reveal`);
  await live.done;
  const summary = await api.game(g.game_id);
  const seqs = got.flatMap((m) => (m.message === "event" ? [m.event.seq] : []));
  assert.deepEqual(seqs, Array.from({ length: summary.version }, (_, i) => i + 1));
  const states = got.filter((m) => m.message === "state");
  assert.ok(sent > 0 && states.length >= 2); // a convoy's length is the fair dice's (14 commands seen)
  const end = got.at(-1)!;
  assert.equal(end.message, "end");
  assert.ok(end.message === "end" && end.status === "revealed" && end.head === summary.head);
});

test("a resumed stream sends only what comes after; the public one reads without a token", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({ ruleset: "battlefleet-1900", options: { scenario: "yellow-sea-1904" } });
  const japan = new Umpire(BASE, g.seats[0]!.token);
  await japan.send(g.game_id, command((await japan.game(g.game_id)).awaiting[0]!, {}));
  const got: StreamMessage[] = [];
  const live = api.follow(g.game_id, { after: 1, onMessage: (m) => got.push(m) });
  for (let i = 0; i < 50 && !got.some((m) => m.message === "state"); i++) await new Promise((r) => setTimeout(r, 100));
  live.close();
  await live.done;
  const events = got.flatMap((m) => (m.message === "event" ? [m.event] : []));
  assert.ok(events.length > 0 && events[0]!.seq === 2);
  assert.ok(events.every((e) => !("sealed" in e)));
  const state = got.find((m) => m.message === "state");
  assert.ok(state && state.message === "state" && state.waiting_for.includes("russia"));
});

test("open seats: each player joins with an invitation; a rotated token is refused at once", async () => {
  const api = new Umpire(BASE);
  const g = await api.createGame({ ruleset: "battlefleet-1900", options: { scenario: "yellow-sea-1904" }, open_seats: true });
  assert.ok(g.seats.every((s) => s.token === null && typeof s.invitation === "string"));
  const joined = await api.join(g.game_id, g.seats[1]!.invitation!);
  assert.equal(joined.seat, "russia");
  const russia = new Umpire(BASE, joined.token);
  assert.equal((await russia.me(g.game_id)).seat, "russia");
  const fresh = await russia.rotate(g.game_id);
  await assert.rejects(russia.me(g.game_id), (e: unknown) => e instanceof Unauthorized);
  russia.token = fresh.token;
  assert.equal((await russia.me(g.game_id)).seat, "russia");
});

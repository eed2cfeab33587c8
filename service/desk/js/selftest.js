// @ts-check
// The desk checks itself: the spec's dice vectors (spec/dice_vectors.json, a copy served beside the page)
// through this page's own SHA-256, HMAC and umpire1 code.

import { hex, sha256, utf8 } from "./crypto.js";
import { parse } from "./json.js";
import { applyShuffle, gameSeed, roller, serverCommit, shuffleSides } from "./umpire1.js";

/**
 * [{name, ok, got, want}] for every vector; `digest` (20,000 rolls) takes a second or two.
 * @param {any} V the vectors (tests/dice_vectors.json's shape)
 * @param {{digest?: boolean}} [options]
 */
export async function runVectors(V, { digest = true } = {}) {
  /** @type {{name: string, ok: boolean, got: unknown, want: unknown}[]} */
  const out = [];
  /** @param {string} name @param {unknown} got @param {unknown} want */
  const add = (name, got, want) => out.push({ name, ok: JSON.stringify(got) === JSON.stringify(want), got, want });
  add("server_commit = SHA-256(server_seed)", await serverCommit(V.server_seed), V.server_commit);
  const gs = await gameSeed(V.server_seed, V.game_id, V.client_seeds, null);
  add("game_seed", hex(gs), V.game_seed);
  add(
    "game_seed with the beacon",
    hex(await gameSeed(V.server_seed, V.game_id, V.client_seeds, V.beacon)),
    V.game_seed_with_beacon,
  );
  const roll = await roller(gs);
  add("block(0, 0)", hex(await roll.block("0", 0)), V.block_0_0);
  for (const r of V.rolls) add(`roll k=${r.k} of ${r.sides.length} dice`, await roll.faces(r.k, r.sides), r.faces);
  add(
    "shuffle of 10 at k=10",
    applyShuffle([...Array(10).keys()], await roll.faces(10, shuffleSides(10))),
    V.shuffle_k10_range10,
  );
  if (digest) {
    const parts = [];
    for (let k = 0; k < 20000; k++) parts.push(JSON.stringify(await roll.faces(k, [6, 6, 20, 3])));
    const d = V.digest_k0_19999_sides_6_6_20_3;
    add("SHA-256 of the faces of 20,000 rolls", hex(await sha256(utf8("[" + parts.join(",") + "]"))), d.sha256 ?? d);
  }
  return out;
}

export async function loadVectors() {
  const res = await fetch(new URL("../dice_vectors.json", import.meta.url));
  return parse(await res.text());
}

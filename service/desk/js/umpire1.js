// @ts-check
// The umpire1 dice scheme (docs/spec/dice.md), written again from the spec: a second implementation, so a
// referee need not trust the server's Python to know a roll is what the seed gives.

import { hex, hmacKey, sha256, unhex, utf8 } from "./crypto.js";

/**
 * @typedef {{lane: number, x: number, sides: number, limit: number, ok: boolean, face: number | null}} Lane
 * @typedef {{block: number, hex: string, lanes: Lane[]}} Block a block of a roll and every lane read from it
 */

const TWO_32 = 2 ** 32;

/** The message whose HMAC under the server seed is the game seed (docs/spec/dice.md, Derivation 1). */
/** @param {string} gameId @param {string[]} clientSeeds @param {string | null | undefined} beacon */
export function seedMessage(gameId, clientSeeds, beacon) {
  return "umpire1:seed:" + gameId + clientSeeds.map((c) => ":" + c).join("") + (beacon == null ? "" : ":" + beacon);
}

/** @param {number | string} k @param {number} j */
export function blockMessage(k, j) {
  return `umpire1:roll:${k}:${j}`;
}

/** SHA-256 of the server seed, as GameCreated publishes it. @param {string} serverSeedHex */
export async function serverCommit(serverSeedHex) {
  return hex(await sha256(unhex(serverSeedHex)));
}

/** game_seed as bytes.
 * @param {string} serverSeedHex @param {string} gameId @param {string[]} clientSeeds @param {string | null | undefined} beacon */
export async function gameSeed(serverSeedHex, gameId, clientSeeds, beacon) {
  const key = await hmacKey(unhex(serverSeedHex));
  return key.sign(utf8(seedMessage(gameId, clientSeeds, beacon)));
}

/** A roller for one game seed: the HMAC key is imported once for all its blocks. @param {import("./crypto.js").Bytes} gameSeedBytes */
export async function roller(gameSeedBytes) {
  const key = await hmacKey(gameSeedBytes);
  /** @param {string} kText @param {number} j */
  const block = (kText, j) => key.sign(utf8(blockMessage(kText, j)));
  return {
    block,
    /**
     * The faces of roll k (docs/spec/dice.md 3-5); `trace` gets every lane read, accepted or not.
     * @param {number} k @param {number[]} sides @param {Block[] | null} [trace]
     */
    async faces(k, sides, trace = null) {
      /** @type {number[]} */
      const faces = [];
      let j = 0;
      /** @type {number[]} */
      let lanes = [];
      let pos = 0;
      for (const s of sides) {
        if (!(s >= 1 && s <= TWO_32)) throw new RangeError(`a die has 1..2^32 sides, not ${s}`);
        const limit = TWO_32 - (TWO_32 % s);
        for (;;) {
          if (pos === lanes.length) {
            const b = await block(String(k), j);
            const v = new DataView(b.buffer, b.byteOffset, 32);
            lanes = Array.from({ length: 8 }, (_, i) => v.getUint32(i * 4));
            if (trace) trace.push({ block: j, hex: hex(b), lanes: [] });
            j += 1;
            pos = 0;
          }
          const x = lanes[pos];
          pos += 1;
          const ok = x < limit;
          const face = ok ? (x % s) + 1 : null;
          if (trace) trace[trace.length - 1].lanes.push({ lane: pos - 1, x, sides: s, limit, ok, face });
          if (face !== null) {
            faces.push(face);
            break;
          }
        }
      }
      return faces;
    },
  };
}

/** The dice of a shuffle of n items: d(n), d(n-1), …, d2. @param {number} n */
export function shuffleSides(n) {
  return Array.from({ length: Math.max(n - 1, 0) }, (_, i) => n - i);
}

/** Fisher-Yates from the top with the faces of a shuffle roll (docs/spec/dice.md 6).
 * @template T @param {T[]} items @param {number[]} faces */
export function applyShuffle(items, faces) {
  const a = [...items];
  if (faces.length !== Math.max(a.length - 1, 0)) throw new RangeError("a shuffle of n items takes n-1 dice");
  for (let idx = 0, i = a.length - 1; i > 0; idx++, i--) {
    const j = faces[idx] - 1;
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** @param {unknown} s */
const shq = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";

/**
 * The openssl command lines that reproduce a roll by hand, each with what it should print.
 * `seed` is {serverSeed, commit, gameId, clientSeeds, beacon, gameSeedHex}; `blocks` the trace's blocks.
 * @param {{serverSeed: string, commit: string, gameId: string, clientSeeds: string[], beacon: string | null,
 *   gameSeedHex: string}} seed
 * @param {number} k
 * @param {Block[]} blocks
 */
export function opensslLines(seed, k, blocks) {
  const lines = [
    {
      what: "the server's commitment: SHA-256 of the revealed server seed (published in GameCreated before any roll)",
      cmd: `printf '%s' ${seed.serverSeed} | xxd -r -p | openssl dgst -sha256`,
      expect: seed.commit,
    },
    {
      what: "the game seed: HMAC-SHA256 keyed with the server seed over the game id and the locked client seeds",
      cmd: `printf '%s' ${shq(seedMessage(seed.gameId, seed.clientSeeds, seed.beacon))} | openssl dgst -sha256 -mac HMAC -macopt hexkey:${seed.serverSeed}`,
      expect: seed.gameSeedHex,
    },
  ];
  for (const b of blocks) {
    lines.push({
      what: `block(${k}, ${b.block}): HMAC-SHA256 keyed with the game seed; read it as eight 8-hex-digit lanes`,
      cmd: `printf '%s' ${shq(blockMessage(k, b.block))} | openssl dgst -sha256 -mac HMAC -macopt hexkey:${seed.gameSeedHex}`,
      expect: b.hex,
    });
  }
  return lines;
}

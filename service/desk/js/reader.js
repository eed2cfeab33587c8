// @ts-check
// Whom the desk reads a game's views as (the bundle is one file for every reader): the public, the referee, or one
// seat. The tokens are kept in this tab only (sessionStorage, per game: forgotten when the tab closes) and sent only
// to this server. With the referee's token in the tab the desk reads as the referee unless told otherwise.

/** @type {Record<"referee" | "seat" | "seatName" | "readAs", (id: string) => string>} */
const KEY = {
  referee: (id) => `umpire-desk-referee-token:${id}`,
  seat: (id) => `umpire-desk-seat-token:${id}`,
  seatName: (id) => `umpire-desk-seat-name:${id}`,
  readAs: (id) => `umpire-desk-read-as:${id}`,
};

/** @param {string} id */
export function refereeToken(id) {
  return sessionStorage.getItem(KEY.referee(id));
}

/** The seat token kept for this game: {token, seat} or null. @param {string} id */
export function seatToken(id) {
  const token = sessionStorage.getItem(KEY.seat(id));
  return token ? { token, seat: sessionStorage.getItem(KEY.seatName(id)) || "a seat" } : null;
}

/** @param {string} id @param {string} token */
export function keepRefereeToken(id, token) {
  sessionStorage.setItem(KEY.referee(id), token);
}

/** @param {string} id @param {string} token @param {string} seat */
export function keepSeatToken(id, token, seat) {
  sessionStorage.setItem(KEY.seat(id), token);
  sessionStorage.setItem(KEY.seatName(id), seat);
}

/** @param {"referee" | "seat"} kind @param {string} id */
export function forget(kind, id) {
  sessionStorage.removeItem(KEY[kind](id));
  if (kind === "seat") sessionStorage.removeItem(KEY.seatName(id));
}

/** Choose whom to read as; a choice without its token falls back. @param {string} id @param {ReadAs} as */
export function chooseReadAs(id, as) {
  sessionStorage.setItem(KEY.readAs(id), as);
}

/**
 * Whom reads go out as now.
 * @typedef {"public" | "referee" | "seat"} ReadAs
 * @typedef {{as: ReadAs, seat: string | null, token: string | null}} Reader
 * @param {string} id
 * @returns {Reader}
 */
export function reader(id) {
  const referee = refereeToken(id);
  const seat = seatToken(id);
  const want = sessionStorage.getItem(KEY.readAs(id));
  const as =
    want === "public"
      ? "public"
      : want === "seat" && seat
        ? "seat"
        : referee
          ? "referee"
          : seat
            ? "seat"
            : "public";
  if (as === "referee") return { as, seat: null, token: referee };
  if (as === "seat" && seat) return { as, seat: seat.seat, token: seat.token };
  return { as, seat: null, token: null };
}

/** What the page says about whom it reads as (one plain sentence). @param {Reader} r */
export function readerText(r) {
  if (r.as === "referee") return "Referee view: everything, sealed records included.";
  if (r.as === "seat")
    return `${r.seat}'s view: what ${r.seat} may see — its own sealed orders included, not the other side's.`;
  return "Public view: what anyone may see; sealed records and hidden positions stay hidden.";
}

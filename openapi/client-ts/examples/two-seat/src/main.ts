/**
 * Two people play Battlefleet 1900 in their browsers. One creates the battle with open seats and gets an invitation
 * link per seat; each player opens one and joins (the seat's token stays in that tab). Each tab then follows its
 * own seat's stream and draws every decision from its descriptor with `decisionForm`: no rule is known here.
 */
import { Problem, Umpire, command, type CommandSpec, type StreamMessage } from "@naval-umpire/client";
import { decisionForm, known } from "@naval-umpire/client/decisions";

const API = new URLSearchParams(location.search).get("api") ?? "http://127.0.0.1:8000";
const app = document.querySelector<HTMLElement>("#app")!;
const statusLine = document.querySelector<HTMLElement>("#status")!;
const errorLine = document.querySelector<HTMLElement>("#error")!;

interface Held {
  seat: string;
  token: string;
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

function fail(e: unknown): void {
  errorLine.hidden = false;
  errorLine.textContent =
    e instanceof Problem ? `${e.body.title}: ${e.body.detail}` : `Could not reach the server at ${API}: ${String(e)}`;
}

function cleared(): void {
  errorLine.hidden = true;
}

const tokenKey = (game: string) => `naval-umpire:${game}`;

function route(): void {
  cleared();
  const p = new URLSearchParams(location.hash.slice(1));
  const game = p.get("game");
  const invitation = p.get("invitation");
  if (!game) return home();
  const held = sessionStorage.getItem(tokenKey(game));
  if (held) return play(game, JSON.parse(held) as Held);
  if (invitation) return invited(game, invitation);
  app.replaceChildren(h("p", {}, "This tab holds no seat of this game: open your invitation link."));
}

function home(): void {
  const create = h("button", { id: "create", type: "button" }, "Create a battle (the Yellow Sea, 1904)");
  const made = h("div", { id: "made" });
  create.addEventListener("click", async () => {
    create.disabled = true;
    try {
      const g = await new Umpire(API).createGame({
        ruleset: "battlefleet-1900",
        options: { scenario: "yellow-sea-1904" },
        open_seats: true,
      });
      const links = g.seats.map((s) => {
        const hash = new URLSearchParams({ game: g.game_id, invitation: s.invitation ?? "" });
        const href = `${location.origin}${location.pathname}${location.search}#${hash}`;
        return h("li", {}, h("a", { class: "invitation", "data-seat": s.seat, href }, `Play as ${s.seat}`));
      });
      made.replaceChildren(
        h("p", {}, `Battle ${g.game_id} created. Open one link yourself and send the other to your opponent:`),
        h("ul", {}, ...links),
      );
      statusLine.textContent = "Each invitation works once.";
    } catch (e) {
      fail(e);
      create.disabled = false;
    }
  });
  app.replaceChildren(h("p", {}, `The server: ${API}`), create, made);
}

function invited(game: string, invitation: string): void {
  const join = h("button", { id: "join", type: "button" }, "Join the game");
  join.addEventListener("click", async () => {
    join.disabled = true;
    try {
      const seat = await new Umpire(API).join(game, invitation);
      sessionStorage.setItem(tokenKey(game), JSON.stringify({ seat: seat.seat, token: seat.token }));
      location.hash = new URLSearchParams({ game }).toString(); // the invitation is spent: off the address bar
    } catch (e) {
      fail(e);
      join.disabled = false;
    }
  });
  app.replaceChildren(h("p", {}, `You are invited to battle ${game}.`), join);
}

function play(game: string, held: Held): void {
  const me = new Umpire(API, held.token);
  const decisions = h("div", { id: "decisions" });
  const log = h("ol", { id: "log" });
  const turn = h("span", { id: "turn" }, "0");
  const version = h("span", { id: "version" }, "0");
  app.replaceChildren(
    h("h2", { id: "seat", "data-seat": held.seat }, `You command ${held.seat}`),
    h("p", {}, "Turn ", turn, ", version ", version),
    decisions,
    h("h3", {}, "Events"),
    log,
  );
  let shown = 0; // the version whose decisions are drawn: an older answer never redraws over a newer one

  const draw = (v: number, awaiting: CommandSpec[], waitingFor: string[]) => {
    if (v < shown) return;
    shown = v;
    version.textContent = String(v);
    decisions.inert = false;
    if (!awaiting.length) {
      const who = waitingFor.length ? waitingFor.join(" and ") : "nobody";
      decisions.replaceChildren(h("p", { id: "waiting" }, `Waiting for ${who}.`));
      return;
    }
    decisions.replaceChildren(...awaiting.map(section));
  };

  const send = async (entry: CommandSpec, args: Record<string, unknown>) => {
    decisions.inert = true; // one command at a time: the next decisions come with its answer
    try {
      const answer = await me.send(game, command(entry, args));
      cleared();
      draw(answer.version, answer.awaiting, answer.waiting_for);
    } catch (e) {
      fail(e);
      decisions.inert = false;
    }
  };

  const section = (entry: CommandSpec): HTMLElement => {
    const box = h("section", { class: "decision", "data-type": entry.type });
    box.append(h("h3", {}, entry.type.replaceAll("_", " ")));
    if (entry.description) box.append(h("p", {}, entry.description));
    box.append(decisionForm(entry, { onSubmit: (args) => void send(entry, args) }));
    if (!known(entry.ui) && !entry.choices?.length) box.append(advanced(entry, send));
    return box;
  };

  const onMessage = (m: StreamMessage) => {
    if (m.message === "event") {
      const data = m.event.data as { turn?: unknown };
      if (m.event.type === "TurnStarted" && typeof data.turn === "number") turn.textContent = String(data.turn);
      log.prepend(h("li", { value: String(m.event.seq) }, m.event.type));
    } else if (m.message === "state") {
      draw(m.version, m.awaiting, m.waiting_for);
      statusLine.textContent = m.status === "open" ? "The battle is on." : "The battle is over.";
    } else {
      decisions.replaceChildren(h("p", { id: "over" }, `The battle is over (${m.status}).`));
    }
  };
  me.follow(game, {
    onMessage,
    onStatus: (s, detail) => {
      if (s === "reconnecting") statusLine.textContent = `Reconnecting: ${detail ?? ""}`;
    },
  });
}

/** A decision of a kind this client does not draw, with no listed choices: its arguments as JSON. */
function advanced(entry: CommandSpec, send: (e: CommandSpec, args: Record<string, unknown>) => Promise<void>): HTMLElement {
  const text = h("textarea", { class: "advanced-args" });
  text.value = JSON.stringify(entry.default ?? {}, null, 1);
  const go = h("button", { type: "button", class: "advanced-send" }, "Send these arguments");
  go.addEventListener("click", () => {
    try {
      void send(entry, JSON.parse(text.value) as Record<string, unknown>);
    } catch (e) {
      fail(e);
    }
  });
  return h("details", {}, h("summary", {}, "Advanced: the arguments as JSON"), text, go);
}

window.addEventListener("hashchange", route);
route();

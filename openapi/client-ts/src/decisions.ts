/**
 * Every decision by click (docs/api.md "Decision descriptors"): what a UI that knows no ruleset needs to draw an
 * `awaiting` entry and to turn what a player filled in into the command's arguments. Framework-free; the types are
 * the generated ones (./api.ts), so a descriptor the server changes shape of is a compile error here.
 *
 *   if (entry.choices?.length || known(entry.ui)) node.append(decisionForm(entry, { onSubmit: (args) => send(args) }));
 *   else ... the advanced JSON form (a kind this client does not know yet: never guess at it)
 *
 * Pure helpers, for a UI that draws its own controls:
 *   const draft = initial(ui);   // what a first-time player starts from: the defaults, else the least legal values
 *   ...the UI edits the draft (one slot per control, in the controls' order)...
 *   problem(ui, draft);          // why the draft cannot be sent yet (a pick short of its min, a budget
 *                                // overspent), else null
 *   budgetsLeft(ui, draft);      // what is left of each of the form's budgets, by id (negative: overspent)
 *   args(ui, draft);             // the command's arguments: send `{type: entry.type, ...args(ui, draft)}`
 */
import type { components } from "./api.js";

type Schemas = components["schemas"];

// ---- the descriptor types (derived from the generated unions, so they follow the OpenAPI document's names) ----

export type Form = Schemas["Form"];
export type MoveForm = Schemas["MoveForm"];
export type FireForm = Schemas["FireForm"];
export type StepsForm = Schemas["StepsForm"];
export type SidesForm = Schemas["SidesForm"];
/** The top of a descriptor: a `form` of controls, or one of the table-drawing forms. */
export type Ui = Form | MoveForm | FireForm | StepsForm | SidesForm;
export type Control = Form["controls"][number];
export type Select = Extract<Control, { kind: "select" }>;
export type Pick = Extract<Control, { kind: "pick" }>;
export type NumberControl = Extract<Control, { kind: "number" }>;
export type Text = Extract<Control, { kind: "text" }>;
export type Items = Extract<Control, { kind: "items" }>;
export type Repeat = Extract<Control, { kind: "repeat" }>;
export type Group = Extract<Control, { kind: "group" }>;
export type Variants = Extract<Control, { kind: "variants" }>;
export type Option = Select["options"][number];
export type Budget = NonNullable<Form["budgets"]>[number];
/** What a choice adds to each named budget (`Option`, `Item`, `Variant`; a `Number` per unit). */
export type Spend = Record<string, number>;
/** What is left of each of a form's budgets, by id: a choice fits while its `spend` is within it. */
export type Purse = Record<string, number>;
export type Item = Items["items"][number];
export type Variant = Variants["variants"][number];
export type DivisionMove = MoveForm["divisions"][number];
export type TurnBand = DivisionMove["turns"][number];
export type Firer = FireForm["ships"][number];
export type Mount = Firer["mounts"][number];
export type FireTarget = FireForm["targets"][number];
export type BoatSteps = StepsForm["boats"][number];
export type BoatSides = SidesForm["boats"][number];
export type Scalar = string | number | boolean | null;
export type Args = Record<string, unknown>;

/** An `awaiting` entry as far as drawing it goes (every CommandSpec of the API is one). */
export interface Entry {
  type: string;
  choices?: Args[] | null;
  labels?: string[] | null;
  description?: string | null;
  default?: Args | null;
  ui?: Ui | null;
  /** read only to tell a field left at its default from one set (never to draw the form) */
  schema?: unknown;
}

export const FORM_KINDS = ["form", "move", "fire", "steps", "sides"] as const;
export const CONTROL_KINDS = ["select", "pick", "number", "text", "items", "repeat", "group", "variants"] as const;
/** Every kind this client draws: the tops of a descriptor and the controls inside a `form`. */
export const KNOWN_KINDS: readonly string[] = [...FORM_KINDS, ...CONTROL_KINDS];

/**
 * Whether every kind in the descriptor is one this client knows. A kind the server adds later makes it false (the
 * union is open on the wire): the UI then offers the entry's choices or its advanced JSON form, and never breaks.
 */
export function known(ui: unknown): ui is Ui {
  if (!isObject(ui) || typeof ui.kind !== "string" || !(FORM_KINDS as readonly string[]).includes(ui.kind)) return false;
  return ui.kind !== "form" || controlsKnown(ui.controls);
}

function controlsKnown(controls: unknown): boolean {
  if (controls === undefined) return true;
  if (!Array.isArray(controls)) return false;
  return controls.every((c: unknown) => {
    if (!isObject(c) || typeof c.kind !== "string" || !(CONTROL_KINDS as readonly string[]).includes(c.kind)) return false;
    if (c.kind === "items") return Array.isArray(c.items) && c.items.every((i: unknown) => isObject(i) && controlsKnown(i.controls));
    if (c.kind === "variants")
      return Array.isArray(c.variants) && c.variants.every((v: unknown) => isObject(v) && controlsKnown(v.controls));
    if (c.kind === "repeat" || c.kind === "group") return controlsKnown(c.controls);
    return true;
  });
}

// ---- drafts: what a player has filled in so far ----

/** One slot per control of a list, in the controls' order. */
export type Draft = Slot[];
export type Slot =
  | { kind: "select"; value: Scalar | undefined } // undefined: left out (an optional select: the command's default)
  | { kind: "pick"; values: Scalar[] } // in the order picked
  | { kind: "number"; value: number | undefined } // undefined: left out (optional)
  | { kind: "text"; value: string }
  | { kind: "items"; chosen: { item: number; draft: Draft }[] } // item: its index in `items`
  | { kind: "repeat"; entries: Draft[] }
  | { kind: "group"; draft: Draft }
  | { kind: "variants"; variant: number; draft: Draft };
/** Battlefleet's Movement Phase, per division in the descriptor's order: null keeps its speed / makes the least turn. */
export interface MoveDraft {
  kind: "move";
  divisions: { distance_mm: number | null; turns_deg: (number | null)[] }[];
}
/** Battlefleet's Gunnery Phase, per ship in the descriptor's order (one target a ship, one ammunition a salvo). */
export interface FireDraft {
  kind: "fire";
  ships: {
    fire: boolean;
    target: string;
    estimate_mm: number;
    ammo: string; // one of the form's `ammo` values
    mounts: { on: boolean; guns: number; cycles: number }[];
  }[];
}
/** A fire form's ammunition: its `ammo`, or, from a server before the form carried it, Battlefleet's HE and AP. */
function ammoOf(ui: FireForm): FireForm["ammo"] {
  return ui.ammo ?? [
    { value: "HE", label: "HE (high explosive)" },
    { value: "AP", label: "AP (armour piercing)" },
  ];
}
export interface StepsDraft {
  kind: "steps";
  boat: string;
  to: string;
}
export interface SidesDraft {
  kind: "sides";
  boat: string;
  side: string;
  to: string;
}
export type AnyDraft = Draft | MoveDraft | FireDraft | StepsDraft | SidesDraft;

/**
 * The draft a first-time player starts from: every `default`, else the least the rules accept (a select's first
 * option, a number's min, a pick's required values and its first options up to `min`, the required items, `min` repeats, the first variant; each
 * the first that still fits the form's budgets, so the draft starts within them where it can; no
 * division changes its move, no ship fires — a ship ticked to fire starts at the first target, mid-range, all its
 * guns, one cycle, the form's first ammunition (HE) — the first boat's first step that does not end its move). Sent
 * as is it is legal wherever the descriptor alone can make it so.
 */
export function initial(ui: Ui): AnyDraft {
  switch (ui.kind) {
    case "form":
      return initialControls(ui.controls, fullPurse(ui));
    case "move":
      return { kind: "move", divisions: ui.divisions.map((d) => ({ distance_mm: null, turns_deg: d.turns.map(() => null) })) };
    case "fire":
      return {
        kind: "fire",
        ships: ui.ships.map((s) => ({
          fire: false,
          target: ui.targets[0]?.ship ?? "",
          estimate_mm: Math.round((ui.estimate_mm.min + ui.estimate_mm.max) / 2), // a guess to move from, not 1 mm
          ammo: String(ammoOf(ui)[0]?.value ?? "HE"), // the form's first: the rules' default
          mounts: s.mounts.map((m) => ({ on: true, guns: m.guns, cycles: 1 })),
        })),
      };
    case "steps": {
      const boat = ui.boats.find((b) => b.steps.length) ?? ui.boats[0];
      return { kind: "steps", boat: boat?.boat ?? "", to: firstStep(boat?.steps ?? []) };
    }
    case "sides": {
      const boat = ui.boats.find((b) => b.sides.length) ?? ui.boats[0];
      const side = boat?.sides[0];
      return { kind: "sides", boat: boat?.boat ?? "", side: side?.side ?? "", to: firstEnd(side, boat?.area) };
    }
  }
}

/**
 * Where a boat steps unless the player says otherwise: the first step that does not end its move (a port ends it, and
 * with it the patrol), else the first. Sent as it stood, a port first in the list sent the boat home.
 */
function firstStep(steps: readonly BoatSteps["steps"][number][]): string {
  return (steps.find((s) => s.space !== "port") ?? steps[0])?.to ?? "";
}

/** The draft of some controls; each takes what it starts with from `left` (the form's budgets). */
export function initialControls(controls: readonly Control[] = [], left: Purse = {}): Draft {
  return controls.map((c) => initialSlot(c, left));
}

export function initialSlot(c: Control, left: Purse = {}): Slot {
  switch (c.kind) {
    case "select": {
      const of = (v: Scalar | undefined) => c.options.find((o) => o.value === v);
      const preset = c.default ?? undefined;
      let value: Scalar | undefined;
      if (preset !== undefined && fits(left, of(preset)?.spend)) value = preset;
      else if (!c.optional) value = (c.options.find((o) => fits(left, o.spend)) ?? of(preset) ?? c.options[0])?.value;
      take(left, of(value)?.spend);
      return { kind: "select", value };
    }
    case "pick": {
      const values: Scalar[] = [...(c.required ?? [])];
      for (const v of values) take(left, c.options.find((o) => o.value === v)?.spend);
      for (const o of c.options)
        if (values.length < (c.min ?? 0) && !values.includes(o.value) && fits(left, o.spend)) {
          take(left, o.spend);
          values.push(o.value);
        }
      return { kind: "pick", values };
    }
    case "number": {
      let value = c.default ?? (c.optional ? undefined : c.min);
      if (value !== undefined) value = Math.max(c.min, Math.min(value, most(left, c.spend)));
      if (value !== undefined) take(left, c.spend, value);
      return { kind: "number", value };
    }
    case "text":
      return { kind: "text", value: c.default ?? "" };
    case "items": {
      const chosen: { item: number; draft: Draft }[] = [];
      c.items.forEach((it, i) => {
        if (!it.required) return;
        take(left, it.spend);
        chosen.push({ item: i, draft: initialControls(it.controls, left) });
      });
      c.items.forEach((it, i) => {
        const draft = chosen.length < (c.min ?? 0) && !it.required ? within(it, left) : null;
        if (draft) chosen.push({ item: i, draft });
      });
      return { kind: "items", chosen: chosen.sort((a, b) => a.item - b.item) };
    }
    case "repeat":
      return { kind: "repeat", entries: Array.from({ length: c.min ?? 0 }, () => initialControls(c.controls, left)) };
    case "group":
      return { kind: "group", draft: initialControls(c.controls, left) };
    case "variants": {
      for (const [variant, v] of c.variants.entries()) {
        const draft = within(v, left);
        if (draft) return { kind: "variants", variant, draft };
      }
      take(left, c.variants[0]?.spend);
      return { kind: "variants", variant: 0, draft: initialControls(c.variants[0]?.controls, left) };
    }
  }
}

// ---- budgets ----

/** Every budget of the form at its limit: nothing chosen yet. */
function fullPurse(ui: Form): Purse {
  return Object.fromEntries((ui.budgets ?? []).map((b) => [b.id, b.limit]));
}

/** Whether `units` of `spend` fit what is left (a budget the form does not list limits nothing). */
export function fits(left: Purse, spend: Spend | undefined, units = 1): boolean {
  return Object.entries(spend ?? {}).every(([id, n]) => !(id in left) || (left[id] ?? 0) >= n * units);
}

function take(left: Purse, spend: Spend | undefined, units = 1): void {
  for (const [id, n] of Object.entries(spend ?? {})) if (id in left) left[id] = (left[id] ?? 0) - n * units;
}

/** The most units of `spend` that fit what is left. */
function most(left: Purse, spend: Spend | undefined): number {
  return Math.min(Infinity, ...Object.entries(spend ?? {}).flatMap(([id, n]) => (id in left && n > 0 ? [Math.floor((left[id] ?? 0) / n)] : [])));
}

/** Something a player may choose that spends: an option, an item or a variant (its controls start as it is chosen). */
type Spender = { spend?: Spend; controls?: Control[] };

/** A choice started from what is left: its controls' draft, what would be left, and the budget it overdraws. */
function attempt(choice: Spender, left: Purse): { draft: Draft; trial: Purse; over: string | undefined } {
  const trial = { ...left };
  take(trial, choice.spend);
  const draft = initialControls(choice.controls, trial);
  return { draft, trial, over: Object.keys(trial).find((id) => (trial[id] ?? 0) < 0 && (trial[id] ?? 0) < (left[id] ?? 0)) };
}

/**
 * An item's (or a variant's) draft as it starts, taking its spend and its controls' from `left`, or null (and `left`
 * untouched) when it cannot start within what is left: then it is not offered.
 */
export function within(choice: Spender, left: Purse): Draft | null {
  const { draft, trial, over } = attempt(choice, left);
  if (over !== undefined) return null;
  Object.assign(left, trial);
  return draft;
}

/**
 * Why a choice does not fit what is left, in plain words ("Pobeda: counter-flood or scuttle: 3 left, it needs 4"),
 * or null when it fits (exactly when `within` takes it).
 */
export function lack(budgets: readonly Budget[] | undefined, left: Purse, choice: Spender, L: { left: string; needs: string } = ENGLISH): string | null {
  const { trial, over } = attempt(choice, left);
  const short = (budgets ?? []).find((b) => b.id === over);
  if (over === undefined) return null;
  const has = left[over] ?? 0;
  return `${short?.label ?? over}: ${amount(short, Math.max(has, 0))} ${L.left}, ${L.needs} ${amount(short, has - (trial[over] ?? 0))}`;
}

/** An amount of a budget as a player reads it: counted in 1/`per` units (U-Boat Leader's half Special Options). */
export function amount(b: Budget | undefined, n: number): string {
  const per = b?.per ?? 1;
  if (per === 1 || n % per === 0) return String(n / per);
  if (per === 2) return `${n < 0 ? "-" : ""}${Math.trunc(Math.abs(n) / 2) || ""}½`;
  return (n / per).toFixed(2);
}

/** What is left of each of the form's budgets once everything the draft chose has spent (negative: overspent). */
export function budgetsLeft(ui: Ui, draft: AnyDraft): Purse {
  if (ui.kind !== "form") return {};
  const left = fullPurse(ui);
  spendControls(ui.controls, draft as Draft, left);
  return left;
}

/** Takes what the chosen values of some controls spend from `left` (`sign` -1 gives it back). */
function spendControls(controls: readonly Control[] = [], draft: Draft, left: Purse, sign = 1): void {
  controls.forEach((c, i) => {
    const slot = draft[i];
    if (slot) spendSlot(c, slot, left, sign);
  });
}

function spendSlot(c: Control, slot: Slot, left: Purse, sign = 1): void {
  if (c.kind === "select" && slot.kind === "select")
    take(left, c.options.find((o) => o.value === slot.value)?.spend, sign);
  else if (c.kind === "pick" && slot.kind === "pick")
    for (const v of slot.values) take(left, c.options.find((o) => o.value === v)?.spend, sign);
  else if (c.kind === "number" && slot.kind === "number" && Number.isFinite(slot.value)) take(left, c.spend, sign * (slot.value ?? 0));
  else if (c.kind === "items" && slot.kind === "items")
    for (const ch of slot.chosen) {
      take(left, c.items[ch.item]?.spend, sign);
      spendControls(c.items[ch.item]?.controls, ch.draft, left, sign);
    }
  else if (c.kind === "repeat" && slot.kind === "repeat") for (const e of slot.entries) spendControls(c.controls, e, left, sign);
  else if (c.kind === "group" && slot.kind === "group") spendControls(c.controls, slot.draft, left, sign);
  else if (c.kind === "variants" && slot.kind === "variants") {
    take(left, c.variants[slot.variant]?.spend, sign);
    spendControls(c.variants[slot.variant]?.controls, slot.draft, left, sign);
  }
}

/** The first budget the draft overspends, in plain words ("Mikasa's DC dice for actions: 6 of 5 chosen"). */
function overspent(ui: Form, left: Purse): string | null {
  const over = (ui.budgets ?? []).find((b) => (left[b.id] ?? 0) < 0);
  return over ? `${over.label}: ${amount(over, over.limit - (left[over.id] ?? 0))} of ${amount(over, over.limit)} chosen` : null;
}

/** The command's arguments a draft says (send `{type: entry.type, ...args(ui, draft)}`). */
export function args(ui: Ui, draft: AnyDraft): Args {
  if (ui.kind === "form") return fill(ui.controls, draft as Draft);
  if (ui.kind === "move") {
    const d = draft as MoveDraft;
    const divisions = ui.divisions.flatMap((div, i) => {
      const mine = d.divisions[i];
      if (!mine || (mine.distance_mm === null && mine.turns_deg.every((t) => t === null))) return [];
      const out: Args = { division: div.division };
      if (mine.distance_mm !== null) out.distance_mm = mine.distance_mm;
      if (mine.turns_deg.some((t) => t !== null)) out.turns_deg = div.turns.map((b, j) => mine.turns_deg[j] ?? leastTurn(b));
      return [out];
    });
    return divisions.length ? { divisions } : {};
  }
  if (ui.kind === "fire") {
    const d = draft as FireDraft;
    const salvos = ui.ships.flatMap((ship, i) => {
      const mine = d.ships[i];
      if (!mine || !mine.fire) return [];
      const guns = ship.mounts.flatMap((m, j) => {
        const g = mine.mounts[j];
        if (!g || !g.on) return [];
        return [{ mount: m.mount, side: m.side, guns: m.side === null ? null : g.guns, cycles: g.cycles, ammo: mine.ammo }];
      });
      return guns.length ? [{ ship: ship.ship, target: mine.target, estimate_mm: mine.estimate_mm, guns }] : [];
    });
    return salvos.length ? { salvos } : {};
  }
  if (ui.kind === "steps") {
    const d = draft as StepsDraft;
    return { boat: d.boat, to: d.to };
  }
  const d = draft as SidesDraft;
  return { boat: d.boat, side: d.side, to: d.to };
}

/** What `sent` (the arguments a form's send makes) picks in an `irrevocable` pick (Battlefleet's ships that strike
 * their colours or are scuttled), each as "its label: the values' labels", once a pick, so a UI asks before it sends;
 * [] where it picks none. Reads a form's controls; of `variants` the one whose `fixed` arguments the object holds
 * (every variant where none has any: their fields tell them apart); an `items` entry by its item's `fixed`; groups
 * and repeats by their field. */
export function irrevocable(ui: Ui | null | undefined, sent: Args): string[] {
  const out = new Map<Pick, string>();
  const holds = (obj: Args, fixed: Record<string, unknown> | undefined) =>
    !!fixed && Object.keys(fixed).length > 0 && Object.entries(fixed).every(([k, v]) => obj[k] === v);
  const walk = (controls: readonly Control[], obj: Args): void => {
    for (const c of controls) {
      if (c.kind === "pick" && c.irrevocable) {
        const picked = obj[c.field];
        if (Array.isArray(picked) && picked.length && !out.has(c)) {
          const name = (v: unknown) => c.options.find((o) => o.value === v)?.label ?? String(v);
          out.set(c, `${c.label}: ${picked.map(name).join(", ")}`);
        }
      } else if (c.kind === "variants") {
        const chosen = c.variants.filter((v) => holds(obj, v.fixed));
        for (const v of chosen.length ? chosen : c.variants) walk((v.controls ?? []) as Control[], obj);
      } else if (c.kind === "items") {
        const entries = obj[c.field];
        if (Array.isArray(entries))
          for (const entry of entries)
            for (const item of c.items) if (holds(entry as Args, item.fixed)) walk((item.controls ?? []) as Control[], entry as Args);
      } else if (c.kind === "group") {
        const inner = obj[c.field];
        if (inner && typeof inner === "object") walk(c.controls as Control[], inner as Args);
      } else if (c.kind === "repeat") {
        const rows = obj[c.field];
        if (Array.isArray(rows)) for (const row of rows) walk(c.controls as Control[], row as Args);
      }
    }
  };
  if (ui && ui.kind === "form") walk(ui.controls, sent);
  return [...out.values()];
}

/** BF-R5: the distance these turns (`turns_deg`, one per band) need the division's lead to go, from its `turns_need`
 * (0 where it has none): each turn's arc on the lead's circle, rounded up, after the run to the pivots ahead. */
export function turnsNeed(div: DivisionMove, turns: number[]): number {
  const t = div.turns_need;
  if (!t || turns.every((x) => x === 0)) return 0;
  const arcs = turns.reduce((sum, x) => sum + Math.ceil((355 * t.radius_mm * Math.abs(x)) / 20340), 0);
  return Math.min(div.distance_mm.max, t.base_mm + arcs);
}

/** BF-R5: the least turn of a band (negative to port), what a division makes when its turn is left unset. */
export function leastTurn(band: TurnBand): number {
  return band.to === "port" ? -band.min_deg : band.min_deg;
}

function fill(controls: readonly Control[] = [], draft: Draft): Args {
  const out: Args = {};
  controls.forEach((c, i) => {
    const slot = draft[i];
    if (!slot) return;
    if (c.kind === "variants" && slot.kind === "variants") {
      const v = c.variants[slot.variant];
      if (v) Object.assign(out, v.fixed ?? {}, fill(v.controls, slot.draft));
      return;
    }
    if (c.kind === "variants") return;
    const value = valueOf(c, slot);
    if (value !== undefined) out[c.field] = value;
  });
  return out;
}

function valueOf(c: Exclude<Control, Variants>, slot: Slot): unknown {
  if (c.kind === "items" && slot.kind === "items")
    return slot.chosen.map((ch) => ({ ...(c.items[ch.item]?.fixed ?? {}), ...fill(c.items[ch.item]?.controls, ch.draft) }));
  if (c.kind === "repeat" && slot.kind === "repeat") return slot.entries.map((e) => fill(c.controls, e));
  if (c.kind === "group" && slot.kind === "group") return fill(c.controls, slot.draft);
  if (slot.kind === "pick") return [...slot.values];
  if (slot.kind === "select" || slot.kind === "number" || slot.kind === "text") return slot.value;
  return undefined;
}

/** Why the draft cannot be sent as it is (in English), or null: what the descriptor alone can check. */
export function problem(ui: Ui, draft: AnyDraft): string | null {
  if (ui.kind === "form") return controlsProblem(ui.controls, draft as Draft) ?? overspent(ui, budgetsLeft(ui, draft));
  if (ui.kind === "move") {
    const d = draft as MoveDraft;
    for (const [i, div] of ui.divisions.entries()) {
      const mine = d.divisions[i];
      if (!mine) continue;
      const r = div.distance_mm;
      if (mine.distance_mm !== null && !inRange(mine.distance_mm, r.min, r.max))
        return `${div.division}: the distance is ${r.min}-${r.max} mm`;
      for (const [j, band] of div.turns.entries()) {
        const t = mine.turns_deg[j];
        if (t !== null && t !== undefined && !turnFits(band, t))
          return `${div.division}: turn ${j + 1} is ${bandText(band)}`;
      }
      const need = turnsNeed(div, div.turns.map((b, j) => mine.turns_deg[j] ?? leastTurn(b)));
      if (mine.distance_mm !== null && mine.distance_mm < need)
        return `${div.division}: its turns need at least ${need} mm (BF-R5)`;
    }
    return null;
  }
  if (ui.kind === "fire") {
    const d = draft as FireDraft;
    for (const [i, ship] of ui.ships.entries()) {
      const mine = d.ships[i];
      if (!mine || !mine.fire) continue;
      if (!ui.targets.some((t) => t.ship === mine.target)) return `${ship.ship}: choose a target`;
      if (!inRange(mine.estimate_mm, ui.estimate_mm.min, ui.estimate_mm.max))
        return `${ship.ship}: the estimate is ${ui.estimate_mm.min}-${ui.estimate_mm.max} mm`;
      if (!mine.mounts.some((m) => m.on)) return `${ship.ship}: choose the guns that fire`;
    }
    return null;
  }
  if (ui.kind === "steps") {
    const d = draft as StepsDraft;
    const boat = ui.boats.find((b) => b.boat === d.boat);
    return boat && boat.steps.some((s) => s.to === d.to) ? null : "choose a boat and where it steps";
  }
  const d = draft as SidesDraft;
  const side = ui.boats.find((b) => b.boat === d.boat)?.sides.find((s) => s.side === d.side);
  return side && (side.to.includes(d.to) || (side.off && d.to === "off")) ? null : "choose a boat, a side and where it ends";
}

function controlsProblem(controls: readonly Control[] = [], draft: Draft): string | null {
  for (const [i, c] of controls.entries()) {
    const slot = draft[i];
    const why = slot ? slotProblem(c, slot) : `${c.label}: missing`;
    if (why) return why;
  }
  return null;
}

function slotProblem(c: Control, slot: Slot): string | null {
  if (c.kind === "select" && slot.kind === "select") {
    if (slot.value === undefined) return c.optional ? null : `${c.label}: choose one`;
    return c.options.some((o) => o.value === slot.value) ? null : `${c.label}: choose one`;
  }
  if (c.kind === "pick" && slot.kind === "pick") {
    const hi = c.max ?? c.options.length;
    const lo = c.min ?? 0;
    if (slot.values.length < lo || slot.values.length > hi) return `${c.label}: ${countText(lo, hi)}`;
    const missing = (c.required ?? []).filter((v) => !slot.values.includes(v));
    return missing.length ? `${c.label}: ${missing.join(", ")} must be picked` : null;
  }
  if (c.kind === "number" && slot.kind === "number") {
    if (slot.value === undefined) return c.optional ? null : `${c.label}: a number from ${c.min} to ${c.max}`;
    return inRange(slot.value, c.min, c.max) ? null : `${c.label}: a number from ${c.min} to ${c.max}`;
  }
  if (c.kind === "text" && slot.kind === "text") {
    const lo = c.min_length ?? 0;
    const length = [...slot.value].length; // characters as the server counts them (code points, not UTF-16 units)
    if (length < lo) return `${c.label}: at least ${lo} character${lo === 1 ? "" : "s"}`;
    return length <= c.max_length ? null : `${c.label}: at most ${c.max_length} characters`;
  }
  if (c.kind === "items" && slot.kind === "items") {
    const hi = c.max ?? (c.repeatable ? Infinity : c.items.length);
    const lo = c.min ?? 0;
    if (slot.chosen.length < lo || slot.chosen.length > hi) return `${c.label}: ${countText(lo, hi)}`;
    const missing = c.items.find((it, i) => it.required && !slot.chosen.some((ch) => ch.item === i));
    if (missing) return `${c.label}: ${missing.label} is required`;
    for (const ch of slot.chosen) {
      const why = controlsProblem(c.items[ch.item]?.controls, ch.draft);
      if (why) return `${c.items[ch.item]?.label ?? ""}: ${why}`;
    }
    return null;
  }
  if (c.kind === "repeat" && slot.kind === "repeat") {
    const lo = c.min ?? 0;
    const hi = c.max ?? 1;
    if (slot.entries.length < lo || slot.entries.length > hi) return `${c.label}: ${countText(lo, hi)}`;
    for (const e of slot.entries) {
      const why = controlsProblem(c.controls, e);
      if (why) return why;
    }
    return null;
  }
  if (c.kind === "group" && slot.kind === "group") return controlsProblem(c.controls, slot.draft);
  if (c.kind === "variants" && slot.kind === "variants") {
    const v = c.variants[slot.variant];
    return v ? controlsProblem(v.controls, slot.draft) : `${c.label}: choose one`;
  }
  return `${c.kind}: the draft does not fit the descriptor`;
}

function countText(lo: number, hi: number): string {
  if (hi === Infinity) return `at least ${lo}`;
  return lo === hi ? `choose exactly ${lo}` : `choose ${lo} to ${hi}`;
}

function inRange(n: number, lo: number, hi: number): boolean {
  return Number.isInteger(n) && n >= lo && n <= hi;
}

/** A turn fits its band by its size; a starboard arrow's turn is positive (the server refuses a negative one), a
 * port arrow's either sign (the server reads its size), and a band turning either way reads negative as port. */
function turnFits(band: TurnBand, deg: number): boolean {
  const size = Math.abs(deg);
  return size >= band.min_deg && size <= band.max_deg && (band.to !== "starboard" || deg >= 0);
}

function bandText(band: TurnBand): string {
  const where = band.to === "either" ? "either way (negative to port)" : `to ${band.to}${band.to === "port" ? " (negative)" : ""}`;
  return `${band.arrow ? `the ${band.arrow}° arrow` : "a free turn"}: ${band.min_deg}-${band.max_deg}° ${where}`;
}

// ---- the DOM renderer ----

/** The renderer's own words (English); pass some to replace them. */
export interface Labels {
  send: string;
  useDefault: string;
  defaultHint: string;
  add: string;
  remove: string;
  leftOut: string;
  keepSpeed: string;
  stop: string;
  leastTurn: string;
  holdFire: string;
  fire: string;
  target: string;
  estimate: string;
  ammo: string;
  guns: string;
  cycles: string;
  boat: string;
  to: string;
  side: string;
  off: string;
  left: string;
  chosen: string;
  needs: string;
  unknown: string;
}

export const ENGLISH: Labels = {
  send: "Send",
  useDefault: "Send the default",
  defaultHint: "what the rules do when you send nothing",
  add: "add",
  remove: "remove",
  leftOut: "(the rules' default)",
  keepSpeed: "keep speed",
  stop: "stop",
  leastTurn: "least",
  holdFire: "holds fire",
  fire: "fires",
  target: "at",
  estimate: "estimate",
  ammo: "ammunition",
  guns: "guns",
  cycles: "cycles",
  boat: "boat",
  to: "to",
  side: "side",
  off: "off the display",
  left: "left",
  chosen: "chosen: too many",
  needs: "it needs",
  unknown: "This page cannot draw this decision (no choices, and no descriptor it knows): use the advanced form.",
};

export interface FormOptions {
  /** called with the command's arguments (without `type`): a choice, the default, or what the form was filled with */
  onSubmit: (args: Args) => void;
  /** the renderer's words, for another language */
  labels?: Partial<Labels>;
}

/**
 * An element that draws an `awaiting` entry and calls `onSubmit` with the arguments the player chose: its
 * descriptor's controls where the client knows every kind in it (they group what `choices` list), else its
 * `choices` as buttons, else only a note (`known(ui)` false: use an advanced form). The `default`, where the rules
 * have one, is one more button. Class names (`nu-…`) and `data-*` attributes are for styling and tests.
 */
export function decisionForm(entry: Entry, opts: FormOptions): HTMLElement {
  const L: Labels = { ...ENGLISH, ...(opts.labels ?? {}) };
  const root = el("div", { class: "nu-decision", "data-type": entry.type });
  const ui = entry.ui;
  const submit = (a: Args) => opts.onSubmit(a);
  if (known(ui)) root.append(drawUi(ui, L, submit, entry.type));
  else if (entry.choices?.length) root.append(drawChoices(entry, entry.choices, L, submit));
  else root.append(el("p", { class: "nu-unknown" }, L.unknown));
  // the default as one click, unless the form starts at it already (a field left at its schema's default is the
  // field left out: Battlefleet's `start` form, sending `ships: []`, is its default `{}`; a play trial saw two
  // buttons doing one thing)
  if (entry.default && !(known(ui) && same(atDefaults(entry, args(ui, initial(ui))), entry.default))) {
    const preset = entry.default;
    const b = el("button", { type: "button", class: "nu-default", "data-type": entry.type, title: L.defaultHint });
    b.textContent = L.useDefault;
    b.addEventListener("click", () => submit(preset));
    root.append(el("p", { class: "nu-default-row" }, b, " ", el("span", { class: "nu-hint" }, L.defaultHint)));
  }
  return root;
}

/** More choices than this are a list to choose from and one button, not a wall of buttons. */
export const MAX_BUTTONS = 12;

function drawChoices(entry: Entry, choices: Args[], L: Labels, submit: (a: Args) => void): HTMLElement {
  const text = (i: number) => entry.labels?.[i] ?? choiceText(entry.type, choices[i] ?? {});
  if (choices.length <= MAX_BUTTONS) {
    const buttons = choices.map((c, i) => {
      const b = el("button", { type: "button", class: "nu-choice choice", "data-type": entry.type, "data-i": String(i) });
      b.textContent = text(i);
      b.addEventListener("click", () => submit(c));
      return b;
    });
    return el("div", { class: "nu-choices" }, ...buttons);
  }
  const list = el("select", { class: "nu-input nu-choice-list", "data-type": entry.type, "aria-label": entry.type.replaceAll("_", " ") });
  list.append(...choices.map((_, i) => option(String(i), text(i), i === 0)));
  const go = el("button", { type: "button", class: "nu-choice nu-send choice", "data-type": entry.type });
  go.textContent = L.send;
  go.addEventListener("click", () => submit(choices[Number(list.value)] ?? {}));
  return el("div", { class: "nu-choices" }, list, go);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `sent` without the fields the entry's default leaves out and `sent` gives its schema's default value. */
function atDefaults(entry: Entry, sent: Args): Args {
  const props = (entry.schema as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties ?? {};
  const kept = Object.entries(sent).filter(
    ([k, v]) => (entry.default ?? {})[k] !== undefined || !("default" in (props[k] ?? {})) || !same(v, props[k]?.default),
  );
  return Object.fromEntries(kept);
}

function choiceText(type: string, c: Args): string {
  return Object.keys(c).length ? `${type} ${JSON.stringify(c)}` : type.replaceAll("_", " ");
}

/** The descriptor's controls, a problem line and the send button; redrawn whole when its shape changes. */
function drawUi(ui: Ui, L: Labels, submit: (a: Args) => void, type: string): HTMLElement {
  const box = el("div", { class: `nu-form nu-${ui.kind}` });
  const draft = initial(ui);
  const why = el("p", { class: "nu-problem", role: "status" });
  const send = el("button", { type: "button", class: "nu-send", "data-type": type });
  send.textContent = `${L.send} ${type.replaceAll("_", " ")}`;
  send.addEventListener("click", () => {
    if (!problem(ui, draft)) submit(args(ui, draft));
  });
  const watchers: ((left: Purse) => void)[] = [];
  const left = () => budgetsLeft(ui, draft);
  const changed = () => {
    const p = problem(ui, draft);
    why.textContent = p ?? "";
    send.disabled = p !== null;
    const now = left();
    for (const w of watchers) w(now);
  };
  const watch = (w: (left: Purse) => void) => void watchers.push(w);
  const budgets = ui.kind === "form" && ui.budgets?.length ? drawBudgets(ui.budgets, L, watch) : "";
  const body = el("div", { class: "nu-body" });
  const redraw = () => {
    watchers.length = budgets ? 1 : 0; // the budgets' line stays; the body's controls are drawn anew
    const focused = focusKey(body); // a keyboard player's place: the control just changed, drawn anew
    body.replaceChildren(drawBody(ui, draft, L, { changed, redraw, left, watch, budgets: ui.kind === "form" ? (ui.budgets ?? []) : [] }));
    changed();
    if (focused) refocus(body, focused);
  };
  redraw();
  box.append(budgets, body, why, el("p", {}, send));
  return box;
}

interface Hooks {
  /** a value changed: check the draft again */
  changed: () => void;
  /** the draft's shape changed (an item added, a variant chosen): draw it again */
  redraw: () => void;
  /** what is left of each budget of the form now */
  left: () => Purse;
  /** called with what is left after every change (what still fits is enabled) */
  watch: (w: (left: Purse) => void) => void;
  /** the form's budgets (none for the table-drawing forms) */
  budgets: readonly Budget[];
}

/** Each budget's label and what is left of it, kept current as the player chooses. */
function drawBudgets(budgets: readonly Budget[], L: Labels, watch: Hooks["watch"]): HTMLElement {
  const lines = budgets.map((b) => el("div", { class: "nu-budget", "data-budget": b.id }));
  watch((left) =>
    budgets.forEach((b, i) => {
      const line = lines[i]!;
      const n = left[b.id] ?? b.limit;
      line.dataset.left = String(n);
      line.classList.toggle("nu-over", n < 0);
      line.replaceChildren(el("span", { class: "nu-label" }, b.label), ": ",
        el("strong", {}, n < 0 ? `${amount(b, b.limit - n)} of ${amount(b, b.limit)} ${L.chosen}` : `${amount(b, n)} of ${amount(b, b.limit)} ${L.left}`));
    }),
  );
  return el("div", { class: "nu-budgets" }, ...lines);
}

/**
 * Marks a choice that no longer fits what is left of the budgets (`why`, from `lack`): disabled, greyed, and why
 * beside it (an `<option>`: as its title). `busy`: disabled for another reason (a count reached).
 */
function unfit(input: HTMLInputElement | HTMLOptionElement | HTMLButtonElement, mark: HTMLElement, why: string | null, busy: boolean) {
  input.disabled = busy || why !== null;
  mark.classList.toggle("nu-unfit", why !== null);
  if (why === null) mark.removeAttribute("title");
  else mark.title = why;
  if (mark instanceof HTMLOptionElement) return;
  let said = mark.querySelector(":scope > .nu-why");
  if (why !== null && !said) mark.append((said = el("span", { class: "nu-hint nu-why" })));
  if (said) said.textContent = why === null ? "" : ` — ${why}`;
}

function drawBody(ui: Ui, draft: AnyDraft, L: Labels, k: Hooks): HTMLElement {
  switch (ui.kind) {
    case "form":
      return drawControls(ui.controls, draft as Draft, L, k);
    case "move":
      return drawMove(ui, draft as MoveDraft, L, k);
    case "fire":
      return drawFire(ui, draft as FireDraft, L, k);
    case "steps":
      return drawSteps(ui, draft as StepsDraft, L, k);
    case "sides":
      return drawSides(ui, draft as SidesDraft, L, k);
  }
}

/**
 * Some controls; `at` names what they belong to ("U-43", an item's label; "shots 2", a repeat's entry), "" at the top.
 * Each control's accessible name starts with it, so the same control drawn for each boat or ship is told apart
 * ("U-43: crew", not a crew select per boat all named "crew").
 */
function drawControls(controls: readonly Control[] = [], draft: Draft, L: Labels, k: Hooks, at = ""): HTMLElement {
  const box = el("div", { class: "nu-controls" });
  controls.forEach((c, i) => {
    const slot = draft[i];
    if (slot) box.append(drawControl(c, slot, (s) => (draft[i] = s), L, k, at));
  });
  return box;
}

/** A control's accessible name under `at` (drawControls). */
function named(at: string, what: string): string {
  return at ? `${at}: ${what}` : what;
}

function drawControl(c: Control, slot: Slot, set: (s: Slot) => void, L: Labels, k: Hooks, at: string): HTMLElement {
  const row = el("div", { class: `nu-control nu-${c.kind}`, "data-kind": c.kind, "data-field": "field" in c ? c.field : "" });
  const title = caption(c.label, c.rulebook);
  if (c.kind === "select" && slot.kind === "select") {
    const sel = el("select", { class: "nu-input" });
    if (at) sel.setAttribute("aria-label", named(at, c.label)); // at the top its <label> names it, rulebook words too
    const opts = c.options.map((o, i) => option(String(i), optionText(o), o.value === slot.value));
    if (c.optional) sel.append(option("", L.leftOut, slot.value === undefined));
    sel.append(...opts);
    sel.addEventListener("change", () => {
      slot.value = sel.value === "" ? undefined : c.options[Number(sel.value)]?.value;
      k.changed();
    });
    if (c.options.some((o) => o.spend && Object.keys(o.spend).length))
      k.watch((left) => {
        const back = { ...left };
        spendSlot(c, slot, back, -1); // what is left were this select's own choice given back
        opts.forEach((e, i) => unfit(e, e, e.selected ? null : lack(k.budgets, back, c.options[i] ?? {}, L), false));
      });
    row.append(el("label", {}, title, " ", sel));
  } else if (c.kind === "pick" && slot.kind === "pick") {
    const where = at; // `at` is each option's place in the order below
    const lo = c.min ?? 0;
    const hi = c.max ?? c.options.length;
    row.append(el("div", { class: "nu-legend" }, title, " ", el("span", { class: "nu-hint" }, `(${countText(lo, hi)}${c.ordered ? ", in order" : ""})`)));
    const list = el("div", { class: "nu-options" });
    for (const o of c.options) {
      const at = slot.values.indexOf(o.value);
      const box = el("input", { type: "checkbox", class: "nu-option" }) as HTMLInputElement;
      // inside an item or a row: the row, the pick, the option; at the top, the option and what ticking it does
      // (*Mikasa: strike their colours (irrevocable)*: the line's text alone named only the ship)
      box.setAttribute("aria-label", where ? named(where, `${c.label}: ${optionText(o)}`) : `${optionText(o)}: ${c.label}`);
      box.checked = at >= 0;
      const fixed = (c.required ?? []).includes(o.value); // what this pick's variant stands for: not unpicked
      box.disabled = fixed;
      box.addEventListener("change", () => {
        slot.values = box.checked ? [...slot.values, o.value] : slot.values.filter((v) => v !== o.value);
        k.redraw(); // the order numbers and what may still be picked
      });
      const order = c.ordered && at >= 0 ? el("span", { class: "nu-order" }, ` ${at + 1}.`) : "";
      const line = el("label", { class: "nu-pick-option" }, box, order, " ", optionText(o));
      if (!fixed) k.watch((left) => unfit(box, line, at >= 0 ? null : lack(k.budgets, left, o, L), at < 0 && slot.values.length >= hi));
      list.append(line);
    }
    row.append(list);
  } else if (c.kind === "number" && slot.kind === "number") {
    row.append(el("label", {}, title, " ", numberInput(c.min, c.max, slot.value, c.optional ?? false, c.unit ?? "", (v) => {
      slot.value = v;
      k.changed();
    }, L, named(at, c.label))));
  } else if (c.kind === "text" && slot.kind === "text") {
    const input = el("input", { type: "text", class: "nu-input", maxlength: String(c.max_length), size: "40", "aria-label": named(at, c.label) }) as HTMLInputElement;
    if (c.min_length) input.minLength = c.min_length;
    input.value = slot.value;
    input.addEventListener("input", () => {
      slot.value = input.value;
      k.changed();
    });
    row.append(el("label", {}, title, " ", input));
  } else if (c.kind === "items" && slot.kind === "items") {
    drawItems(c, slot, row, title, L, k, at);
  } else if (c.kind === "repeat" && slot.kind === "repeat") {
    const lo = c.min ?? 0;
    const hi = c.max ?? 1;
    row.append(el("div", { class: "nu-legend" }, title, " ", el("span", { class: "nu-hint" }, `(${countText(lo, hi)})`)));
    slot.entries.forEach((entry, j) => {
      const which = named(at, `${c.label} ${j + 1}`);
      const rm = button(L.remove, "nu-remove", slot.entries.length <= lo, () => {
        slot.entries.splice(j, 1);
        k.redraw();
      }, `${L.remove}: ${which}`);
      row.append(el("div", { class: "nu-entry" }, el("span", { class: "nu-order" }, `${j + 1}.`), drawControls(c.controls, entry, L, k, which), rm));
    });
    row.append(button(`${L.add}: ${named(at, c.label)}`, "nu-add", slot.entries.length >= hi, () => {
      slot.entries.push(initialControls(c.controls, k.left()));
      k.redraw();
    }));
  } else if (c.kind === "group" && slot.kind === "group") {
    row.append(el("fieldset", { class: "nu-group" }, el("legend", {}, title), drawControls(c.controls, slot.draft, L, k, at)));
  } else if (c.kind === "variants" && slot.kind === "variants") {
    const name = `nu-v-${++radios}`;
    const choose = el("div", { class: "nu-variant-choice" }, title, " ");
    c.variants.forEach((v, j) => {
      const r = el("input", { type: "radio", name, class: "nu-variant", value: String(j) }) as HTMLInputElement;
      if (at) r.setAttribute("aria-label", named(at, `${c.label}: ${v.label}`));
      r.checked = j === slot.variant;
      r.addEventListener("change", () => {
        const chosen: Slot = { kind: "variants", variant: j, draft: [] };
        set(chosen); // its own spend is taken; its controls start from what is left then
        chosen.draft = initialControls(v.controls, k.left());
        k.redraw();
      });
      const line = el("label", {}, r, " ", caption(v.label, v.rulebook));
      k.watch((left) => {
        const back = { ...left };
        spendSlot(c, slot, back, -1);
        unfit(r, line, r.checked ? null : lack(k.budgets, back, v, L), false);
      });
      choose.append(line, " ");
    });
    row.append(choose, drawControls(c.variants[slot.variant]?.controls, slot.draft, L, k, at));
  }
  return row;
}

let radios = 0; // a name per radio group on the page

function drawItems(c: Items, slot: Extract<Slot, { kind: "items" }>, row: HTMLElement, title: Node, L: Labels, k: Hooks, at: string) {
  const required = c.items.filter((it) => it.required).length;
  const lo = Math.max(c.min ?? 0, required);
  const hi = c.max ?? (c.repeatable ? Infinity : c.items.length);
  const fixed = required === c.items.length && !c.repeatable; // nothing to choose: no count to say
  row.append(el("div", { class: "nu-legend" }, title, fixed ? "" : " ", fixed ? "" : el("span", { class: "nu-hint" }, `(${countText(lo, hi)})`)));
  const full = slot.chosen.length >= hi;
  c.items.forEach((it, i) => {
    const mine = slot.chosen.filter((ch) => ch.item === i);
    const which = named(at, it.label); // what its own controls are named under
    const line = el("div", { class: "nu-item", "data-item": String(i) });
    const name = caption(it.label, it.rulebook);
    const include = () => slot.chosen.push({ item: i, draft: within(it, k.left()) ?? initialControls(it.controls, k.left()) });
    if (c.repeatable && !it.required) {
      const add = button(L.add, "nu-add", full, () => {
        include();
        k.redraw();
      }, `${L.add}: ${which}`);
      k.watch((left) => unfit(add, line, lack(k.budgets, left, it, L), full));
      line.append(name, " ", add);
    } else {
      // named with what including it does: "Mikasa: strike their colours", not "Mikasa" in each of two lists
      const box = el("input", { type: "checkbox", class: "nu-include", "aria-label": `${which}: ${c.label}` }) as HTMLInputElement;
      box.checked = mine.length > 0;
      box.addEventListener("change", () => {
        if (box.checked) include();
        else slot.chosen = slot.chosen.filter((ch) => ch.item !== i);
        slot.chosen.sort((a, b) => a.item - b.item);
        k.redraw();
      });
      k.watch((left) => unfit(box, line, box.checked ? null : lack(k.budgets, left, it, L), it.required === true || (!box.checked && full)));
      line.append(el("label", {}, box, " ", name));
    }
    mine.forEach((ch, n) => {
      const each = mine.length > 1 ? `${which} ${n + 1}` : which; // an item included twice: each its own names
      const sub = el("div", { class: "nu-item-controls" }, drawControls(it.controls, ch.draft, L, k, each));
      if (c.repeatable && !it.required)
        sub.append(button(L.remove, "nu-remove", false, () => {
          slot.chosen = slot.chosen.filter((x) => x !== ch);
          k.redraw();
        }, `${L.remove}: ${each}`));
      line.append(sub);
    });
    row.append(line);
  });
}

function drawMove(ui: MoveForm, draft: MoveDraft, L: Labels, k: Hooks): HTMLElement {
  const box = el("div", { class: "nu-divisions" });
  ui.divisions.forEach((d, i) => {
    const mine = draft.divisions[i];
    if (!mine) return;
    const r = d.distance_mm;
    const dist = numberInput(r.min, r.max, mine.distance_mm ?? undefined, true, "mm", (v) => {
      mine.distance_mm = v ?? null;
      k.changed();
    }, { ...L, leftOut: `${d.stop ? L.stop : L.keepSpeed} (${d.keep_mm} mm)` }, `${d.division} distance`);
    dist.classList.add("nu-distance");
    dist.dataset.division = d.division;
    const line = el(
      "div",
      { class: "nu-division", "data-division": d.division },
      el("strong", {}, d.division),
      ` (${d.ships.join(", ")})`,
      el("br"),
      "distance ",
      dist,
      el("span", { class: "nu-hint" }, ` · ${r.min}-${r.max} mm${d.stop ? ", a stop order" : ""}`),
    );
    d.turns.forEach((band, j) => {
      const lo = band.to === "starboard" ? band.min_deg : -band.max_deg;
      const hi = band.to === "port" ? -band.min_deg : band.max_deg;
      const turn = numberInput(lo, hi, mine.turns_deg[j] ?? undefined, true, "°", (v) => {
        mine.turns_deg[j] = v ?? null;
        k.changed();
      }, { ...L, leftOut: `${L.leastTurn} ${leastTurn(band)}` }, `${d.division} turn ${j + 1}`);
      turn.classList.add("nu-turn");
      turn.dataset.division = d.division;
      turn.dataset.i = String(j);
      line.append(el("br"), `turn ${j + 1} `, turn, el("br"), el("span", { class: "nu-hint" }, bandText(band)));
    });
    if (!d.turns.length) line.append(el("span", { class: "nu-hint" }, " · goes straight on"));
    box.append(line);
  });
  return box;
}

function drawFire(ui: FireForm, draft: FireDraft, L: Labels, k: Hooks): HTMLElement {
  const box = el("div", { class: "nu-ships" });
  ui.ships.forEach((ship, i) => {
    const mine = draft.ships[i];
    if (!mine) return;
    const line = el("div", { class: "nu-ship", "data-ship": ship.ship });
    const fires = el("input", { type: "checkbox", class: "nu-fires", "data-ship": ship.ship }) as HTMLInputElement;
    fires.checked = mine.fire;
    fires.disabled = !ui.targets.length || !ship.mounts.length;
    fires.addEventListener("change", () => {
      mine.fire = fires.checked;
      k.redraw();
    });
    // named by what ticking does ("Mikasa fires"), the same ticked or not: the box shows the state, and the hint
    // beside it says an unticked ship holds fire (the label read "holds fire" on an empty box, "fires" once ticked)
    line.append(el("label", {}, fires, " ", el("strong", {}, ship.ship), ` ${L.fire}`), mine.fire ? "" : el("span", { class: "nu-hint" }, ` · ${L.holdFire}`));
    if (mine.fire) {
      const target = el("select", { class: "nu-target nu-input", "data-ship": ship.ship, "aria-label": `${ship.ship} ${L.target}` });
      target.append(...ui.targets.map((t) => option(t.ship, `${t.ship} (${t.cls} class)${t.pose ? "" : " — not in sight"}`, t.ship === mine.target)));
      target.addEventListener("change", () => {
        mine.target = target.value;
        k.changed();
      });
      const est = numberInput(ui.estimate_mm.min, ui.estimate_mm.max, mine.estimate_mm, false, "mm", (v) => {
        mine.estimate_mm = v ?? ui.estimate_mm.min;
        k.changed();
      }, L, `${ship.ship} ${L.estimate}`);
      est.classList.add("nu-estimate");
      const ammo = el("select", { class: "nu-ammo nu-input", "aria-label": `${ship.ship} ${L.ammo}` }, ...ammoOf(ui).map((o) => option(String(o.value), o.label, mine.ammo === String(o.value))));
      ammo.addEventListener("change", () => {
        mine.ammo = ammo.value;
        k.changed();
      });
      line.append(
        el("div", {}, `${L.target} `, target, ` ${L.estimate} `, est, ` ${L.ammo} `, ammo),
        el("div", { class: "nu-hint" }, `estimate ${ui.estimate_mm.min}-${ui.estimate_mm.max} mm; beyond ${ui.one_cycle_beyond_mm} mm every gun fires one cycle`),
      );
      ship.mounts.forEach((m, j) => {
        const g = mine.mounts[j];
        if (!g) return;
        const where = `${ship.ship} ${m.mount}${m.side ? ` ${m.side}` : ""}`;
        // its ship in its name: each ship's mount A is not one more "A: 2 × 12in"
        const on = el("input", { type: "checkbox", class: "nu-mount", "aria-label": `${where}: ${m.guns} × ${m.weapon}` }) as HTMLInputElement;
        on.checked = g.on;
        on.addEventListener("change", () => {
          g.on = on.checked;
          k.changed();
        });
        const mount = el("div", { class: "nu-mount-row", "data-mount": m.mount }, el("label", {}, on, ` ${m.mount}${m.side ? ` ${m.side}` : ""}: ${m.guns} × ${m.weapon}`));
        if (m.side !== null) {
          const guns = numberInput(1, m.guns, g.guns, false, "", (v) => {
            g.guns = v ?? m.guns;
            k.changed();
          }, L, `${where} ${L.guns}`);
          mount.append(` ${L.guns} `, guns);
        }
        if (m.cycles > 1) {
          const cycles = el("select", { class: "nu-input nu-cycles", "aria-label": `${where} ${L.cycles}` }, ...Array.from({ length: m.cycles }, (_, c) => option(String(c + 1), String(c + 1), g.cycles === c + 1)));
          cycles.addEventListener("change", () => {
            g.cycles = Number(cycles.value);
            k.changed();
          });
          mount.append(` ${L.cycles} `, cycles);
        }
        line.append(mount);
      });
    }
    box.append(line);
  });
  if (!ui.targets.length) box.append(el("p", { class: "nu-hint" }, "No enemy ship is in play."));
  return box;
}

function drawSteps(ui: StepsForm, draft: StepsDraft, L: Labels, k: Hooks): HTMLElement {
  const boats = ui.boats.filter((b) => b.steps.length);
  const boat = el("select", { class: "nu-input nu-boat" }, ...boats.map((b) => option(b.boat, `${b.boat} at ${b.at}${b.moving ? " (moving)" : ""}`, b.boat === draft.boat)));
  const chosen = boats.find((b) => b.boat === draft.boat);
  const to = el("select", { class: "nu-input nu-to" }, ...(chosen?.steps ?? []).map((s) => option(s.to, stepText(s), s.to === draft.to)));
  boat.addEventListener("change", () => {
    draft.boat = boat.value;
    draft.to = firstStep(boats.find((b) => b.boat === boat.value)?.steps ?? []);
    k.redraw();
  });
  to.addEventListener("change", () => {
    draft.to = to.value;
    k.changed();
  });
  return el("div", {}, el("label", {}, `${L.boat} `, boat), " ", el("label", {}, `${L.to} `, to));
}

function stepText(s: BoatSteps["steps"][number]): string {
  if (s.space === "port") return `${s.to} (port: ends the move)`;
  if (s.space === "box") return `${s.to} (special mission box)`;
  return s.move_events ? `${s.to} (${s.move_events} event${s.move_events === 1 ? "" : "s"})` : s.to;
}

/** Where a side's move starts the form: the area the boat is in where it may stay, else the first it may end in. */
function firstEnd(s: BoatSides["sides"][number] | undefined, area: string | undefined): string {
  if (!s) return "";
  return area !== undefined && s.to.includes(area) ? area : (s.to[0] ?? "off");
}

function drawSides(ui: SidesForm, draft: SidesDraft, L: Labels, k: Hooks): HTMLElement {
  const boats = ui.boats.filter((b) => b.sides.length);
  const chosen = boats.find((b) => b.boat === draft.boat);
  const side = chosen?.sides.find((s) => s.side === draft.side);
  const boat = el("select", { class: "nu-input nu-boat" }, ...boats.map((b) => option(b.boat, `${b.boat} in ${b.area}`, b.boat === draft.boat)));
  const sides = el("select", { class: "nu-input nu-side" }, ...(chosen?.sides ?? []).map((s) => option(s.side, `${s.side} (speed ${s.speed})`, s.side === draft.side)));
  const ends = side ? [...side.to.map((t) => option(t, t, t === draft.to)), ...(side.off ? [option("off", L.off, draft.to === "off")] : [])] : [];
  const to = el("select", { class: "nu-input nu-to" }, ...ends);
  boat.addEventListener("change", () => {
    const b = boats.find((x) => x.boat === boat.value);
    draft.boat = boat.value;
    draft.side = b?.sides[0]?.side ?? "";
    draft.to = firstEnd(b?.sides[0], b?.area);
    k.redraw();
  });
  sides.addEventListener("change", () => {
    draft.side = sides.value;
    draft.to = firstEnd(chosen?.sides.find((s) => s.side === sides.value), chosen?.area);
    k.redraw();
  });
  to.addEventListener("change", () => {
    draft.to = to.value;
    k.changed();
  });
  return el("div", {}, el("label", {}, `${L.boat} `, boat), " ", el("label", {}, `${L.side} `, sides), " ", el("label", {}, `${L.to} `, to));
}

// ---- small DOM helpers ----

const CONTROLS = "input, select, textarea, button";

/** What tells a control from the others drawn by the same code: its tag, type, class and data-* attributes. */
function signature(e: Element): string {
  const data = Array.from(e.attributes).filter((a) => a.name.startsWith("data-")).map((a) => `${a.name}=${a.value}`);
  return [e.tagName, e.getAttribute("type") ?? "", e.className, ...data].join("|");
}

/** The focused control inside `root` as a key that finds its redrawn twin: its signature and its place among those
 * sharing it (a redraw changes what comes after the control changed, not what comes before it); null if none. */
function focusKey(root: HTMLElement): { sig: string; at: number } | null {
  const active = document.activeElement;
  if (!active || !root.contains(active) || !active.matches(CONTROLS)) return null;
  const sig = signature(active);
  return { sig, at: Array.from(root.querySelectorAll(CONTROLS)).filter((e) => signature(e) === sig).indexOf(active) };
}

function refocus(root: HTMLElement, key: { sig: string; at: number }): void {
  const twin = Array.from(root.querySelectorAll(CONTROLS)).filter((e) => signature(e) === key.sig)[key.at];
  if (twin instanceof HTMLElement) twin.focus();
}

/** A slider and a box for a whole number in lo..hi, each named `name`; `optional`: the box may be emptied (left out). */
function numberInput(
  lo: number,
  hi: number,
  value: number | undefined,
  optional: boolean,
  unit: string,
  set: (v: number | undefined) => void,
  L: Labels,
  name: string,
): HTMLElement {
  const wrap = el("span", { class: "nu-number" });
  // both named: a <label> around the pair would name only the slider
  const slider = el("input", { type: "range", min: String(lo), max: String(hi), step: "1", class: "nu-slider", "aria-label": name }) as HTMLInputElement;
  const box = el("input", { type: "number", min: String(lo), max: String(hi), step: "1", class: "nu-input nu-value", "aria-label": name }) as HTMLInputElement;
  if (optional) box.placeholder = L.leftOut;
  // a number left out is sent as nothing (keep speed, the least turn, the rules' default): the slider says so, as the
  // box does, and is marked unset (`data-value` ""; the page draws it without a thumb), for a thumb at its least
  // value read as that value chosen
  const unset = (left: boolean) => {
    wrap.dataset.value = left ? "" : box.value;
    if (left && optional) slider.setAttribute("aria-valuetext", L.leftOut);
    else slider.removeAttribute("aria-valuetext");
  };
  const show = (v: number | undefined) => {
    box.value = v === undefined ? "" : String(v);
    slider.value = String(v ?? lo);
    unset(v === undefined);
  };
  show(value);
  slider.addEventListener("input", () => {
    show(Number(slider.value));
    set(Number(slider.value));
  });
  // a number left out has the slider at its least, unseen: a click there moves nothing, so no `input` says it was chosen
  slider.addEventListener("click", () => {
    if (box.value !== "") return;
    show(Number(slider.value));
    set(Number(slider.value));
  });
  box.addEventListener("input", () => {
    const v = box.value === "" ? undefined : Number(box.value);
    if (v !== undefined) slider.value = String(v);
    unset(v === undefined);
    set(v === undefined && !optional ? NaN : v);
  });
  wrap.append(slider, " ", box, unit ? ` ${unit}` : "");
  return wrap;
}

function caption(label: string, rulebook: string | null | undefined): Node {
  const span = el("span", { class: "nu-label" }, label);
  if (rulebook && rulebook !== label) span.append(" ", el("span", { class: "nu-rulebook", lang: "" }, `(${rulebook})`));
  return span;
}

function optionText(o: Option): string {
  return o.rulebook && o.rulebook !== o.label ? `${o.label} (${o.rulebook})` : o.label;
}

function option(value: string, text: string, selected: boolean): HTMLOptionElement {
  const o = el("option", { value }) as HTMLOptionElement;
  o.textContent = text;
  o.selected = selected;
  return o;
}

/** A button; `name`, where its text alone ("add", "remove") does not say what it acts on. */
function button(text: string, cls: string, disabled: boolean, onClick: () => void, name?: string): HTMLButtonElement {
  const b = el("button", { type: "button", class: cls }) as HTMLButtonElement;
  if (name) b.setAttribute("aria-label", name);
  b.textContent = text;
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

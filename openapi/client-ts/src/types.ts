/**
 * The API's types by name (`@naval-umpire/client/types`), every one taken from the generated ./api.ts: nothing here
 * is written by hand but the names. The decision descriptors' types (`Ui`, `Form`, `Select`, …) are named once, in
 * ./decisions.ts, and exported from `@naval-umpire/client/decisions`.
 */
import type { components, operations, paths } from "./api.js";

export type { components, operations, paths };

export type Schemas = components["schemas"];
export type Root = Schemas["Root"];
export type RulesetList = Schemas["RulesetList"];
export type RulesetInfo = Schemas["RulesetInfo"];
export type CreateGame = Schemas["CreateGame"];
export type GameCreated = Schemas["GameCreatedOut"];
export type GamesPage = Schemas["GamesPage"];
export type GameListItem = Schemas["GameListItem"];
export type GameSummary = Schemas["GameSummary"];
export type Seat = Schemas["Seat"];
export type SeatCredential = Schemas["SeatCredential"];
export type Me = Schemas["Me"];
export type Ticket = Schemas["Ticket"];
export type CommandSpec = Schemas["CommandSpec"];
export type Command = Schemas["Command"];
export type CommandResult = Schemas["CommandResult"];
export type Event = Schemas["Event"];
export type EventsPage = Schemas["EventsPage"];
export type Since = Schemas["Since"];
export type RollsPage = Schemas["RollsPage"];
export type RollOut = Schemas["RollOut"];
export type View = Schemas["View"];
export type Bundle = Schemas["Bundle"];
export type BundleUpload = Schemas["BundleUpload"];
export type VerifyReport = Schemas["VerifyReport"];
export type ForkGame = Schemas["ForkGame"];
export type OddsRequest = Schemas["OddsRequest"];
export type OddsJob = Schemas["OddsJob"];
export type JobProgress = Schemas["JobProgress"];
export type SeedRequest = Schemas["SeedRequest"];
export type Invitation = Schemas["Invitation"];
export type ChangeDeadlines = Schemas["ChangeDeadlines"];
export type Deadlines = Schemas["Deadlines"];
export type NotificationRegistered = Schemas["NotificationRegistered"];
export type Notifications = Schemas["Notifications"];
export type Delivery = Schemas["Delivery"];
export type SecretRotated = Schemas["SecretRotated"];
export type PingQueued = Schemas["PingQueued"];
export type Health = Schemas["Health"];
export type StreamMessage = Schemas["StreamData"]; // the JSON in a game stream message's data
export type StreamState = Schemas["StreamState"];
export type ProblemBody = Schemas["Problem"];
export type { Ui, Form, Control, Select, Pick, NumberControl, Text, Items, Item, Repeat, Group, Variants, Variant, Option, MoveForm, FireForm, StepsForm, SidesForm } from "./decisions.js";

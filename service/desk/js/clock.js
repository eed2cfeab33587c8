// @ts-check
// The turn clock in words (docs/api.md "Deadlines"), one wording for the referee's card and a player's page.

/** What a seat's time running out makes act (`on_expiry`), as a choice. @type {Record<string, string>} */
export const ON_EXPIRY = {
  bot: "the bot decides",
  default: "its default is sent",
  forfeit: "it concedes",
};

/** The same in a sentence, "when a seat's runs out, …". @type {Record<string, string>} */
export const EXPIRED = {
  bot: "the bot decides for it",
  default: "its default is sent (else the bot decides)",
  forfeit: "it concedes where the rules let it (else the bot decides)",
};

/** A number of seconds in words, exactly: hours, minutes and seconds (a turn of 90 s is "1 min 30 s").
 * @param {number} seconds */
export function duration(seconds) {
  /** @type {[number, string][]} */
  const parts = [[Math.floor(seconds / 3600), "h"], [Math.floor((seconds % 3600) / 60), "min"], [seconds % 60, "s"]];
  return parts.filter(([n]) => n).map(([n, unit]) => `${n} ${unit}`).join(" ") || "0 s";
}

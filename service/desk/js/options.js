// @ts-check
// A new game's options as fields, read from its ruleset's `options_schema` (GET /rulesets/{id}): the options that are
// one value (yes or no, one of a list, a whole number, a name) each get a field; the rest (a data set of one's own,
// submarines by zone) are set as JSON only. The lobby's JSON box stays the one place the options are kept: a field
// writes its option there (`withOption`), and what is typed there shows in the fields (`shown`). Pure (no DOM): the
// node tests (tests/desk/options.test.mjs) run it on the four rulesets' schemas.

/** @typedef {{[key: string]: unknown}} Options */
/**
 * @typedef {object} OptionField
 * @property {string} key the option's name
 * @property {"yes-no" | "one-of" | "number" | "text"} kind
 * @property {string} description the schema's, a sentence for the user
 * @property {unknown} default what the option is when left out (undefined: the ruleset decides, e.g. aa1942's setup)
 * @property {boolean} nullable whether null is one of its values (an empty field), as `convoys: null` is
 * @property {unknown[]} [choices] a one-of's values
 * @property {number} [min] a number's bounds
 * @property {number} [max]
 * @property {string[]} [examples] a text's suggestions
 */

/** @typedef {{[key: string]: any}} Schema */

/**
 * The fields of an options schema, in its order; an option that is not one value has none.
 * @param {Schema | null | undefined} schema @returns {OptionField[]}
 */
export function optionFields(schema) {
  const root = schema?.$ref ? schema.$defs?.[String(schema.$ref).split("/").pop() ?? ""] : schema;
  /** @type {OptionField[]} */
  const out = [];
  for (const [key, p] of Object.entries(root?.properties ?? {})) {
    const alternatives = /** @type {Schema[]} */ (p.anyOf ?? [p]);
    const nullable = alternatives.some((a) => a.type === "null");
    const real = alternatives.filter((a) => a.type !== "null");
    if (real.length !== 1) continue;
    const [one] = real;
    /** @type {OptionField} */
    const field = { key, kind: "text", description: p.description ?? "", default: p.default, nullable };
    if (Array.isArray(one.enum)) Object.assign(field, { kind: "one-of", choices: one.enum });
    else if (one.type === "boolean") field.kind = "yes-no";
    else if (one.type === "integer") Object.assign(field, { kind: "number", min: one.minimum, max: one.maximum });
    else if (one.type === "string") field.examples = p.examples ?? one.examples ?? [];
    else continue; // an object or a list: JSON only
    out.push(field);
  }
  return out;
}

/**
 * What a field shows for these options: a yes-no its tick, the others their text ("" for left out with no default of
 * one value, or null).
 * @param {Options} options @param {OptionField} field @returns {boolean | string}
 */
export function shown(options, field) {
  const value = field.key in options ? options[field.key] : field.default;
  if (field.kind === "yes-no") return value === true;
  return value === null || value === undefined ? "" : String(value);
}

/**
 * The options with a field's entry as the user left it: `raw` a tick or the field's text. An entry equal to the
 * option's default is left out (the API's "each one left out takes its default"), and so is an empty one, but for a
 * nullable option whose default is not null, where empty is null.
 * @param {Options} options @param {OptionField} field @param {boolean | string} raw @returns {Options}
 */
export function withOption(options, field, raw) {
  /** @type {unknown} */
  let value;
  if (field.kind === "yes-no") value = raw === true;
  else if (raw === "") value = field.nullable && field.default !== null && field.default !== undefined ? null : undefined;
  else if (field.kind === "number") value = Number(raw);
  else if (field.kind === "one-of") value = field.choices?.find((c) => String(c) === raw) ?? raw;
  else value = raw;
  const out = { ...options };
  if (value === undefined || value === field.default) delete out[field.key];
  else out[field.key] = value;
  return out;
}

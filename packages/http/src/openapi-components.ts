/**
 * Named schemas of an OpenAPI document: every schema of the operations that carries a `title`
 * (`Type.Object({...}, { title: 'Property' })`) becomes `components.schemas.<title>` (without
 * the title, which the name now says) and is replaced by a `$ref` wherever it appears, so
 * generated clients get named types. The title is only an annotation: validation and
 * serialization never read it, so the wire is the same.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Values that are data, not schemas: a `title` in them names nothing. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The same JSON whatever the order of its keys, to compare two occurrences of a schema. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`).join(',')}}`;
}

/**
 * Hoists the titled schemas of `paths` into `schemas` (returned sorted by name after those already
 * there). Two different schemas with the same title are a mistake in the code: it throws, naming
 * both places; the same schema with another `description` is a `$ref` with that description.
 */
export function nameTitledSchemas(
  paths: Record<string, unknown>,
  existing: Record<string, unknown>,
): { paths: Record<string, unknown>; schemas: Record<string, unknown> } {
  const named = new Map<string, { schema: JsonObject; canonical: string; at: string }>();
  const visit = (value: Json, at: string): Json => {
    if (Array.isArray(value)) return value.map((item, index) => visit(item, `${at}/${index}`));
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value))
      out[key] = DATA_KEYWORDS.has(key) ? child : visit(child, `${at}/${key}`);
    const title = out.title;
    if (typeof title !== 'string' || !('type' in out || 'anyOf' in out || 'oneOf' in out || 'allOf' in out)) return out;
    const { title: _title, ...schema } = out;
    const { description, ...described } = schema;
    const seen = named.get(title);
    const text = canonical(described);
    if (seen && seen.canonical !== text)
      throw new Error(`two different schemas are titled ${title}: at ${seen.at} and at ${at}`);
    if (!seen && title in existing) throw new Error(`schema title ${title} at ${at} is already a component`);
    if (!seen) named.set(title, { schema, canonical: text, at });
    const ref = { $ref: `#/components/schemas/${title}` };
    // The same schema described for its place (`{...ProspectInputSchema, description}`): a $ref with
    // its own description, which OpenAPI 3.1 allows next to it.
    const own = seen ? seen.schema.description : description;
    return description !== undefined && description !== own ? { ...ref, description } : ref;
  };
  const rewritten = visit(paths as JsonObject, '#/paths') as Record<string, unknown>;
  const added = [...named.keys()].sort().map((name) => [name, named.get(name)!.schema] as const);
  return { paths: rewritten, schemas: { ...existing, ...Object.fromEntries(added) } };
}

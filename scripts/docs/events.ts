import { cell } from './sections.js';

/** The JSON Schema subset the event catalogues use (TypeBox output). */
interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

interface EventDefinition {
  type: string;
  description: string;
  scope: string;
  data: unknown;
}

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' or ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array')
    return schema.items?.type === 'object'
      ? 'array of objects'
      : `array of ${schema.items ? typeOf(schema.items) : 'values'}`;
  if (schema.type === 'object') return 'object';
  const bounds =
    schema.minimum !== undefined && schema.maximum !== undefined ? ` ${schema.minimum}–${schema.maximum}` : '';
  return `${schema.type ?? 'any'}${schema.format ? ` (${schema.format})` : ''}${bounds}`;
}

function rows(schema: JsonSchema, prefix: string): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const optional = required.has(name) ? '' : ' (optional)';
    const row = `| \`${path}\` | ${cell(typeOf(field))}${optional} | ${cell(field.description ?? '')} |`;
    if (field.type === 'object') return [row, ...rows(field, `${path}.`)];
    if (field.type === 'array' && field.items?.type === 'object') return [row, ...rows(field.items, `${path}[].`)];
    return [row];
  });
}

/** One section per event type of a catalogue: description, scope and the fields of `data`. */
export function renderEvents(catalogue: readonly EventDefinition[]): string {
  return catalogue
    .map((event) =>
      [
        `#### \`${event.type}\``,
        '',
        `${event.description} Subscribing needs \`${event.scope}\`.`,
        '',
        '| `data` field | Type | Description |',
        '|---|---|---|',
        ...rows(event.data as JsonSchema, ''),
      ].join('\n'),
    )
    .join('\n\n');
}

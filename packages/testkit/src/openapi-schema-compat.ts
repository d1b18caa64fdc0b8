import { child, entries, isObject, items, type Json, type Node } from './openapi-json.js';

/**
 * `request`: the client writes, the server reads — the new schema must accept everything the
 * committed one accepted. `response`: the server writes, the client reads — the new schema must
 * keep every field and produce no type the committed one did not declare.
 */
export type Direction = 'request' | 'response';

export type BreakingRule =
  | 'operation-removed'
  | 'response-removed'
  | 'media-type-removed'
  | 'header-removed'
  | 'parameter-removed'
  | 'parameter-added-required'
  | 'parameter-became-required'
  | 'request-body-became-required'
  | 'field-removed'
  | 'field-added-required'
  | 'field-became-required'
  | 'field-became-optional'
  | 'type-narrowed'
  | 'type-changed'
  | 'enum-value-removed'
  | 'limit-tightened';

export interface BreakingChange {
  rule: BreakingRule;
  /** `METHOD /path` of the first operation through which the change was found. */
  operation: string;
  /** JSON pointer: into the committed document for something removed, into the new one otherwise. */
  pointer: string;
  message: string;
}

export interface CompareContext {
  operation: string;
  report(change: BreakingChange): void;
  /** Pairs of schemas already compared (shared components are compared once; cycles end). */
  compared: Set<string>;
}

const UPPER_LIMITS = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'];
const LOWER_LIMITS = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'];

export function compareSchemas(before: Node, after: Node, direction: Direction, context: CompareContext): void {
  const key = `${direction} ${before.pointer} ${after.pointer}`;
  if (context.compared.has(key)) return;
  context.compared.add(key);
  const report = (rule: BreakingRule, pointer: string, message: string) =>
    context.report({ rule, operation: context.operation, pointer, message });

  const old = flatten(before);
  const now = flatten(after);
  if (!compareTypes(old.types, now.types, direction, after.pointer, report)) return;
  if (direction === 'request') compareRequestConstraints(old.schema, now.schema, report);
  compareProperties(old.schema, now.schema, direction, context, report);
  const [oldItems, newItems] = [child(old.schema, 'items'), child(now.schema, 'items')];
  if (oldItems && newItems) compareSchemas(oldItems, newItems, direction, context);
  const [oldExtra, newExtra] = [child(old.schema, 'additionalProperties'), child(now.schema, 'additionalProperties')];
  if (oldExtra && newExtra) compareSchemas(oldExtra, newExtra, direction, context);
  compareBranches(old.schema, now.schema, direction, context, report);
}

type Report = (rule: BreakingRule, pointer: string, message: string) => void;

/** A schema's types (null: any), with a nullable `anyOf: [X, {type: 'null'}]` read as X plus null. */
function flatten(node: Node): { schema: Node; types: Set<string> | null } {
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = items(node, keyword);
    if (branches.length === 0) continue;
    const nonNull = branches.filter(
      (branch) => !(branch.value.type === 'null' && Object.keys(branch.value).length === 1),
    );
    if (nonNull.length === 1 && branches.length > 1) {
      const inner = flatten(nonNull[0]);
      return { schema: inner.schema, types: inner.types && new Set([...inner.types, 'null']) };
    }
    const types = branches.map((branch) => flatten(branch).types);
    return {
      schema: node,
      types: types.some((set) => set === null) ? null : new Set(types.flatMap((set) => [...(set ?? [])])),
    };
  }
  const type = node.value.type;
  if (typeof type === 'string') return { schema: node, types: new Set([type]) };
  if (Array.isArray(type))
    return { schema: node, types: new Set(type.filter((item): item is string => typeof item === 'string')) };
  return { schema: node, types: null };
}

function admits(types: Set<string> | null, type: string): boolean {
  return types === null || types.has(type) || (type === 'integer' && types.has('number'));
}

/** Reports a type change; false when the types have nothing in common (nothing deeper is worth comparing). */
function compareTypes(
  old: Set<string> | null,
  now: Set<string> | null,
  direction: Direction,
  pointer: string,
  report: Report,
): boolean {
  const describe = (types: Set<string> | null) => (types ? [...types].join(' | ') : 'any');
  const [wider, narrower] = direction === 'request' ? [old, now] : [now, old];
  const lost =
    wider === null ? (narrower === null ? [] : ['any']) : [...wider].filter((type) => !admits(narrower, type));
  if (lost.length === 0) return true;
  const overlap =
    old === null ||
    now === null ||
    [...old].some((type) => admits(now, type)) ||
    [...now].some((type) => admits(old, type));
  if (direction === 'request')
    report(
      'type-narrowed',
      pointer,
      `request ${fieldOf(pointer)}: type narrowed from ${describe(old)} to ${describe(now)}`,
    );
  else
    report(
      'type-changed',
      pointer,
      `response ${fieldOf(pointer)}: type changed from ${describe(old)} to ${describe(now)}`,
    );
  return overlap;
}

function compareRequestConstraints(before: Node, after: Node, report: Report): void {
  const [old, now] = [before.value, after.value];
  const oldEnum = enumValues(old);
  const newEnum = enumValues(now);
  const subject = `request ${fieldOf(after.pointer)}`;
  if (newEnum && !oldEnum)
    report('enum-value-removed', `${after.pointer}/enum`, `${subject} now restricted to ${JSON.stringify(newEnum)}`);
  if (newEnum && oldEnum) {
    const kept = new Set(newEnum.map((value) => JSON.stringify(value)));
    for (const value of oldEnum.filter((item) => !kept.has(JSON.stringify(item)))) {
      report(
        'enum-value-removed',
        `${after.pointer}/enum`,
        `${subject} no longer accepts the value ${JSON.stringify(value)}`,
      );
    }
  }
  const limit = (keyword: string, tighter: (was: number, is: number) => boolean) => {
    const is = now[keyword];
    const was = old[keyword];
    if (typeof is !== 'number') return;
    if (typeof was !== 'number' || tighter(was, is))
      report(
        'limit-tightened',
        `${after.pointer}/${keyword}`,
        `${subject}: ${keyword} tightened from ${was ?? 'none'} to ${is}`,
      );
  };
  for (const keyword of UPPER_LIMITS) limit(keyword, (was, is) => is < was);
  for (const keyword of LOWER_LIMITS) limit(keyword, (was, is) => is > was);
  limit('multipleOf', (was, is) => was % is !== 0);
  for (const keyword of ['pattern', 'format']) {
    if (now[keyword] !== undefined && now[keyword] !== old[keyword]) {
      report(
        'limit-tightened',
        `${after.pointer}/${keyword}`,
        `${subject}: ${keyword} changed from ${JSON.stringify(old[keyword] ?? null)} to ${JSON.stringify(now[keyword])}`,
      );
    }
  }
  if (now.uniqueItems === true && old.uniqueItems !== true)
    report('limit-tightened', `${after.pointer}/uniqueItems`, `${subject}: items must now be unique`);
  if (now.additionalProperties === false && old.additionalProperties !== false && hasObjectType(old)) {
    report(
      'limit-tightened',
      `${after.pointer}/additionalProperties`,
      `${subject}: no longer accepts undeclared properties`,
    );
  }
}

/** `field 'name'` for a schema under `properties`, else `value` (a parameter, an array item…). */
function fieldOf(pointer: string): string {
  const match = /\/properties\/([^/]+)$/.exec(pointer);
  return match ? `field '${match[1].replace(/~1/g, '/').replace(/~0/g, '~')}'` : 'value';
}

function enumValues(schema: Record<string, Json>): Json[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return 'const' in schema ? [schema.const] : undefined;
}

function hasObjectType(schema: Record<string, Json>): boolean {
  return (
    schema.type === 'object' ||
    (Array.isArray(schema.type) && schema.type.includes('object')) ||
    isObject(schema.properties)
  );
}

function compareProperties(
  before: Node,
  after: Node,
  direction: Direction,
  context: CompareContext,
  report: Report,
): void {
  const oldProperties = entries(child(before, 'properties'));
  const newProperties = entries(child(after, 'properties'));
  const oldRequired = requiredNames(before);
  const newRequired = requiredNames(after);
  for (const [name, oldProperty] of oldProperties) {
    const newProperty = newProperties.get(name);
    if (!newProperty) {
      report('field-removed', oldProperty.pointer, `${direction} field '${name}' removed`);
      continue;
    }
    if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name)) {
      report(
        'field-became-optional',
        `${after.pointer}/required`,
        `response field '${name}' is no longer always present`,
      );
    }
    compareSchemas(oldProperty, newProperty, direction, context);
  }
  if (direction !== 'request') return;
  for (const name of newRequired) {
    if (oldRequired.has(name)) continue;
    if (oldProperties.has(name))
      report('field-became-required', `${after.pointer}/required`, `request field '${name}' became required`);
    else report('field-added-required', `${after.pointer}/required`, `new required request field '${name}'`);
  }
}

function requiredNames(node: Node): Set<string> {
  const required = node.value.required;
  return new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : []);
}

/** Unions other than "X or null" are compared branch by branch, in order. */
function compareBranches(
  before: Node,
  after: Node,
  direction: Direction,
  context: CompareContext,
  report: Report,
): void {
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const oldBranches = items(before, keyword);
    const newBranches = items(after, keyword);
    const union = keyword !== 'allOf' && oldBranches.length > 0 && newBranches.length > 0;
    if (union && direction === 'request' && newBranches.length < oldBranches.length) {
      report(
        'type-narrowed',
        `${after.pointer}/${keyword}`,
        `request accepts ${newBranches.length} of the ${oldBranches.length} alternatives it accepted`,
      );
    }
    if (union && direction === 'response' && newBranches.length > oldBranches.length) {
      report(
        'type-changed',
        `${after.pointer}/${keyword}`,
        `response may take ${newBranches.length} alternatives instead of ${oldBranches.length}`,
      );
    }
    for (let index = 0; index < Math.min(oldBranches.length, newBranches.length); index += 1) {
      compareSchemas(oldBranches[index], newBranches[index], direction, context);
    }
  }
}

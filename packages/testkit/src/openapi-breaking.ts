import {
  child,
  entries,
  escapePointer,
  isObject,
  items,
  type Json,
  type JsonObject,
  type Node,
} from './openapi-json.js';
import {
  compareSchemas,
  type BreakingChange,
  type BreakingRule,
  type CompareContext,
} from './openapi-schema-compat.js';

export type { BreakingChange, BreakingRule } from './openapi-schema-compat.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

interface Operation {
  label: string;
  node: Node;
  /** Path-item and operation parameters by `in:name`; path parameters by position (a renamed path variable is no change). */
  parameters: Map<string, Node>;
}

/**
 * The breaking changes from the committed OpenAPI 3.1 document `before` to `after`, under
 * docs/versioning.md: a removed operation, success response, media type, response header,
 * parameter or field; a new required parameter or request field; a narrowed request type
 * (fewer types or enum values, a tighter limit, pattern or format); a changed response type
 * or a response field that is no longer always present. Additions of optional things pass.
 */
export function findBreakingChanges(before: unknown, after: unknown): BreakingChange[] {
  const oldOperations = operations(asDocument(before, 'committed'));
  const newOperations = operations(asDocument(after, 'new'));
  const found = new Map<string, BreakingChange>();
  const compared = new Set<string>();
  for (const [key, old] of oldOperations) {
    const context: CompareContext = {
      operation: old.label,
      compared,
      report: (change) => found.set(`${change.rule} ${change.pointer} ${change.message}`, change),
    };
    const now = newOperations.get(key);
    if (now) compareOperations(old, now, context);
    else
      context.report({
        rule: 'operation-removed',
        operation: old.label,
        pointer: old.node.pointer,
        message: 'operation removed',
      });
  }
  return [...found.values()];
}

/** One line per change, for test failures and the command line. */
export function formatBreakingChanges(changes: BreakingChange[]): string {
  return changes
    .map((change) => `  - ${change.operation}: ${change.message} [${change.rule}] at ${change.pointer}`)
    .join('\n');
}

function asDocument(value: unknown, which: string): JsonObject {
  if (!isObject(value as Json) || !isObject((value as JsonObject).paths))
    throw new Error(`the ${which} document is not an OpenAPI document (no paths object)`);
  return value as JsonObject;
}

function operations(document: JsonObject): Map<string, Operation> {
  const root: Node = { document, value: document, pointer: '' };
  const result = new Map<string, Operation>();
  for (const [path, item] of entries(child(root, 'paths'))) {
    const variables = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    for (const method of METHODS) {
      const node = child(item, method);
      if (!node) continue;
      const parameters = new Map<string, Node>();
      for (const parameter of [...items(item, 'parameters'), ...items(node, 'parameters')]) {
        const { in: location, name } = parameter.value;
        if (typeof location !== 'string' || typeof name !== 'string') continue;
        const key =
          location === 'path'
            ? `path:#${variables.indexOf(name)}`
            : `${location}:${location === 'header' ? name.toLowerCase() : name}`;
        parameters.set(key, parameter);
      }
      result.set(`${method} ${shape}`, { label: `${method.toUpperCase()} ${path}`, node, parameters });
    }
  }
  return result;
}

function compareOperations(old: Operation, now: Operation, context: CompareContext): void {
  const report = (rule: BreakingRule, pointer: string, message: string) =>
    context.report({ rule, operation: context.operation, pointer, message });
  for (const [key, oldParameter] of old.parameters) {
    const newParameter = now.parameters.get(key);
    const name = `${oldParameter.value.in} parameter '${String(oldParameter.value.name)}'`;
    if (!newParameter) {
      report('parameter-removed', oldParameter.pointer, `${name} removed`);
      continue;
    }
    if (newParameter.value.required === true && oldParameter.value.required !== true)
      report('parameter-became-required', newParameter.pointer, `${name} became required`);
    const [oldSchema, newSchema] = [child(oldParameter, 'schema'), child(newParameter, 'schema')];
    if (oldSchema && newSchema) compareSchemas(oldSchema, newSchema, 'request', context);
  }
  for (const [key, newParameter] of now.parameters) {
    if (!old.parameters.has(key) && newParameter.value.required === true) {
      report(
        'parameter-added-required',
        newParameter.pointer,
        `new required ${newParameter.value.in} parameter '${String(newParameter.value.name)}'`,
      );
    }
  }
  compareRequestBodies(child(old.node, 'requestBody'), child(now.node, 'requestBody'), context, report);
  compareResponses(old, now, context, report);
}

type Report = (rule: BreakingRule, pointer: string, message: string) => void;

function compareRequestBodies(
  old: Node | undefined,
  now: Node | undefined,
  context: CompareContext,
  report: Report,
): void {
  if (now?.value.required === true && old?.value.required !== true)
    report('request-body-became-required', now.pointer, 'request body became required');
  if (old) compareContent(old, now, 'request', context, report);
}

function compareResponses(old: Operation, now: Operation, context: CompareContext, report: Report): void {
  const newResponses = entries(child(now.node, 'responses'));
  for (const [status, oldResponse] of entries(child(old.node, 'responses'))) {
    const newResponse = newResponses.get(status);
    if (!newResponse) {
      // A documented error status may go away; a success response may not.
      if (status.startsWith('2')) report('response-removed', oldResponse.pointer, `response ${status} removed`);
      continue;
    }
    const newHeaders = new Map(
      [...entries(child(newResponse, 'headers'))].map(([name, header]) => [name.toLowerCase(), header]),
    );
    for (const [name, oldHeader] of entries(child(oldResponse, 'headers'))) {
      const newHeader = newHeaders.get(name.toLowerCase());
      if (!newHeader) {
        report('header-removed', oldHeader.pointer, `response ${status} header '${name}' removed`);
        continue;
      }
      const [oldSchema, newSchema] = [child(oldHeader, 'schema'), child(newHeader, 'schema')];
      if (oldSchema && newSchema) compareSchemas(oldSchema, newSchema, 'response', context);
    }
    compareContent(oldResponse, newResponse, `response ${status}`, context, report);
  }
}

function compareContent(old: Node, now: Node | undefined, what: string, context: CompareContext, report: Report): void {
  const direction = what === 'request' ? 'request' : 'response';
  const newContent = entries(now && child(now, 'content'));
  for (const [mediaType, oldMedia] of entries(child(old, 'content'))) {
    const newMedia = newContent.get(mediaType);
    if (!newMedia) {
      report(
        'media-type-removed',
        `${old.pointer}/content/${escapePointer(mediaType)}`,
        `${what} media type ${mediaType} removed`,
      );
      continue;
    }
    const [oldSchema, newSchema] = [child(oldMedia, 'schema'), child(newMedia, 'schema')];
    if (oldSchema && newSchema) compareSchemas(oldSchema, newSchema, direction, context);
  }
}

/** JSON values of an OpenAPI document, and places in it named by JSON pointer (RFC 6901). */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** A node of a document together with its pointer; `$ref`s are followed when the node is made. */
export interface Node {
  readonly document: JsonObject;
  readonly value: JsonObject;
  readonly pointer: string;
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The node at `pointer`, through any chain of local `$ref`s; undefined when the value is not an object. */
export function nodeAt(document: JsonObject, value: Json | undefined, pointer: string): Node | undefined {
  const seen = new Set<string>();
  while (isObject(value) && typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (!ref.startsWith('#/')) throw new Error(`${pointer}: only local $refs are supported, found ${ref}`);
    if (seen.has(ref)) throw new Error(`${pointer}: $ref cycle through ${ref}`);
    seen.add(ref);
    pointer = ref.slice(1);
    value = lookUp(document, pointer);
    if (value === undefined) throw new Error(`${ref} does not exist in the document`);
  }
  return isObject(value) ? { document, value, pointer } : undefined;
}

function lookUp(document: JsonObject, pointer: string): Json | undefined {
  let current: Json | undefined = document;
  for (const token of pointer.split('/').slice(1).map(unescapePointer)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** The child object `key` of a node (following `$ref`), or undefined. */
export function child(node: Node, ...keys: string[]): Node | undefined {
  let current: Node | undefined = node;
  for (const key of keys) {
    if (!current) return undefined;
    current = nodeAt(current.document, current.value[key], `${current.pointer}/${escapePointer(key)}`);
  }
  return current;
}

/** The object children of a map-like node (`properties`, `paths`, `responses`, `content`…). */
export function entries(node: Node | undefined): Map<string, Node> {
  const result = new Map<string, Node>();
  if (!node) return result;
  for (const key of Object.keys(node.value)) {
    const found = child(node, key);
    if (found) result.set(key, found);
  }
  return result;
}

/** The object items of an array-valued key (`parameters`, `anyOf`…). */
export function items(node: Node, key: string): Node[] {
  const list = node.value[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap(
    (item, index) => nodeAt(node.document, item, `${node.pointer}/${escapePointer(key)}/${index}`) ?? [],
  );
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findBreakingChanges, type BreakingRule } from '../src/openapi-breaking.js';
import type { Json, JsonObject } from '../src/openapi-json.js';

// A small committed document: listings with a shared response schema and a request schema.
const committed: JsonObject = {
  openapi: '3.1.0',
  info: { title: 'Listings', version: '1.0.0' },
  components: {
    schemas: {
      Listing: {
        type: 'object',
        required: ['id', 'title'],
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          state: { type: 'string', enum: ['draft', 'live'] },
          price: { type: ['number', 'null'] },
        },
      },
      ListingInput: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200 },
          state: { type: 'string', enum: ['draft', 'live'] },
          notes: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          rooms: { type: 'integer', minimum: 0, maximum: 50 },
        },
      },
    },
  },
  paths: {
    '/v1/listings': {
      get: {
        parameters: [
          { in: 'query', name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
        ],
        responses: {
          '200': {
            description: 'A page',
            headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Listing' } } },
            },
          },
          '400': { description: 'Bad query' },
        },
      },
      post: {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ListingInput' } } },
        },
        responses: {
          '201': {
            description: 'Created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Listing' } } },
          },
        },
      },
    },
    '/v1/listings/{id}': {
      parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': {
            description: 'One',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Listing' } } },
          },
        },
      },
      delete: {
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { reason: { type: 'string' } } } } },
        },
        responses: { '204': { description: 'Gone' } },
      },
    },
  },
};

const INPUT = '/components/schemas/ListingInput';
const LISTING = '/components/schemas/Listing';
const LIST = '/paths/~1v1~1listings/get';
const ONE = '/paths/~1v1~1listings~1{id}';

/** Edits by JSON pointer: a value sets, `undefined` removes. */
type Edit = [pointer: string, value: Json | undefined];

function edited(...edits: Edit[]): JsonObject {
  const document = structuredClone(committed);
  for (const [pointer, value] of edits) {
    const tokens = pointer
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop() as string;
    const parent = tokens.reduce<Json>((node, token) => (node as JsonObject)[token], document) as JsonObject | Json[];
    if (Array.isArray(parent)) {
      if (value === undefined) parent.splice(Number(last), 1);
      else parent[Number(last)] = value;
    } else if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return document;
}

const rules = (after: JsonObject) => findBreakingChanges(committed, after).map((change) => change.rule);

describe('breaking: each case has a passing and a failing change', () => {
  it.each<[string, Edit[], BreakingRule[]]>([
    ['an added operation passes', [[`${ONE}/patch`, { responses: { '200': { description: 'Updated' } } }]], []],
    ['a removed operation fails', [[`${ONE}/delete`, undefined]], ['operation-removed']],
    ['an added optional response field passes', [[`${LISTING}/properties/city`, { type: 'string' }]], []],
    ['a removed response field fails', [[`${LISTING}/properties/price`, undefined]], ['field-removed']],
    [
      'a response field still present passes when it becomes required',
      [[`${LISTING}/required`, ['id', 'title', 'state']]],
      [],
    ],
    [
      'a response field that is no longer always present fails',
      [[`${LISTING}/required`, ['id']]],
      ['field-became-optional'],
    ],
    ['an added optional request field passes', [[`${INPUT}/properties/city`, { type: 'string' }]], []],
    [
      'a renamed request field fails',
      [
        [`${INPUT}/properties/rooms`, undefined],
        [`${INPUT}/properties/room_count`, { type: 'integer' }],
      ],
      ['field-removed'],
    ],
    [
      'a new required request field fails',
      [
        [`${INPUT}/properties/city`, { type: 'string' }],
        [`${INPUT}/required`, ['title', 'city']],
      ],
      ['field-added-required'],
    ],
    [
      'an optional request field that becomes required fails',
      [[`${INPUT}/required`, ['title', 'state']]],
      ['field-became-required'],
    ],
    ['a required request field that becomes optional passes', [[`${INPUT}/required`, []]], []],
    ['a widened request type passes', [[`${INPUT}/properties/title/type`, ['string', 'null']]], []],
    ['a narrowed request type fails', [[`${INPUT}/properties/notes`, { type: 'string' }]], ['type-narrowed']],
    ['integer to number in a request passes', [[`${INPUT}/properties/rooms/type`, 'number']], []],
    [
      'number to integer in a request fails',
      [
        [
          '/paths/~1v1~1listings~1{id}/delete/requestBody/content/application~1json/schema/properties/reason/type',
          'integer',
        ],
      ],
      ['type-narrowed'],
    ],
    ['a response type that drops null passes', [[`${LISTING}/properties/price/type`, 'number']], []],
    ['a changed response type fails', [[`${LISTING}/properties/id/type`, 'integer']], ['type-changed']],
    [
      'a response type that may now be null fails',
      [[`${LISTING}/properties/title/type`, ['string', 'null']]],
      ['type-changed'],
    ],
    ['an added request enum value passes', [[`${INPUT}/properties/state/enum`, ['draft', 'live', 'archived']]], []],
    ['a removed request enum value fails', [[`${INPUT}/properties/state/enum`, ['draft']]], ['enum-value-removed']],
    [
      'a new enum on a free request string fails',
      [[`${INPUT}/properties/notes/anyOf/0/enum`, ['a', 'b']]],
      ['enum-value-removed'],
    ],
    [
      'an added response enum value passes (clients must tolerate unknown values)',
      [[`${LISTING}/properties/state/enum`, ['draft', 'live', 'sold']]],
      [],
    ],
    [
      'a looser request limit passes',
      [
        [`${INPUT}/properties/title/maxLength`, 500],
        [`${INPUT}/properties/rooms/minimum`, -1],
      ],
      [],
    ],
    ['a tighter request maxLength fails', [[`${INPUT}/properties/title/maxLength`, 100]], ['limit-tightened']],
    ['a raised request minimum fails', [[`${INPUT}/properties/rooms/minimum`, 1]], ['limit-tightened']],
    ['a new request pattern fails', [[`${INPUT}/properties/title/pattern`, '^[A-Z]']], ['limit-tightened']],
    ['a tighter query parameter maximum fails', [[`${LIST}/parameters/0/schema/maximum`, 50]], ['limit-tightened']],
    ['a tighter limit on a response field passes', [[`${LISTING}/properties/title/maxLength`, 10]], []],
    [
      'a new optional query parameter passes',
      [[`${LIST}/parameters/1`, { in: 'query', name: 'city', schema: { type: 'string' } }]],
      [],
    ],
    [
      'a new required query parameter fails',
      [[`${LIST}/parameters/1`, { in: 'query', name: 'city', required: true, schema: { type: 'string' } }]],
      ['parameter-added-required'],
    ],
    [
      'a new required header parameter fails',
      [
        [
          `${ONE}/delete/parameters`,
          [{ in: 'header', name: 'Idempotency-Key', required: true, schema: { type: 'string' } }],
        ],
      ],
      ['parameter-added-required'],
    ],
    [
      'an optional parameter that becomes required fails',
      [[`${LIST}/parameters/0/required`, true]],
      ['parameter-became-required'],
    ],
    ['a removed query parameter fails', [[`${LIST}/parameters`, []]], ['parameter-removed']],
    [
      'a renamed path variable passes',
      [
        [ONE, undefined],
        [
          '/paths/~1v1~1listings~1{listingId}',
          {
            ...((committed.paths as JsonObject)['/v1/listings/{id}'] as JsonObject),
            parameters: [{ in: 'path', name: 'listingId', required: true, schema: { type: 'string' } }],
          },
        ],
      ],
      [],
    ],
    [
      'an optional request body that becomes required fails',
      [[`${ONE}/delete/requestBody/required`, true]],
      ['request-body-became-required'],
    ],
    [
      'an added response header passes',
      [[`${LIST}/responses/200/headers/RateLimit-Remaining`, { schema: { type: 'integer' } }]],
      [],
    ],
    ['a removed response header fails', [[`${LIST}/responses/200/headers`, {}]], ['header-removed']],
    ['a removed error response passes', [[`${LIST}/responses/400`, undefined]], []],
    [
      'a removed success response fails',
      [
        [`${LIST}/responses/200`, undefined],
        [`${LIST}/responses/206`, { description: 'Partial' }],
      ],
      ['response-removed'],
    ],
    [
      'a removed request media type fails',
      [['/paths/~1v1~1listings/post/requestBody/content', { 'text/csv': { schema: { type: 'string' } } }]],
      ['media-type-removed'],
    ],
    [
      'the nullable anyOf and the type list are the same request type',
      [[`${INPUT}/properties/notes`, { type: ['string', 'null'] }]],
      [],
    ],
    [
      'a request object that no longer accepts undeclared properties fails',
      [['/paths/~1v1~1listings~1{id}/delete/requestBody/content/application~1json/schema/additionalProperties', false]],
      ['limit-tightened'],
    ],
  ])('%s', (_name, edits, expected) => {
    expect(rules(edited(...edits))).toEqual(expected);
  });
});

describe('breaking: reports', () => {
  it('points into the shared component once, naming the first operation that reaches it', () => {
    const changes = findBreakingChanges(committed, edited([`${LISTING}/properties/title`, undefined]));
    expect(changes).toEqual([
      {
        rule: 'field-removed',
        operation: 'GET /v1/listings',
        pointer: `${LISTING}/properties/title`,
        message: "response field 'title' removed",
      },
    ]);
  });

  it('names the field and the limit', () => {
    const changes = findBreakingChanges(
      committed,
      edited([`${INPUT}/properties/title/maxLength`, 100], [`${LISTING}/properties/id/type`, 'integer']),
    );
    expect(changes.map((change) => [change.message, change.pointer])).toEqual([
      ["response field 'id': type changed from string to integer", `${LISTING}/properties/id`],
      ["request field 'title': maxLength tightened from 200 to 100", `${INPUT}/properties/title/maxLength`],
    ]);
  });

  it('points a removal into the committed document and an addition into the new one', () => {
    const removed = findBreakingChanges(committed, edited([`${ONE}/delete`, undefined]));
    expect(removed.map((change) => [change.operation, change.pointer])).toEqual([
      ['DELETE /v1/listings/{id}', `${ONE}/delete`],
    ]);
    const added = findBreakingChanges(committed, edited([`${LIST}/parameters/0/required`, true]));
    expect(added.map((change) => change.pointer)).toEqual([`${LIST}/parameters/0`]);
  });

  it('ends on a schema that refers to itself', () => {
    const tree = (extra: JsonObject): JsonObject => ({
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        ...extra,
      },
    });
    const withTree = (extra: JsonObject) =>
      edited(
        [`${INPUT}/properties/tree`, { $ref: '#/components/schemas/Node' }],
        ['/components/schemas/Node', tree(extra)],
      );
    expect(findBreakingChanges(withTree({}), withTree({ more: { type: 'string' } }))).toEqual([]);
    expect(
      findBreakingChanges(withTree({ more: { type: 'string' } }), withTree({})).map((change) => change.pointer),
    ).toEqual(['/components/schemas/Node/properties/more']);
  });

  it('refuses something that is not an OpenAPI document', () => {
    expect(() => findBreakingChanges({ openapi: '3.1.0' }, committed)).toThrow(
      'the committed document is not an OpenAPI document (no paths object)',
    );
    expect(() =>
      findBreakingChanges(
        committed,
        edited([`${LIST}/responses/200/content/application~1json/schema/items/$ref`, 'other.json#/X']),
      ),
    ).toThrow('only local $refs');
  });

  it.each(['property-api', 'leads-api', 'public-feeds-api', 'agent-platform-api'])(
    'finds nothing between openapi/%s.json and itself',
    (name) => {
      const document: unknown = JSON.parse(
        readFileSync(fileURLToPath(new URL(`../../../openapi/${name}.json`, import.meta.url)), 'utf8'),
      );
      expect(findBreakingChanges(document, structuredClone(document))).toEqual([]);
    },
  );
});

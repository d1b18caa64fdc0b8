import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ApiError, errorBody } from '../src/errors.js';
import { Nullable, StringEnum, withReadOnly } from '../src/schema-helpers.js';
import { assertValid, compileBodyValidator } from '../src/validation.js';

const schema = withReadOnly(
  Type.Object(
    {
      name: Type.String({ maxLength: 5 }),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
      kind: Type.Optional(StringEnum(['a', 'b'])),
      note: Type.Optional(Nullable(Type.String())),
      nested: Type.Optional(
        Type.Object({ code: Type.String({ pattern: '^[0-9]{2}$' }) }, { additionalProperties: false }),
      ),
      tags: Type.Optional(Type.Array(Type.String({ format: 'email' }))),
    },
    { additionalProperties: false },
  ),
  ['id'],
);
const validate = compileBodyValidator(schema);
const details = (value: unknown) => {
  try {
    assertValid(validate, value);
    return [];
  } catch (error) {
    return (error as ApiError).details;
  }
};

describe('validation details', () => {
  it.each([
    [{}, { field: 'name', reason: 'missing' }],
    [{ name: 'toolong' }, { field: 'name', reason: 'too_long', constraint: { max_length: 5 } }],
    [{ name: 5 }, { field: 'name', reason: 'invalid_type', constraint: { type: 'string' } }],
    [
      { name: 'a', count: '2' },
      { field: 'count', reason: 'invalid_type', constraint: { type: 'integer' } },
    ],
    [
      { name: 'a', count: 4 },
      { field: 'count', reason: 'out_of_range', constraint: { minimum: 1, maximum: 3 } },
    ],
    [
      { name: 'a', kind: 'c' },
      { field: 'kind', reason: 'not_allowed', constraint: { allowed: ['a', 'b'] } },
    ],
    [
      { name: 'a', note: 3 },
      { field: 'note', reason: 'invalid_type', constraint: { type: ['string', 'null'] } },
    ],
    [
      { name: 'a', nested: { code: '123' } },
      { field: 'nested.code', reason: 'invalid_format', constraint: { pattern: '^[0-9]{2}$' } },
    ],
    [
      { name: 'a', nested: { code: '12', x: 1 } },
      { field: 'nested.x', reason: 'unknown_field' },
    ],
    [
      { name: 'a', tags: ['ok@example.com', 'nope'] },
      { field: 'tags.1', reason: 'invalid_format', constraint: { format: 'email' } },
    ],
    [
      { name: 'a', id: 'x' },
      { field: 'id', reason: 'not_allowed', constraint: { read_only: true } },
    ],
    [
      { name: 'a', other: 1 },
      { field: 'other', reason: 'unknown_field' },
    ],
    [null, { field: 'body', reason: 'invalid_type', constraint: { type: 'object' } }],
    [{ name: null }, { field: 'name', reason: 'missing', constraint: { type: 'string' } }],
    [
      { name: 'a', kind: null },
      { field: 'kind', reason: 'missing', constraint: { type: 'string' } },
    ],
    [
      { name: 'a', tags: [null] },
      { field: 'tags.0', reason: 'invalid_type', constraint: { type: 'string' } },
    ],
  ])('%j → %j', (value, detail) => {
    expect(details(value)).toEqual([detail]);
  });

  it('accepts null for a nullable field and a valid document', () => {
    expect(details({ name: 'a', note: null })).toEqual([]);
    expect(details({ name: 'abc', count: 2, kind: 'b', nested: { code: '12' } })).toEqual([]);
  });

  it('reports every problem, not just the first', () => {
    expect(details({ name: 'toolong', count: 0, extra: true })).toHaveLength(3);
  });
});

describe('error bodies in both dialects', () => {
  const error = new ApiError('validation_failed', { details: [{ field: 'einwilligung', reason: 'missing' }] });
  it('speaks English with field/reason', () => {
    expect(errorBody(error, 'en')).toEqual({
      code: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field: 'einwilligung', reason: 'missing' }],
    });
  });
  it('speaks German with feld/grund', () => {
    expect(errorBody(error, 'de')).toEqual({
      code: 'validierung_fehlgeschlagen',
      message: 'Die Anfrage ist ungültig.',
      details: [{ feld: 'einwilligung', grund: 'fehlt' }],
    });
    const scope = new ApiError('scope_missing', { details: [{ field: 'leads:read', reason: 'not_granted' }] });
    expect(errorBody(scope, 'de')).toMatchObject({
      code: 'scope_fehlt',
      details: [{ feld: 'leads:read', grund: 'nicht_erteilt' }],
    });
  });
});

describe('a value of the wrong type', () => {
  it('is reported once, as invalid_type, not also as an enum or format problem', () => {
    expect(details({ name: 'a', kind: 7 })).toEqual([
      { field: 'kind', reason: 'invalid_type', constraint: { type: 'string' } },
    ]);
  });
});

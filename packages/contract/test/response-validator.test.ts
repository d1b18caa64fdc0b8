import { describe, expect, it } from 'vitest';
import { loadDocument, OperationIndex, ResponseValidator, type OpenApiDocument } from '../src/index.js';

const property = loadDocument('property-api');
const documents = { 'property-api': property };
const index = new OperationIndex(documents);
const validator = new ResponseValidator(documents);
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
  body: JSON.stringify(body),
});
const error = { code: 'unauthorized', message: 'No key.' };

describe('matching requests to operations', () => {
  it('finds the operation of a concrete path, literal segments before parameters', () => {
    expect(index.match('GET', '/v1/properties/prop_1')?.operationId).toBe('getProperty');
    expect(index.match('POST', '/v1/properties/prop_1/activate')?.operationId).toBe('activateProperty');
    expect(index.match('GET', '/v1/properties')?.operationId).toBe('listProperties');
    expect(index.match('PUT', '/v1/properties')).toBeUndefined();
    expect(index.match('GET', '/v1/nothing')).toBeUndefined();
  });
});

describe('checking a response against its operation', () => {
  const getProperty = index.byId('property-api', 'getProperty')!;

  it('accepts a documented error body', () => {
    expect(validator.validate(getProperty, json(error, 401))).toEqual([]);
  });

  it('refuses an undocumented status, a wrong body, a wrong content type and a body where none is documented', () => {
    expect(validator.validate(getProperty, json(error, 418))[0]).toMatch(/status 418 is not documented/);
    expect(validator.validate(getProperty, json({ msg: 'x' }, 401)).join()).toMatch(
      /must have required property 'code'/,
    );
    expect(
      validator.validate(getProperty, {
        status: 401,
        headers: new Headers({ 'content-type': 'text/html' }),
        body: '<p>',
      })[0],
    ).toMatch(/content type "text\/html"/);
    expect(validator.validate(getProperty, json({ id: 'prop_1' })).join()).toMatch(/must have required property/);
    const revoke = index.byId('property-api', 'revokeApiKey')!;
    expect(validator.validate(revoke, { status: 204, headers: new Headers(), body: '' })).toEqual([]);
    expect(validator.validate(revoke, json(error, 204))[0]).toMatch(/documents no body/);
  });

  it('checks documented headers: required ones present, values by their schema', () => {
    const doc = structuredClone(property) as OpenApiDocument;
    doc.paths['/v1/properties/{propertyId}']!.get!.responses['401']!.headers = {
      'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } },
    };
    const withHeaders = new ResponseValidator({ 'property-api': doc });
    const op = new OperationIndex({ 'property-api': doc }).byId('property-api', 'getProperty')!;
    expect(withHeaders.validate(op, json(error, 401))).toEqual(['header Retry-After is required and missing']);
    expect(withHeaders.validate(op, json(error, 401, { 'retry-after': '0' }))[0]).toMatch(/header Retry-After "0"/);
    expect(withHeaders.validate(op, json(error, 401, { 'retry-after': '30' }))).toEqual([]);
  });
});

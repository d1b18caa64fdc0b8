// The docs' examples run as written: the property of docs/property-api.md (created, patched to
// Berlin-Mitte, activated), the prospect of docs/leads-dialect.md (searching "Berlin"), and the
// inquiry whose `bewertung` that page shows, word for word.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const doc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');
const section = (text: string, heading: string) =>
  text.slice(text.indexOf(heading), text.indexOf('\n## ', text.indexOf(heading) + 1));
/** The bodies of the `curl -d '...'` calls of a section, in order, with the shell variables given. */
const bodies = (text: string, vars: Record<string, string> = {}) =>
  [...text.matchAll(/-d '([\s\S]*?)'(?= \\\n| http)/g)].map((m) =>
    JSON.parse(m[1].replace(/'\$(\w+)'/g, (_, name: string) => vars[name])),
  );

it('the inquiry example of the leads docs scores the property of the property docs as the page shows (a search for Berlin finds Berlin-Mitte; German numbers)', async () => {
  const [create, patch] = bodies(section(doc('property-api.md'), '## Properties'));
  const created = await ctx.send('POST', '/v1/properties', create);
  expect(created.statusCode).toBe(201);
  const property = created.json().id as string;
  expect((await ctx.send('PATCH', `/v1/properties/${property}`, patch)).statusCode).toBe(200);
  expect((await ctx.send('POST', `/v1/properties/${property}/activate`)).statusCode).toBe(200);

  const leads = doc('leads-dialect.md');
  const [prospectBody] = bodies(section(leads, '## Prospects'));
  const prospect = await ctx.send('POST', '/leads/v1/interessenten', prospectBody);
  expect(prospect.statusCode).toBe(201);
  const inquiries = section(leads, '## Inquiries');
  const [inquiryBody] = bodies(inquiries, { PROPERTY: property, INTERESSENT: prospect.json().id });
  const inquiry = await ctx.send('POST', '/leads/v1/anfragen', inquiryBody);
  expect(inquiry.statusCode).toBe(201);

  const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(inquiries)![1]);
  expect(inquiry.json().bewertung).toEqual(shown);
  const matches = await ctx.send('GET', `/leads/v1/interessenten/${prospect.json().id}/treffer`);
  expect(matches.json().daten).toContainEqual(expect.objectContaining({ immobilie_id: property, bewertung: shown }));
});

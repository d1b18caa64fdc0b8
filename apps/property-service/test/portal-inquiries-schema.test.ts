import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../src/leads/portal-inquiries/feedback.js';
import { feedbackSchemaDetails } from '../src/leads/portal-inquiries/feedback-structure.js';
import { OPENIMMO_FEEDBACK_XSD, openImmoFeedbackSchemaErrors } from './openimmo-feedback-schema.js';
import { feedbackXml } from './portal-inquiries-fixtures.js';

const full = feedbackXml([
  {
    oobj_id: 'lst_1',
    portal_obj_id: '151234567',
    interessenten: [
      {
        int_id: 'IS24-A-1',
        anrede: 'Frau',
        vorname: 'Erika',
        nachname: 'Mustermann',
        tel: '+49 30 1234567',
        email: 'erika@example.de',
        bevorzugt: ['EMAIL', 'TEL'],
        wunsch: ['BESICHTIGUNG'],
        anfrage: 'Ist die Wohnung noch frei? Ich würde sie gern besichtigen.',
        extend: { datenschutz: 'Ich stimme der Weitergabe meiner Daten an den Anbieter zu.' },
      },
      { email: 'max@example.de', nachname: 'Muster' },
    ],
  },
]);

/** Documents the official schema accepts. */
const VALID: Record<string, string> = {
  'a full inquiry, two interessenten': full,
  'a status report without objekt': full
    .replace(/<objekt>[\s\S]*<\/objekt>/, '')
    .replace(
      '</openimmo_feedback>',
      '<fehlerliste><fehler><objekt_id>x</objekt_id><fehlernr>7</fehlernr></fehler></fehlerliste><status><statusnr>1</statusnr><text>ok</text></status></openimmo_feedback>',
    ),
  'an xsi attribute on the root': full.replace(
    '<openimmo_feedback>',
    '<openimmo_feedback xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="openimmo-feedback_125.xsd">',
  ),
  'comments between elements': full.replace('<sender>', '<!-- vom Portal --><sender>'),
};

/** Corrupted copies: each breaks the schema in one way. */
const INVALID: Record<string, string> = {
  'nachname after email (order)': full
    .replace('<nachname>Muster</nachname>', '')
    .replace('<email>max@example.de</email>', '<email>max@example.de</email><nachname>Muster</nachname>'),
  'an element the schema does not know': full.replace('<anfrage>', '<budget>400000</budget><anfrage>'),
  'sender without makler_id': full.replace('<makler_id>987654</makler_id>', ''),
  'no version': full.replace('<version>1.2.7</version>', ''),
  'an objekt without interessent': full.replace(/<interessent>[\s\S]*?<\/interessent>/g, ''),
  'a wunsch outside its enumeration': full.replace('<wunsch>BESICHTIGUNG</wunsch>', '<wunsch>KAUFEN</wunsch>'),
  'a fehlernr that is no integer': VALID['a status report without objekt']!.replace(
    '<fehlernr>7</fehlernr>',
    '<fehlernr>sieben</fehlernr>',
  ),
  'an attribute the schema does not declare': full.replace('<objekt>', '<objekt id="1">'),
  'text between the elements of interessent': full.replace('<int_id>', 'Hallo<int_id>'),
  'an element inside a text element': full.replace(
    '<email>erika@example.de</email>',
    '<email><b>erika@example.de</b></email>',
  ),
  'int_id twice': full.replace('<int_id>IS24-A-1</int_id>', '<int_id>1</int_id><int_id>2</int_id>'),
  'another root element': full.replace(/openimmo_feedback>/g, 'openimmo>'),
  'a namespace on the root': full.replace('<openimmo_feedback>', '<openimmo_feedback xmlns="http://www.openimmo.de">'),
};

describe("the service's schema check (a transcription of openimmo-feedback_125.xsd)", () => {
  it('uses the committed official schema', () => {
    expect(readFileSync(OPENIMMO_FEEDBACK_XSD, 'latin1')).toContain('$VERSION: 1.2.5');
  });

  for (const [name, xml] of Object.entries(VALID))
    it(`accepts what xmllint accepts: ${name}`, () => {
      expect(openImmoFeedbackSchemaErrors(xml)).toEqual([]);
      expect(feedbackSchemaDetails(parseXml(xml))).toEqual([]);
    });

  for (const [name, xml] of Object.entries(INVALID))
    it(`refuses what xmllint refuses: ${name}`, () => {
      expect(xml).not.toBe(full);
      expect(openImmoFeedbackSchemaErrors(xml)).not.toEqual([]);
      expect(feedbackSchemaDetails(parseXml(xml))).not.toEqual([]);
    });

  it('names where the document breaks the schema', () => {
    expect(feedbackSchemaDetails(parseXml(INVALID['a wunsch outside its enumeration']!))).toEqual([
      {
        field: 'objekt[1]/interessent[1]/wunsch[1]',
        reason: 'not_allowed',
        constraint: { allowed: ['BESICHTIGUNG', 'ANRUF', 'DETAIL'] },
      },
    ]);
    expect(feedbackSchemaDetails(parseXml(INVALID['sender without makler_id']!))).toEqual([
      { field: 'sender/makler_id', reason: 'missing' },
    ]);
  });
});

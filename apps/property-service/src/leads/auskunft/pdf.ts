import {
  factsTable,
  heading,
  MUTED,
  paragraph,
  renderPdf,
  renderTask,
  type PdfDocument,
} from '@platform/documents/pdf';
import type { Auskunft } from './schemas.js';

/** The Auskunft letter's renderer in the sandbox (`./sandbox.ts` serves it, `./render.ts` runs it). */
export const RENDER_AUSKUNFT = renderTask<Auskunft>('property.render-auskunft');

/** `2026-11-28T10:00:00.000Z` → `28.11.2026, 10:00 UTC`; a date alone → `28.11.2026`. */
export function germanTime(iso: string | null): string | null {
  if (iso === null) return null;
  const [date, time] = iso.split('T');
  const [y, m, d] = date!.split('-');
  return time ? `${d}.${m}.${y}, ${time.slice(0, 5)} UTC` : `${d}.${m}.${y}`;
}

const yesNo = (value: boolean) => (value ? 'ja' : 'nein');
const none = (doc: PdfDocument, what: string) => paragraph(doc, `Keine ${what} gespeichert.`, { color: MUTED });

function stammdaten(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Stammdaten');
  const s = a.stammdaten;
  factsTable(doc, [
    ['Interessenten-ID', a.interessent_id],
    ['Vorname', s.vorname],
    ['Nachname', s.nachname],
    ['E-Mail', s.email],
    ['Telefon', s.telefon],
    ['Angelegt am', germanTime(s.angelegt_am)],
    ['Zuletzt geändert am', germanTime(s.aktualisiert_am)],
    ['Letzte Aktivität', germanTime(s.letzte_aktivitaet_am)],
    ['Verarbeitung eingeschränkt seit', germanTime(a.eingeschraenkt_seit)],
    ['Widerspruch gegen Werbung seit', germanTime(a.widerspruch_seit)],
  ]);
}

function einwilligungen(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Einwilligungen');
  if (a.einwilligungen.length === 0) return none(doc, 'Einwilligungen');
  for (const e of a.einwilligungen) {
    paragraph(doc, `Einwilligung ${e.id}: ${e.zweck}${e.zweck_text ? ` („${e.zweck_text}“)` : ''}`);
    factsTable(doc, [
      ['Quelle', e.quelle],
      ['Textversion', e.textversion],
      ['Erteilt am', germanTime(e.erteilt_am)],
      ['Bestätigung nötig (Double-Opt-in)', yesNo(e.double_opt_in)],
      ['Bestätigt am', germanTime(e.bestaetigt_am)],
      ['Widerrufen am', germanTime(e.widerrufen_am)],
      ['Gültig', yesNo(e.gueltig)],
    ]);
    doc.moveDown(0.5);
  }
}

function suchprofil(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Suchprofil');
  const p = a.suchprofil;
  if (!p) return none(doc, 'Suchprofile');
  factsTable(doc, [
    ['Vermarktung', p.vermarktung],
    ['Objektarten', p.typ.join(', ')],
    ['Orte', p.orte.join(', ')],
    ['Zimmer mindestens', p.zimmer_min?.toString() ?? null],
    ['Kaufpreis höchstens (EUR)', p.kaufpreis_max_eur?.toString() ?? null],
    ['Kaltmiete höchstens (EUR)', p.kaltmiete_max_eur?.toString() ?? null],
    ['Wohnfläche mindestens (m²)', p.wohnflaeche_min_qm?.toString() ?? null],
    ['Aktiv', yesNo(p.aktiv)],
  ]);
}

function anfragen(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Anfragen und ihre Bewertung');
  if (a.anfragen.length === 0) return none(doc, 'Anfragen');
  for (const q of a.anfragen) {
    paragraph(doc, `Anfrage ${q.id} zur Immobilie ${q.immobilie_id}, eingegangen am ${germanTime(q.eingegangen_am)}`);
    if (q.nachricht) paragraph(doc, `Ihre Nachricht: „${q.nachricht}“`);
    const b = q.bewertung;
    paragraph(
      doc,
      `Bewertung: ${b.gesamt} von 100 Punkten (Gewichtung ${b.gewichtungsversion}, berechnet am ${germanTime(q.bewertet_am)})`,
    );
    for (const k of b.kriterien)
      paragraph(doc, `– ${k.kriterium}: ${k.punkte} von ${k.gewicht} Punkten; ${k.grund}`, { color: MUTED });
    for (const g of b.ausschlussgruende) paragraph(doc, `– Ausschluss (${g.kriterium}): ${g.grund}`, { color: MUTED });
    doc.moveDown(0.5);
  }
}

const SEITE = { makler: 'Makler', interessent: 'Sie' } as const;
const by = (side: 'makler' | 'interessent' | null) => (side ? ` (durch ${SEITE[side]})` : '');

function termine(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Besichtigungstermine');
  if (a.termine.length === 0) return none(doc, 'Besichtigungstermine');
  for (const t of a.termine) {
    paragraph(
      doc,
      `Termin ${t.id} zur Immobilie ${t.immobilie_id}: ${germanTime(t.beginn)} bis ${germanTime(t.ende)}, ${t.status}`,
    );
    factsTable(doc, [
      ['Zu Anfrage', t.anfrage_id],
      ['Zeitfenster', t.zeitfenster_id],
      ['Angelegt am', germanTime(t.angelegt_am)],
      ['Bestätigt am', t.bestaetigt_am && `${germanTime(t.bestaetigt_am)}${by(t.bestaetigt_von)}`],
      ['Abgesagt am', t.abgesagt_am && `${germanTime(t.abgesagt_am)}${by(t.abgesagt_von)}`],
      ['Absagegrund', t.absagegrund],
      ['Stattgefunden am', germanTime(t.stattgefunden_am)],
      ['Änderungszähler', t.sequenz.toString()],
    ]);
    for (const f of t.fruehere_zeiten)
      paragraph(
        doc,
        `– Früher: ${germanTime(f.beginn)} bis ${germanTime(f.ende)}, verschoben am ${germanTime(f.gueltig_bis)}`,
        {
          color: MUTED,
        },
      );
    doc.moveDown(0.5);
  }
}

const ANLASS = { aktivierung: 'neu angeboten', preissenkung: 'Preis gesenkt' } as const;

function treffer(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Passende Immobilien (Treffer)');
  if (a.treffer.length === 0) return none(doc, 'Treffer');
  for (const t of a.treffer) {
    const anlass = t.anlass ? `, ${ANLASS[t.anlass]}` : '';
    const status = t.status === 'angekuendigt' ? 'angekündigt' : 'verworfen (Tagesgrenze erreicht, nicht mitgeteilt)';
    paragraph(
      doc,
      `${germanTime(t.zeitpunkt)}: Immobilie ${t.immobilie_id} (${t.angebot}${anlass}), ${t.punkte} von 100 Punkten, ${status}`,
    );
  }
  for (const z of a.treffer_tageszaehler)
    paragraph(doc, `– Ankündigungen am ${germanTime(z.tag)}: ${z.angekuendigt}`, { color: MUTED });
}

function ereignisse(doc: PdfDocument, a: Auskunft) {
  heading(doc, 'Mitteilungen an angebundene Systeme (Webhooks)');
  if (a.ereignisse.length === 0) return none(doc, 'Mitteilungen');
  for (const e of a.ereignisse) {
    const z = e.zustellungen;
    paragraph(
      doc,
      `${germanTime(e.zeitpunkt)}: ${e.typ} (zugestellt ${z.zugestellt}, fehlgeschlagen ${z.fehlgeschlagen}, ausstehend ${z.ausstehend})`,
    );
  }
}

/**
 * The Auskunft as a German letter to the person: every section of the JSON, in the same order.
 * Deterministic: dated by `erstellt_am`, times formatted by hand. Runs in the sandbox.
 */
export function renderAuskunftPdf(a: Auskunft): Promise<Buffer> {
  const meta = { title: 'Auskunft über gespeicherte Daten', language: 'de-DE', createdAt: new Date(a.erstellt_am) };
  return renderPdf(meta, (doc) => {
    heading(doc, 'Auskunft über Ihre gespeicherten Daten', { level: 1 });
    paragraph(doc, `Stand: ${germanTime(a.erstellt_am)}`, { color: MUTED });
    doc.moveDown(0.5);
    paragraph(
      doc,
      'Nach Art. 15 DSGVO (Auskunftsrecht) und Art. 20 DSGVO (Recht auf Datenübertragbarkeit) erhalten Sie hiermit ' +
        'alle Daten, die wir über Sie gespeichert haben. Dieselben Daten stellen wir auf Wunsch auch maschinenlesbar (JSON) bereit.',
    );
    stammdaten(doc, a);
    einwilligungen(doc, a);
    suchprofil(doc, a);
    anfragen(doc, a);
    termine(doc, a);
    treffer(doc, a);
    ereignisse(doc, a);
    heading(doc, 'Aufbewahrung');
    paragraph(
      doc,
      `Ihre Daten werden bis zum ${germanTime(a.aufbewahrung_bis)} aufbewahrt und, wenn bis dahin keine neue Anfrage ` +
        `eingeht, am ${germanTime(a.loeschung_geplant_am)} anonymisiert. Sie können die Löschung jederzeit vorher verlangen.`,
    );
  });
}

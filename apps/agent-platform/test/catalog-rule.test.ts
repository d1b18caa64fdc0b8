import { describe, expect, it } from 'vitest';
import { CATALOG_RULE_VERSION, catalogRuleProblems } from '../src/catalog-entries/rule.js';
import type { CatalogArtifactSnapshot, CatalogEntrySnapshot } from '../src/catalog-entries/snapshot.js';

const artifact = (kind: CatalogArtifactSnapshot['kind']): CatalogArtifactSnapshot => ({
  id: `art_${kind}`,
  kind,
  title: null,
  version: null,
  content_type: 'text/markdown',
  size: 10,
  sha256: 'a'.repeat(64),
  filename: `${kind}.md`,
});

function snapshot(
  agent: Partial<CatalogEntrySnapshot['agent']>,
  artifacts: CatalogArtifactSnapshot[],
): CatalogEntrySnapshot {
  return {
    taken_at: '2026-03-01T09:30:00.000Z',
    agent: {
      id: 'agt_1',
      name: 'Invoice triage',
      description: 'Sorts invoices.',
      owning_team: 'Finance automation',
      capabilities: ['ocr'],
      chargeback_rate: { amount_cents: 120, unit: 'per_1k_tokens' },
      data_classification: 'internal',
      ...agent,
    },
    artifacts,
  };
}

const missing = (...fields: string[]) => fields.map((field) => ({ field, reason: 'missing' }));

describe(`catalog rule ${CATALOG_RULE_VERSION}`, () => {
  const cases: [
    string,
    Partial<CatalogEntrySnapshot['agent']>,
    CatalogArtifactSnapshot[],
    ReturnType<typeof missing>,
  ][] = [
    ['everything there', {}, [artifact('model_card')], []],
    ['a model card among other artifacts', {}, [artifact('prompt'), artifact('model_card'), artifact('other')], []],
    ['no description', { description: null }, [artifact('model_card')], missing('agent.description')],
    ['a blank description', { description: ' \n\t' }, [artifact('model_card')], missing('agent.description')],
    ['no capability', { capabilities: [] }, [artifact('model_card')], missing('agent.capabilities')],
    ['no artifact at all', {}, [], missing('artifacts')],
    ['artifacts, but no model card', {}, [artifact('evaluation_report'), artifact('prompt')], missing('artifacts')],
    [
      'nothing: every detail, in order',
      { description: null, capabilities: [] },
      [artifact('configuration')],
      missing('agent.description', 'agent.capabilities', 'artifacts'),
    ],
    [
      'classification and rate do not matter',
      { data_classification: 'restricted', chargeback_rate: { amount_cents: 0, unit: 'per_hour' } },
      [artifact('model_card')],
      [],
    ],
  ];

  it.each(cases)('%s', (_name, agent, artifacts, expected) => {
    expect(catalogRuleProblems(snapshot(agent, artifacts))).toEqual(expected);
  });

  it('is versioned', () => {
    expect(CATALOG_RULE_VERSION).toMatch(/^catalog-entry\/\d+$/);
  });
});

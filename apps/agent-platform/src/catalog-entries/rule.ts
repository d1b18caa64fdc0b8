import type { ErrorDetail } from '@platform/http';
import type { CatalogEntrySnapshot } from './snapshot.js';

/**
 * The publication rule of the internal catalog (DESIGN §9), checked on the entry's snapshot when
 * it is published. Bump the version whenever the rule changes.
 */
export const CATALOG_RULE_VERSION = 'catalog-entry/1';

/** One requirement: the detail's `field` (a dotted path of the entry's view) and when it is unmet. */
interface Requirement {
  field: string;
  unmet: (snapshot: CatalogEntrySnapshot) => boolean;
}

/** What a published entry must have, in the order the details are reported. */
export const CATALOG_REQUIREMENTS: readonly Requirement[] = [
  { field: 'agent.description', unmet: ({ agent }) => agent.description === null || agent.description.trim() === '' },
  { field: 'agent.capabilities', unmet: ({ agent }) => agent.capabilities.length === 0 },
  // No `model_card` among the artifacts (other kinds do not count).
  { field: 'artifacts', unmet: ({ artifacts }) => !artifacts.some((artifact) => artifact.kind === 'model_card') },
];

/**
 * Every reason the entry may not go into the catalog: one `missing` detail per unmet requirement
 * (a blank description counts as missing). Pure: it reads the snapshot only.
 */
export function catalogRuleProblems(snapshot: CatalogEntrySnapshot): ErrorDetail[] {
  return CATALOG_REQUIREMENTS.filter((requirement) => requirement.unmet(snapshot)).map(({ field }) => ({
    field,
    reason: 'missing' as const,
  }));
}

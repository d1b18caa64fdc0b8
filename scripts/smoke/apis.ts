/**
 * What the smoke run exercises: per API one list (limit=1) and one write that is undone right
 * after, so a run against production leaves only an archived, erased or retired record.
 */
export interface ReadCheck {
  name: string;
  path: string;
  /** The list body's array member (`data` in English, `daten` in the leads API). */
  listMember: string;
}

export interface WriteCheck {
  name: string;
  path: string;
  body: (runId: string) => object;
  /** `path` gets the id URL-encoded (or `{id}` for a row that was not run). */
  undo: { name: string; path: (id: string) => string; expectedStatus: string };
  /** How an operator finds the record when the create's answer was lost. */
  lookFor: (runId: string) => string;
}

export interface SmokeApi {
  name: string;
  read: ReadCheck;
  write: WriteCheck;
}

export interface SmokeService {
  name: string;
  apis: SmokeApi[];
}

const properties: SmokeApi = {
  name: 'properties',
  read: { name: 'list', path: '/v1/properties?limit=1', listMember: 'data' },
  write: {
    name: 'create',
    path: '/v1/properties',
    body: (runId) => ({
      type: 'apartment',
      title: `Smoke test ${runId}`,
      address: { postal_code: '10115', city: 'Berlin' },
    }),
    undo: { name: 'archive', path: (id) => `/v1/properties/${id}/archive`, expectedStatus: 'archived' },
    lookFor: (runId) => `a property titled "Smoke test ${runId}"`,
  },
};

const prospects: SmokeApi = {
  name: 'interessenten',
  read: { name: 'list', path: '/leads/v1/interessenten?limit=1', listMember: 'daten' },
  write: {
    name: 'create',
    path: '/leads/v1/interessenten',
    body: (runId) => ({
      nachname: 'Smoke-Test',
      email: `smoke-${runId}@example.invalid`,
      einwilligung: {
        zweck: 'Smoke-Test nach einem Deployment (sofort gelöscht)',
        erteilt_am: new Date().toISOString(),
      },
    }),
    undo: { name: 'erase', path: (id) => `/leads/v1/interessenten/${id}/loeschung`, expectedStatus: 'geloescht' },
    lookFor: (runId) => `a prospect with email smoke-${runId}@example.invalid`,
  },
};

const agents: SmokeApi = {
  name: 'agents',
  read: { name: 'list', path: '/v1/agents?limit=1', listMember: 'data' },
  write: {
    name: 'create',
    path: '/v1/agents',
    body: (runId) => ({
      name: `Smoke test ${runId}`,
      owning_team: 'smoke-test',
      chargeback_rate: { amount_cents: 0, unit: 'per_request' },
    }),
    undo: { name: 'retire', path: (id) => `/v1/agents/${id}/retire`, expectedStatus: 'retired' },
    lookFor: (runId) => `an agent named "Smoke test ${runId}"`,
  },
};

/**
 * Key prefix → service. Kept here rather than imported from the apps' descriptors so the script
 * starts without loading either app; a test compares it with the descriptors.
 */
export const SMOKE_SERVICES: Record<string, SmokeService> = {
  pm: { name: 'property-marketing service', apis: [properties, prospects] },
  ap: { name: 'agent platform', apis: [agents] },
};

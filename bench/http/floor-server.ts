// The floors of the HTTP benchmark: hand-written node:http + pg servers doing the work of a request
// and nothing more: hash the key with the pepper, one query for key and account, then the
// resource's query (a row by id, a keyset page, or a patch in its transaction with an outbox row),
// JSON.stringify. The plain floor caches nothing and prepares nothing; the strong floor (`strong`)
// does what the project does for speed: keys cached for 4 s, every statement named (prepared once
// per connection). One process per resource, started by bench/http/run.ts:
//   tsx bench/http/floor-server.ts <properties|agents> <port> [strong]   (DATABASE_URL, API_KEY_PEPPER set)
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

interface Resource {
  path: string;
  table: string;
  service: string;
  read: string;
  write: string;
  /** The field a PATCH changes (a string), and the event it announces. */
  field: string;
  event: string;
  idField: string;
  statuses: readonly string[];
  statusType: string;
}

const RESOURCES: Record<string, Resource> = {
  properties: {
    path: '/v1/properties',
    table: 'properties',
    service: 'property',
    read: 'properties:read',
    write: 'properties:write',
    field: 'title',
    event: 'property.updated',
    idField: 'property_id',
    statuses: ['draft', 'active', 'reserved', 'sold', 'rented', 'archived'],
    statusType: 'PropertyStatus',
  },
  agents: {
    path: '/v1/agents',
    table: 'agent_deployments',
    service: 'agent_platform',
    read: 'agents:read',
    write: 'agents:write',
    field: 'description',
    event: 'agent.updated',
    idField: 'agent_id',
    statuses: ['active', 'retired'],
    statusType: 'AgentStatus',
  },
};

const [name, portArg, mode] = process.argv.slice(2);
const resource = RESOURCES[name];
if (!resource || !portArg || (mode !== undefined && mode !== 'strong')) {
  console.error('usage: floor-server.ts <properties|agents> <port> [strong]');
  process.exit(2);
}
const strong = mode === 'strong';
/** As long as the project caches a key (its revocation reaches every instance within that time). */
const KEY_CACHE_MS = 4_000;
const keys = new Map<string, { auth: Auth | null; until: number }>();

/** A statement, named in the strong floor (pg prepares it once per connection, then only binds). */
const statement = (statementName: string, text: string, values: unknown[]): pg.QueryConfig =>
  strong ? { name: `${name}_${statementName}`, text, values } : { text, values };

interface Auth {
  accountId: string;
  scopes: string[];
}
const pepper = process.env.API_KEY_PEPPER ?? '';
const cursorSecret = randomBytes(32);
// The project's pool size (createPrisma's default), so that neither side has more connections.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function authenticate(req: IncomingMessage): Promise<Auth | null> {
  const key = req.headers.apikey;
  if (typeof key !== 'string') return null;
  const hash = createHmac('sha256', pepper).update(key).digest('hex');
  const cached = strong ? keys.get(hash) : undefined;
  if (cached && cached.until > Date.now()) return cached.auth;
  const { rows } = await pool.query<{ account_id: string; scopes: string[]; revoked_at: Date | null; service: string }>(
    statement(
      'key',
      `SELECT a.account_id, k.scopes, k.revoked_at, a.service::text AS service
       FROM api_keys k JOIN applications a ON a.id = k.application_id WHERE k.key_hash = $1`,
      [hash],
    ),
  );
  const row = rows[0];
  const auth =
    !row || row.revoked_at !== null || row.service !== resource.service
      ? null
      : { accountId: row.account_id, scopes: row.scopes };
  if (strong) keys.set(hash, { auth, until: Date.now() + KEY_CACHE_MS });
  return auth;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

async function getOne(res: ServerResponse, accountId: string, id: string) {
  const { rows } = await pool.query(
    statement('get', `SELECT * FROM ${resource.table} WHERE id = $1 AND account_id = $2`, [id, accountId]),
  );
  if (rows.length === 0) return send(res, 404, { error: { code: 'not_found' } });
  send(res, 200, rows[0]);
}

async function list(res: ServerResponse, accountId: string, query: URLSearchParams) {
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 25)));
  const status = query.get('status');
  if (status !== null && !resource.statuses.includes(status))
    return send(res, 422, { error: { code: 'validation_failed' } });
  const filter = status === null ? '' : `AND status = $3::"${resource.statusType}"`;
  const { rows } = await pool.query(
    statement(
      status === null ? 'page' : 'page_status',
      `SELECT * FROM ${resource.table} WHERE account_id = $1 ${filter} ORDER BY created_at DESC, id DESC LIMIT $2`,
      status === null ? [accountId, limit + 1] : [accountId, limit + 1, status],
    ),
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  let next_cursor: string | null = null;
  if (rows.length > limit && last) {
    const payload = Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
    next_cursor = `${payload}.${createHmac('sha256', cursorSecret).update(payload).digest('base64url')}`;
  }
  send(res, 200, { data: page, next_cursor });
}

async function patch(req: IncomingMessage, res: ServerResponse, accountId: string, id: string) {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return send(res, 400, { error: { code: 'invalid_json' } });
  }
  const value = body[resource.field];
  if (typeof value !== 'string' || value.length === 0 || value.length > 120)
    return send(res, 422, { error: { code: 'validation_failed' } });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query(
      statement('lock', `SELECT * FROM ${resource.table} WHERE id = $1 AND account_id = $2 FOR UPDATE`, [
        id,
        accountId,
      ]),
    );
    if (locked.rows.length === 0) {
      await client.query('ROLLBACK');
      return send(res, 404, { error: { code: 'not_found' } });
    }
    const { rows } = await client.query(
      statement(
        'update',
        `UPDATE ${resource.table} SET ${resource.field} = $2, updated_at = now() WHERE id = $1 RETURNING *`,
        [id, value],
      ),
    );
    const at = new Date();
    const payload = JSON.stringify({
      type: resource.event,
      created_at: at,
      data: { [resource.idField]: id, changed_fields: [resource.field] },
    });
    await client.query(
      statement(
        'outbox',
        `INSERT INTO outbox_events (id, account_id, service, type, payload, created_at) VALUES ($1, $2, $3::"Service", $4, $5, $6)`,
        [`evt_${randomBytes(12).toString('hex')}`, accountId, resource.service, resource.event, payload, at],
      ),
    );
    await client.query('COMMIT');
    send(res, 200, rows[0]);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (!url.pathname.startsWith(resource.path)) return send(res, 404, { error: { code: 'not_found' } });
  const auth = await authenticate(req);
  if (!auth) return send(res, 401, { error: { code: 'api_key_invalid' } });
  const rest = url.pathname.slice(resource.path.length);
  const scope = req.method === 'PATCH' ? resource.write : resource.read;
  if (!auth.scopes.includes(scope)) return send(res, 403, { error: { code: 'insufficient_scope' } });
  if (rest === '' && req.method === 'GET') return list(res, auth.accountId, url.searchParams);
  const id = rest.startsWith('/') && !rest.includes('/', 1) ? decodeURIComponent(rest.slice(1)) : null;
  if (id && req.method === 'GET') return getOne(res, auth.accountId, id);
  if (id && req.method === 'PATCH') return patch(req, res, auth.accountId, id);
  send(res, 404, { error: { code: 'not_found' } });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) send(res, 500, { error: { code: 'internal_error' } });
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(portArg), '127.0.0.1', () =>
  console.log(`${strong ? 'strong floor' : 'floor'} ${name} listening on ${portArg}`),
);
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

// The lint rule `tables/owner-only`: a table is read and written only in the folder that owns it.
// Owners are declared in the Prisma schema, one `// Owner: <folder>` line above each model; a model
// without one fails the lint of every file. The rule reports, outside the owner:
// - Prisma client calls: `db.listing.…`, `tx.appointment.…`, `ctx.db.account.…`, `ctx.tx.…`;
// - table names in string and template literals after FROM / JOIN / INTO / UPDATE / TABLE / USING:
//   upper case anywhere, any case in a literal that starts with a statement keyword; comma lists and
//   a schema prefix included; a CTE of the same name is not a table;
// - relations read along: `include: { channel: true }`, a relation under `select`, a relation filter
//   under `where` / `orderBy` / `some` / `is` …, or in an object that `satisfies Prisma.…Include`,
//   when no model that relation leads to is the file's own.
// Another folder asks the owner through its entry (index.ts), which may hand out a SQL fragment
// (`sql\`…\``) for a join: the table's name stays with its owner. Not seen: tables named at run time
// (`FROM "${table}"`), aliases of the client (`const c = db`) and SQL built by concatenation.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every model of the schema directory: its client name, its table and its owning folder. */
export function readOwners(schemaDir) {
  const models = [];
  for (const file of readdirSync(schemaDir).filter((name) => name.endsWith('.prisma'))) {
    let owner = null;
    let current = null;
    for (const line of readFileSync(join(schemaDir, file), 'utf8').split('\n')) {
      const declared = /^\/\/ Owner: (\S+)\s*$/.exec(line);
      if (declared) owner = declared[1];
      const model = /^model (\w+)/.exec(line);
      if (model) {
        if (!owner) throw new Error(`${file}: model ${model[1]} has no "// Owner: <folder>" line above it`);
        const name = model[1];
        current = { client: name[0].toLowerCase() + name.slice(1), table: name, owner, fields: [] };
        models.push(current);
        owner = null;
      }
      const mapped = /^\s*@@map\("(\w+)"\)/.exec(line);
      if (mapped && current) current.table = mapped[1];
      const field = /^\s+(\w+)\s+([A-Z]\w*)(\[\]|\?)?(\s|$)/.exec(line);
      if (field && current) current.fields.push({ name: field[1], type: field[2] });
    }
  }
  return models;
}

/** The type a `satisfies` names, through `as const`: `Prisma.CommissionSettlementInclude`. */
function satisfiedType(node) {
  let parent = node.parent;
  if (parent?.type === 'TSAsExpression') parent = parent.parent;
  if (parent?.type !== 'TSSatisfiesExpression') return null;
  const name = parent.typeAnnotation.typeName;
  return name?.type === 'TSQualifiedName' ? name.right.name : (name?.name ?? null);
}

/** Whether an object literal lists relations to read: the value of `include` / `select`, or a `Prisma.…Include` / `…Select`. */
function readsAlong(object) {
  const holder = object.parent;
  if (holder?.type === 'Property' && holder.key.type === 'Identifier' && RELATION_HOLDERS.has(holder.key.name))
    return true;
  return /(Include|Select)$/.test(satisfiedType(object) ?? '');
}

/** Text that is SQL: a statement keyword first (any case); prose ("removed from properties") is not. */
const SQL_TEXT = /^\s*(select|insert|update|delete|with|truncate|alter|create|drop)\b/i;
/** SQL written in upper case anywhere in a literal (a fragment: `JOIN agents a ON …`). */
const UPPER_TABLE =
  /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|USING)\s+((?:"?\w+"?\.)?"?[a-z_][a-z0-9_]*"?(?:\s+(?:AS\s+)?\w+)?(?:\s*,\s*(?:"?\w+"?\.)?"?[a-z_][a-z0-9_]*"?(?:\s+(?:AS\s+)?\w+)?)*)/g;
/** The same in SQL text of any case. */
const ANY_CASE_TABLE = new RegExp(
  UPPER_TABLE.source.replace('(?:FROM|JOIN|INTO|UPDATE|TABLE|USING)', '(?:from|join|into|update|table|using|truncate)'),
  'gi',
);
/** The table names of a FROM list: `accounts a, public.listings l` → accounts, listings. */
const tableNames = (list) =>
  list.split(',').map((item) => item.trim().split(/\s+/)[0].replace(/"/g, '').split('.').pop());
const CLIENT_OBJECTS = new Set(['db', 'tx', 'prisma']);
/** Keys under which a query names relations to read or filter by. */
const RELATION_HOLDERS = new Set([
  'include',
  'select',
  'where',
  'orderBy',
  'some',
  'every',
  'none',
  'is',
  'isNot',
  '_count',
]);

/** The plugin: `root` is the repository's directory; paths of owners are relative to it. */
export function tableOwnersPlugin(root, schemaDir) {
  const models = readOwners(schemaDir);
  const byClient = new Map(models.map((model) => [model.client, model]));
  const byTable = new Map(models.map((model) => [model.table, model]));
  // A relation field's name (`account`, `lines`) and every model it leads to, whichever model has it.
  const relations = new Map();
  for (const model of models)
    for (const field of model.fields) {
      const target = models.find((candidate) => candidate.client === field.type[0].toLowerCase() + field.type.slice(1));
      if (target) relations.set(field.name, [...(relations.get(field.name) ?? []), target]);
    }
  const inside = (file, owner) => {
    const path = relative(root, file).split(sep).join('/');
    return path === owner || path.startsWith(`${owner}/`);
  };
  const rule = {
    meta: {
      type: 'problem',
      messages: {
        foreign: '`{{name}}` belongs to {{owner}}: ask the owner through its entry (index.ts) instead.',
      },
      schema: [],
    },
    create(context) {
      const file = context.filename;
      const check = (node, model, name) => {
        if (model && !inside(file, model.owner))
          context.report({ node, messageId: 'foreign', data: { name, owner: model.owner } });
      };
      const checkSql = (node, text) => {
        const pattern = SQL_TEXT.test(text) ? ANY_CASE_TABLE : UPPER_TABLE;
        const ctes = new Set([...text.matchAll(/\b(\w+)\s+AS\s*(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi)].map((m) => m[1]));
        for (const [, list] of text.matchAll(pattern))
          for (const table of tableNames(list)) if (!ctes.has(table)) check(node, byTable.get(table), table);
      };
      return {
        MemberExpression(node) {
          if (node.property.type !== 'Identifier') return;
          const object = node.object;
          const client =
            (object.type === 'Identifier' && CLIENT_OBJECTS.has(object.name)) ||
            (object.type === 'MemberExpression' &&
              object.property.type === 'Identifier' &&
              (object.property.name === 'db' || object.property.name === 'prisma' || object.property.name === 'tx'));
          if (client) check(node, byClient.get(node.property.name), node.property.name);
        },
        // `include: { channel: true }`, `select: { account: { select: … } }`: a relation read in the same query.
        Property(node) {
          if (node.key.type !== 'Identifier' || !readsAlong(node.parent)) return;
          const targets = relations.get(node.key.name);
          if (targets && !targets.some((target) => inside(file, target.owner)))
            context.report({ node, messageId: 'foreign', data: { name: node.key.name, owner: targets[0].owner } });
        },
        Literal(node) {
          if (typeof node.value === 'string') checkSql(node, node.value);
        },
        TemplateLiteral(node) {
          checkSql(node, node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(' '));
        },
      };
    },
  };
  return { rules: { 'owner-only': rule } };
}

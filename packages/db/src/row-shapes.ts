import pg from 'pg';

// For every result, pg builds an empty row with the columns as keys (`Result.addFields`: a
// null-prototype object filled column by column, then spread into a plain one) and looks up a
// parser per column. For a table of 45 columns that is ~20–50 µs per query: on a read by id, as
// much as the rest of pg's work (bench/RESULTS.md, issue 34). A prepared statement's rows have
// the same shape at every execution, so the row template and the parsers are built once per shape.

interface Field {
  name: string;
  dataTypeID: number;
  format: string;
}

/** The members of pg's `Result` that `addFields` sets (pg/lib/result.js) and `parseRow` reads. */
interface ResultFields {
  fields: Field[];
  _parsers: unknown[] | undefined;
  _types: unknown;
  _prebuiltEmptyResultObject: object | null;
  addFields(fields: Field[]): void;
}

interface Shape {
  fields: Field[];
  parsers: unknown[] | undefined;
  template: object | null;
}

/** Shapes per type configuration (parsers depend on it), by statement: a process has few statements. */
const shapesByTypes = new WeakMap<object, Map<string, Shape>>();
const MAX_SHAPES = 2_000;
const noTypes = {};

let stockAddFields: ResultFields['addFields'] | undefined;

/** The statement's last shape is reused only when its columns are still the same (a migration may change them). */
function sameFields(a: Field[], b: Field[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i]!.name !== b[i]!.name || a[i]!.dataTypeID !== b[i]!.dataTypeID || a[i]!.format !== b[i]!.format)
      return false;
  return true;
}

function addFieldsOnce(this: ResultFields & { statement: string }, fields: Field[]): void {
  const typesKey = (this._types as object | undefined) ?? noTypes;
  let shapes = shapesByTypes.get(typesKey);
  if (!shapes) shapesByTypes.set(typesKey, (shapes = new Map()));
  const shape = shapes.get(this.statement);
  if (!shape || !sameFields(shape.fields, fields)) {
    stockAddFields!.call(this, fields);
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(this.statement, { fields, parsers: this._parsers, template: this._prebuiltEmptyResultObject });
    return;
  }
  // parseRow only reads both: it spreads the template into a new row and calls the parsers.
  this.fields = fields;
  this._parsers = shape.parsers;
  this._prebuiltEmptyResultObject = shape.template;
}

/** A query whose result reuses the row shape of the statement's earlier executions. */
class ShapedQuery extends pg.Query {
  constructor(config: pg.QueryConfig, callback?: (error: Error | null, result: pg.QueryResult) => void) {
    super(callback ? ({ ...config, callback } as pg.QueryConfig) : config);
    const result = (this as unknown as { _result: ResultFields & { statement: string } })._result;
    stockAddFields ??= Object.getPrototypeOf(result).addFields as ResultFields['addFields'];
    result.statement = config.name ?? config.text;
    result.addFields = addFieldsOnce;
  }
}

/** `pool.query(config)` with shapes reused. */
export function poolQuery(pool: pg.Pool, config: pg.QueryConfig): Promise<pg.QueryResult> {
  // Given a query object and no callback, pg-pool answers with a promise of its result.
  return pool.query(new ShapedQuery(config)) as unknown as Promise<pg.QueryResult>;
}

/** `client.query(config)` with shapes reused. */
export function clientQuery(client: pg.ClientBase, config: pg.QueryConfig): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(new ShapedQuery(config, (error, result) => (error ? reject(error) : resolve(result))));
  });
}

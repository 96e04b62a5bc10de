import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector reads every schema of the database and calls `has_schema_privilege(name)` on
 * each: a schema dropped by another process during that scan fails our migration with "schema … does not exist"
 * (seen when parallel test files each drop their own schema). The migrator only asks which schemas and tables
 * exist, so this one answers for our own schema alone, by oid, never by a name that may vanish.
 */
class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: Kysely's DatabaseIntrospector works on a database of any schema
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<{
      name: string;
    }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return result.rows.map((row) => ({ name: row.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const result = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname`.execute(this.db);
    return result.rows.map((row) => ({
      name: row.name,
      schema: this.schema,
      isView: row.kind === 'v',
      isForeign: row.kind === 'f',
      columns: [],
    }));
  }
}

/** PostgreSQL whose introspection (used by the migrator) sees only `schema`. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  // biome-ignore lint/suspicious/noExplicitAny: the signature of Kysely's PostgresDialect.createIntrospector
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db, this.schema);
  }
}

import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect over Node's built-in `node:sqlite` (no native addon). Kysely's own SqliteDialect
 * expects better-sqlite3's calling style; this adapter spreads parameters and picks the reader by
 * `stmt.columns()`. One connection, serialised by a promise-chain mutex (SQLite writes are serial anyway).
 */
export class NodeSqliteDialect implements Dialect {
  constructor(private readonly filename: string) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.filename);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

class NodeSqliteDriver implements Driver {
  private db?: DatabaseSync;
  private connection?: NodeSqliteConnection;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly filename: string) {}

  async init(): Promise<void> {
    this.db = new DatabaseSync(this.filename);
    // temp_store = MEMORY: statement journals (a multi-row INSERT keeps one to undo itself) and sorts stay in memory
    // instead of temp files; nothing durable lives there. A 100,000-commit git sync spent a fifth of its insert time
    // writing statement journals to files. cache_size = 16 MiB (the default is 2 MiB), filled only as pages are read:
    // an ingest inserts into indexes keyed by commit sha and committer, all over their b-trees; with 2 MiB each
    // insert evicted and re-read pages (100,000 items: 0.9 s of inserts instead of 1.2 s, bench/git-ingest.ts).
    this.db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -16384;',
    );
    this.connection = new NodeSqliteConnection(this.db);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    (this.connection as NodeSqliteConnection).release = release;
    return this.connection as NodeSqliteConnection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, out of memory): a
    // second rollback would fail with "no transaction is active" and hide the error that matters (a full disk).
    if (!this.db?.isTransaction) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as NodeSqliteConnection).release?.();
  }
  async destroy(): Promise<void> {
    this.db?.close();
  }
}

/** Prepared statements kept per connection, least recently used dropped first. */
const STATEMENT_CACHE_SIZE = 100;

class NodeSqliteConnection implements DatabaseConnection {
  release?: () => void;
  private readonly statements = new Map<string, StatementSync>();
  constructor(private readonly db: DatabaseSync) {}

  /**
   * The same SQL text reuses its prepared statement (`run`/`all` reset it), as better-sqlite3 users keep theirs:
   * a bulk insert sends one statement text many times (preparing a 1,500-row INSERT for every chunk cost 0.2–0.9 s
   * per 100,000 rows). Streams prepare their own (an open iterator holds its statement).
   */
  private prepare(text: string): StatementSync {
    const cached = this.statements.get(text);
    if (cached) {
      this.statements.delete(text);
      this.statements.set(text, cached);
      return cached;
    }
    const stmt = this.db.prepare(text);
    this.statements.set(text, stmt);
    if (this.statements.size > STATEMENT_CACHE_SIZE)
      this.statements.delete(this.statements.keys().next().value as string);
    return stmt;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.prepare(compiled.sql);
    const params = compiled.parameters.map(toSqliteValue);
    if (stmt.columns().length > 0) {
      return { rows: stmt.all(...params) as R[] };
    }
    const result = stmt.run(...params);
    return {
      rows: [],
      numAffectedRows: BigInt(result.changes),
      insertId: BigInt(result.lastInsertRowid),
    };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.db.prepare(compiled.sql);
    for (const row of stmt.iterate(...compiled.parameters.map(toSqliteValue))) {
      yield { rows: [row as R] };
    }
  }
}

function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (value === undefined) return null;
  return value as SQLInputValue;
}

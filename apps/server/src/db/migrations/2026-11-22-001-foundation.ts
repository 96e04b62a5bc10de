import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
  const ms = 'bigint' as const;

  await db.schema
    .createTable('roles')
    .addColumn('id', id)
    .addColumn('role_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('role_level', 'integer', (c) => c.notNull())
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_time', ms, (c) => c.notNull())
    .execute();
  await sql`create unique index roles_name_uq on roles (lower(role_name))`.execute(db);

  await db.schema
    .createTable('users')
    .addColumn('id', id)
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role_id', 'bigint', (c) => c.notNull().references('roles.id'))
    .addColumn('phone', 'varchar(32)')
    .addColumn('private_url', 'varchar(1024)')
    .addColumn('create_time', ms, (c) => c.notNull())
    .addColumn('update_time', ms, (c) => c.notNull())
    .execute();
  await sql`create unique index users_username_uq on users (lower(username))`.execute(db);
  await db.schema.createIndex('users_role_idx').on('users').column('role_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('create_time', ms, (c) => c.notNull())
    .addColumn('expire_time', ms, (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expire_idx').on('sessions').column('expire_time').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', id)
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_user_idx')
    .on('login_failures')
    .columns(['username', 'create_time'])
    .execute();
  await db.schema.createIndex('login_failures_ip_idx').on('login_failures').columns(['ip', 'create_time']).execute();

  await db.schema
    .createTable('phone_codes')
    .addColumn('id', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scene', 'varchar(32)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire_time', ms, (c) => c.notNull())
    .addColumn('used_time', ms)
    .addColumn('create_time', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('phone_codes_user_idx')
    .on('phone_codes')
    .columns(['user_id', 'scene', 'create_time'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('update_time', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', id)
    .addColumn('category_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', ms, (c) => c.notNull())
    .execute();
  await sql`create unique index categories_name_uq on categories (lower(category_name))`.execute(db);

  await db.schema
    .createTable('apps')
    .addColumn('id', id)
    .addColumn('app_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('app_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('app_icon', 'varchar(1024)')
    .addColumn('category_id', 'bigint', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('path', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('public_path', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bundle_id', 'varchar(255)')
    .addColumn('support_url', 'varchar(1024)')
    .addColumn('dev_wecom_url', 'varchar(1024)')
    .addColumn('prod_wecom_url', 'varchar(1024)')
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', ms, (c) => c.notNull())
    .addColumn('update_time', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apps_category_idx').on('apps').column('category_id').execute();
  await db.schema.createIndex('apps_update_idx').on('apps').column('update_time').execute();
  await db.schema.createIndex('apps_create_idx').on('apps').column('create_time').execute();
  await db.schema.createIndex('apps_name_idx').on('apps').column('app_name').execute();
  await db.schema.createIndex('apps_create_by_idx').on('apps').column('create_by').execute();

  await db.schema
    .createTable('app_users')
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permit', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('app_users_pk', ['app_id', 'user_id'])
    .execute();
  await db.schema.createIndex('app_users_user_idx').on('app_users').column('user_id').execute();

  await db.schema
    .createTable('app_collects')
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('collect_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('create_time', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('app_collects_pk', ['app_id', 'user_id', 'collect_type'])
    .execute();
  await db.schema
    .createIndex('app_collects_user_idx')
    .on('app_collects')
    .columns(['user_id', 'collect_type'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('message_info', 'text', (c) => c.notNull())
    .addColumn('create_time', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_user_state_idx')
    .on('notifications')
    .columns(['user_id', 'state', 'create_time'])
    .execute();
  await db.schema.createIndex('notifications_app_idx').on('notifications').column('app_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'notifications',
    'app_collects',
    'app_users',
    'apps',
    'categories',
    'settings',
    'phone_codes',
    'login_failures',
    'sessions',
    'users',
    'roles',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

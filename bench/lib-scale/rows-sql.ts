import type { DialectName } from '../../apps/server/src/db/database.ts';
import { membershipsPerUser, type StudioSize } from './size.ts';

/**
 * The generated rows as one INSERT … SELECT per table over a series of numbers, computed by the database itself
 * (PostgreSQL: generate_series; SQLite: a recursive CTE), so 20 million rows never pass through JavaScript. Every
 * id is explicit (1 + row number; users after the seeded admin), so rows of one table can name rows of another.
 */

export const DAY = 86_400_000;
/** The history ends here (UTC) and spans two years. */
export const END_TIME = Date.UTC(2026, 10, 1);
export const SPAN_MS = 730 * DAY;
export const START_TIME = END_TIME - SPAN_MS;
/** Every app's install password (the bench types it on the install page). */
export const INSTALL_PASSWORD = '135790';
export const PLATFORMS = ['android', 'android', 'android', 'android', 'ios', 'ios', 'ios', 'ios', 'web', 'harmony'];

export interface Seeded {
  adminId: number;
  /** The role of generated users (测试, level 20). */
  roleId: number;
  /** The admin's stored password hash: every generated user signs in with the admin's password. */
  passwordHash: string;
  /** The install password and a webhook secret, sealed with the server key as the product stores them. */
  sealedInstallPassword: string;
  sealedWebhookSecret: string;
}

export interface TableSql {
  table: string;
  rows: number;
  sql: string;
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `insert into <table> (<columns>) select <values> from <count numbers as i>`, as this dialect writes it. */
function insert(dialect: DialectName, table: string, count: number, columns: string[], values: string[]): TableSql {
  const into = `insert into ${table} (${columns.join(', ')}) select ${values.join(', ')}`;
  const sql =
    dialect === 'postgres'
      ? `${into} from generate_series(0::bigint, ${count - 1}::bigint) as s(i)`
      : `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${count - 1}) ${into} from s`;
  return { table, rows: count, sql };
}

const hex40 = (dialect: DialectName, expr: string) =>
  dialect === 'postgres' ? `lpad(to_hex(${expr}), 40, '0')` : `printf('%040x', ${expr})`;

/** The rows of every generated table, in an order that satisfies the foreign keys. */
export function tableSql(dialect: DialectName, size: StudioSize, seeded: Seeded): TableSql[] {
  const { apps, versions, items, users, workflowsPerApp } = size;
  const perUser = membershipsPerUser(size);
  const workflows = apps * workflowsPerApp;
  const userBase = seeded.adminId + 1;
  // Spread over the two years in id order, as ingestion and uploads store them.
  const at = (count: number) => `${START_TIME} + i * ${Math.max(1, Math.floor(SPAN_MS / count))}`;
  const stride = Math.max(1, Math.floor(apps / perUser));
  const platform = `case (i / ${apps}) % 10 ${PLATFORMS.map((p, n) => `when ${n} then '${p}'`).join(' ')} end`;
  return [
    insert(
      dialect,
      'users',
      users,
      ['id', 'username', 'password_hash', 'role_id', 'phone', 'private_url', 'create_time', 'update_time'],
      [
        `${userBase} + i`,
        `'user' || (i + 1)`,
        quote(seeded.passwordHash),
        String(seeded.roleId),
        'null',
        'null',
        at(users),
        at(users),
      ],
    ),
    insert(
      dialect,
      'apps',
      apps,
      [
        'id',
        'app_name',
        'app_type',
        'path',
        'public_path',
        'password',
        'description',
        'create_by',
        'create_time',
        'update_time',
      ],
      [
        '1 + i',
        `'项目' || (i + 1)`,
        `case when i % 3 = 0 then 'unity' else 'native' end`,
        `'app-' || (i + 1)`,
        `'pub-' || (i + 1)`,
        quote(seeded.sealedInstallPassword),
        `''`,
        String(seeded.adminId),
        at(apps),
        `${END_TIME} - i * 60000`,
      ],
    ),
    // User u is a member of apps u, u + stride, u + 2·stride, … (distinct): every app gets about the same members.
    insert(
      dialect,
      'app_users',
      users * perUser,
      ['app_id', 'user_id', 'permit'],
      [
        `1 + ((i / ${perUser}) + (i % ${perUser}) * ${stride}) % ${apps}`,
        `${userBase} + i / ${perUser}`,
        `case when i % ${perUser} = 0 then 'edit' else 'view' end`,
      ],
    ),
    insert(
      dialect,
      'workflows',
      workflows,
      [
        'id',
        'app_id',
        'tab_name',
        'content_type',
        'committers',
        'auto_push',
        'order_no',
        'webhook_token',
        'webhook_secret',
        'create_by',
        'create_time',
        'update_time',
      ],
      [
        '1 + i',
        `1 + i / ${workflowsPerApp}`,
        `'仓库' || (i % ${workflowsPerApp} + 1)`,
        `'default'`,
        `'[]'`,
        '0',
        `i % ${workflowsPerApp}`,
        `'scale-hook-' || i`,
        quote(seeded.sealedWebhookSecret),
        String(seeded.adminId),
        String(START_TIME),
        String(START_TIME),
      ],
    ),
    // Version v belongs to app v mod apps: every app's builds are spread over the whole two years.
    insert(
      dialect,
      'app_versions',
      versions,
      [
        'id',
        'app_id',
        'index_no',
        'native_package_type',
        'file_key',
        'file_name',
        'app_size',
        'app_version',
        'build',
        'bundle_id',
        'display_name',
        'description',
        'attach_files',
        'metadata',
        'warnings',
        'upload_by',
        'create_time',
        'update_time',
      ],
      [
        '1 + i',
        `1 + i % ${apps}`,
        `1 + i / ${apps}`,
        platform,
        `'scale/' || i || '.pkg'`,
        `'build-' || (1 + i / ${apps}) || '.pkg'`,
        `50000000 + (i % 1000) * 1000`,
        `'2.' || (i / ${apps * 100}) || '.' || ((i / ${apps}) % 100)`,
        `'' || (1 + i / ${apps})`,
        `'com.example.app' || (1 + i % ${apps})`,
        `'项目' || (1 + i % ${apps})`,
        `'修复若干问题'`,
        `'[]'`,
        `'{}'`,
        `'[]'`,
        `${userBase} + (i % ${users})`,
        at(versions),
        at(versions),
      ],
    ),
    // Item c belongs to workflow c mod workflows; committers 开发者1…300; one in twenty is a merge (filtered).
    insert(
      dialect,
      'commit_logs',
      items,
      [
        'id',
        'app_id',
        'workflow_id',
        'commit_id',
        'commit_time',
        'branch',
        'tag_summary',
        'commit_message',
        'description',
        'file_urls',
        'remark',
        'is_filtered',
        'create_time',
        'update_time',
      ],
      [
        '1 + i',
        `1 + (i % ${workflows}) / ${workflowsPerApp}`,
        `1 + i % ${workflows}`,
        hex40(dialect, 'i'),
        at(items),
        `case when i % 10 < 7 then 'main' else 'develop' end`,
        `'[]'`,
        `'fix(ui): 修复登录后偶发白屏 #' || i`,
        `''`,
        `'[]'`,
        `'开发者' || (1 + (i * 7) % 300)`,
        `case when i % 20 = 0 then 1 else 0 end`,
        `${at(items)} + 60000`,
        `${at(items)} + 60000`,
      ],
    ),
  ];
}

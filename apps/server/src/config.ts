import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy } from './http/trust-proxy.ts';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./data'),
  /** postgres://… switches to PostgreSQL; empty means SQLite at DATA_DIR/release.db. */
  DATABASE_URL: z.string().optional(),
  /** Schema used inside PostgreSQL (tests isolate themselves with it). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('public'),
  /** PostgreSQL connections at most, and how long a request waits for one before it gets 503. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
  /** A PostgreSQL statement running (or waiting on a lock) longer is canceled and the request gets 503; 0 turns it off. */
  /** Icons and screenshots no record names are deleted by housekeeping this long after their upload. */
  MEDIA_GRACE_HOURS: z.coerce.number().min(1).default(24),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  PUBLIC_URL: z.string().url().optional(),
  /** A CDN or download host in front of this server for package and media links. */
  DOWNLOAD_BASE_URL: z.string().url().optional(),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  /** log: codes are written to the server log; webhook: POSTed as JSON to SMS_WEBHOOK_URL. */
  SMS_PROVIDER: z.enum(['log', 'webhook']).default('log'),
  SMS_WEBHOOK_URL: z.string().url().optional(),
  /** Bearer token /metrics asks for; without it /metrics answers only loopback requests that no proxy forwarded. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  /** Lark (Feishu) app id; the Feishu login button shows only when set. */
  LARK_APP_ID: z.string().optional(),
  LARK_APP_SECRET: z.string().optional(),
  /** Lark hosts: the Open Platform API, the OAuth authorize page, the legacy passport (QR login). */
  LARK_OPEN_BASE_URL: z.string().url().default('https://open.feishu.cn'),
  LARK_ACCOUNTS_BASE_URL: z.string().url().default('https://accounts.feishu.cn'),
  LARK_PASSPORT_BASE_URL: z.string().url().default('https://passport.feishu.cn'),
  /** Event subscription: the verification token and, when set in the Lark console, the encrypt key. */
  LARK_VERIFICATION_TOKEN: z.string().optional(),
  LARK_ENCRYPT_KEY: z.string().optional(),
  /** The tenant's document host (https://<tenant>.feishu.cn): where wiki nodes and followed documents open. */
  LARK_DOCS_BASE_URL: z.string().url().default('https://www.feishu.cn'),
  /** WeCom: the API host (robots, gettoken, user info) and the SSO login host; corp app for sign-in. */
  WECOM_BASE_URL: z.string().url().default('https://qyapi.weixin.qq.com'),
  WECOM_LOGIN_BASE_URL: z.string().url().default('https://login.work.weixin.qq.com'),
  WECOM_CORP_ID: z.string().optional(),
  WECOM_AGENT_ID: z.string().optional(),
  WECOM_SECRET: z.string().optional(),
  /** The App Store Connect API (Apple accounts); tests point it at the fake of tools/fakes. */
  APPLE_API_BASE_URL: z.string().url().default('https://api.appstoreconnect.apple.com'),
  /** Key for signed URLs and for secrets encrypted at rest; when unset, DATA_DIR/secret.key (generated on SQLite; required with DATABASE_URL). */
  SECRET_KEY: z.string().min(32).optional(),
  /** The key SECRET_KEY replaces, during a rotation only (`npm run admin -- rotate-key`). */
  SECRET_KEY_PREVIOUS: z.string().min(32).optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** Seconds between polls of git and svn workflows (0 turns polling off). */
  SYNC_INTERVAL_SEC: z.coerce.number().int().min(0).default(300),
  /** git and svn against a remote: connecting (DNS, TCP, TLS or greeting), a silent transfer, one whole command. */
  REPO_CONNECT_TIMEOUT_SEC: z.coerce.number().positive().default(15),
  REPO_IDLE_TIMEOUT_SEC: z.coerce.number().positive().default(60),
  REPO_COMMAND_TIMEOUT_SEC: z.coerce.number().positive().default(600),
  /** Allow file:// repositories (single-machine setups); off by default on a shared server. */
  ALLOW_FILE_REPOSITORIES: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Largest package accepted, in MB. */
  MAX_PACKAGE_MB: z.coerce.number().int().min(1).default(8192),
  /** Unfinished uploads (issued, transferring, or done but not yet used) one user may hold: how many, and their MB. */
  UPLOAD_QUOTA_FILES: z.coerce.number().int().min(1).default(50),
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).default(20480),
  /** Worker threads that inspect uploaded packages; each takes one package at a time. */
  INSPECT_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  /** Seconds one package's inspection may take before its worker is stopped and the upload refused. */
  INSPECT_TIMEOUT_SEC: z.coerce.number().int().min(1).default(120),
  /** Heap of each inspection worker, in MB; a package whose inspection needs more is refused. */
  INSPECT_MEMORY_MB: z.coerce.number().int().min(32).default(512),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Whose X-Forwarded-For gives the client address: false, true (anyone's), a hop count, or proxy IPs/CIDRs. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (parsed !== null) return parsed;
      ctx.addIssue({
        code: 'custom',
        message: 'true, false, a hop count (1) or proxy addresses/CIDRs (10.0.0.1,10.0.0.0/8)',
      });
      return z.NEVER;
    }),
  /** PEM certificate (then its chain) and RSA key files that sign the device registration .mobileconfig. */
  MOBILECONFIG_SIGN_CERT: z.string().optional(),
  MOBILECONFIG_SIGN_KEY: z.string().optional(),
});

export type Config = Omit<z.infer<typeof schema>, 'DATA_DIR'> & { DATA_DIR: string };

/** Reads the whole configuration from an env map; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(blankless);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (Boolean(cfg.MOBILECONFIG_SIGN_CERT) !== Boolean(cfg.MOBILECONFIG_SIGN_KEY))
    throw new Error('Invalid configuration:\n  MOBILECONFIG_SIGN_CERT, MOBILECONFIG_SIGN_KEY: set both or neither');
  if (cfg.SECRET_KEY_PREVIOUS && !cfg.SECRET_KEY)
    throw new Error('Invalid configuration:\n  SECRET_KEY_PREVIOUS: set only with SECRET_KEY (during a key rotation)');
  if (cfg.LARK_APP_ID && !cfg.LARK_APP_SECRET)
    throw new Error('Invalid configuration:\n  LARK_APP_SECRET: required when LARK_APP_ID is set');
  for (const key of [
    'LARK_OPEN_BASE_URL',
    'LARK_ACCOUNTS_BASE_URL',
    'LARK_PASSPORT_BASE_URL',
    'LARK_DOCS_BASE_URL',
    'WECOM_BASE_URL',
    'WECOM_LOGIN_BASE_URL',
  ] as const) {
    cfg[key] = cfg[key].replace(/\/+$/, '');
  }
  if (cfg.SMS_PROVIDER === 'webhook' && !cfg.SMS_WEBHOOK_URL) {
    throw new Error('Invalid configuration:\n  SMS_WEBHOOK_URL: required when SMS_PROVIDER=webhook');
  }
  if (cfg.STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !cfg[k]);
    if (missing.length)
      throw new Error(`Invalid configuration:\n${missing.map((k) => `  ${k}: required when STORAGE=s3`).join('\n')}`);
  }
  return { ...cfg, DATA_DIR: path.resolve(cfg.DATA_DIR) };
}

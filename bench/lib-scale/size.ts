/**
 * The sizes of the generated studio (issue 22, "Scale figures"): 500 apps, 200,000 versions, 20 million update items
 * and 5,000 users at full size, and the same layout at a fraction of it. Per app the data keeps its shape at every
 * size (400 versions, 4 workflows of 10,000 items each, 50 members), so a page of one app reads the same amount at
 * 1/100 as at full size: only the tables around it grow.
 */

export interface StudioSize {
  apps: number;
  versions: number;
  items: number;
  users: number;
  /** Workflows (update-log tabs) per app. */
  workflowsPerApp: number;
  /** Apps each user is a member of (the first with `edit`, the others `view`). */
  appsPerUser: number;
}

export const FULL_SIZE: StudioSize = {
  apps: 500,
  versions: 200_000,
  items: 20_000_000,
  users: 5_000,
  workflowsPerApp: 4,
  appsPerUser: 5,
};

const positive = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return value;
};

/**
 * The large data set: FULL_SIZE, or what SCALE_APPS, SCALE_VERSIONS, SCALE_ITEMS and SCALE_USERS say (to develop at a
 * small size), or FULL_SIZE divided by SCALE_DIVISOR (e.g. 100 runs the "large" side at 1/100 and the small at 1/10,000;
 * --quick means 10).
 */
export function largeSize(): StudioSize {
  // --quick (npm run bench -- --quick --scale): the large side at 1/10 (2 million items), the small at 1/1,000.
  const divisor = positive('SCALE_DIVISOR') ?? (process.argv.includes('--quick') ? 10 : 1);
  const base = divisor === 1 ? FULL_SIZE : fraction(FULL_SIZE, divisor);
  return {
    ...base,
    apps: positive('SCALE_APPS') ?? base.apps,
    versions: positive('SCALE_VERSIONS') ?? base.versions,
    items: positive('SCALE_ITEMS') ?? base.items,
    users: positive('SCALE_USERS') ?? base.users,
  };
}

/** The same studio at 1/`divisor` of every count (at least one app and one user). */
export function fraction(size: StudioSize, divisor: number): StudioSize {
  const part = (n: number) => Math.max(1, Math.round(n / divisor));
  return {
    ...size,
    apps: part(size.apps),
    versions: part(size.versions),
    items: part(size.items),
    users: part(size.users),
  };
}

/** Apps per user, never more than there are apps. */
export const membershipsPerUser = (size: StudioSize) => Math.min(size.appsPerUser, size.apps);

export const describeSize = (size: StudioSize) =>
  `${size.apps.toLocaleString('en')} apps, ${size.versions.toLocaleString('en')} versions, ${size.items.toLocaleString('en')} update items, ${size.users.toLocaleString('en')} users`;

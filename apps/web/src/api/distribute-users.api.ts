import type { AppPermit, BindAppBody } from '@release/contract';
import { api } from './client.ts';

/** One row of GET /api/user_apps (contract `userApp`). */
export interface UserApp {
  appId: number;
  appName: string;
  path: string;
  permit: AppPermit;
}

/** GET /api/user_apps: the apps one user may edit or download, with the permit (admins may ask about anyone). */
export async function fetchUserApps(userId: number, signal?: AbortSignal): Promise<UserApp[]> {
  return (await api.get<UserApp[]>('/api/user_apps', { userId }, { signal })).data;
}

/** POST /api/user/bind_app: one permit (or none) on the given apps for one user. */
export async function bindUserApps(body: BindAppBody): Promise<void> {
  await api.post<unknown>('/api/user/bind_app', body);
}

/** The bind_app calls that turn `current` into exactly `edit` + `view` (a permit per app, never both). */
export function permitChanges(current: UserApp[], edit: number[], view: number[]): Array<Omit<BindAppBody, 'userId'>> {
  const wanted = new Map<number, AppPermit>();
  for (const appId of view) wanted.set(appId, 'view');
  for (const appId of edit) wanted.set(appId, 'edit');
  const had = new Map(current.map((a) => [a.appId, a.permit]));
  const groups: { edit: number[]; view: number[]; none: number[] } = { edit: [], view: [], none: [] };
  for (const [appId, permit] of wanted) if (had.get(appId) !== permit) groups[permit].push(appId);
  for (const appId of had.keys()) if (!wanted.has(appId)) groups.none.push(appId);
  const changes: Array<Omit<BindAppBody, 'userId'>> = [
    { appIds: groups.edit, permit: 'edit' },
    { appIds: groups.view, permit: 'view' },
    { appIds: groups.none, permit: null },
  ];
  return changes.filter((g) => g.appIds.length > 0);
}

/** Saves a user's permits: only the apps whose permit changed are sent. */
export async function saveUserPermits(
  userId: number,
  current: UserApp[],
  edit: number[],
  view: number[],
): Promise<void> {
  for (const change of permitChanges(current, edit, view)) await bindUserApps({ userId, ...change });
}

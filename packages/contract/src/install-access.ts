import { z } from 'zod';

/** GET/POST /api/app/install_access: how testers get in, for the app page of editors and admins. */
export const installAccess = z.object({
  appId: z.number(),
  /** The install password testers type on /package/<path>. */
  password: z.string(),
  /** The password-protected install page. */
  downloadUrl: z.string(),
  /** /package/<publicPath>: the same page without the password, while `publicInstall` is on. */
  publicUrl: z.string(),
  publicInstall: z.boolean(),
});
export type InstallAccess = z.infer<typeof installAccess>;

export const installAccessQuery = z.object({ appId: z.coerce.number().int().min(1) });

/** Turns the password-free link on or off, and/or draws a new install password (which ends every remembered pass). */
export const updateInstallAccessBody = z.object({
  appId: z.coerce.number().int().min(1),
  publicInstall: z.boolean().optional(),
  regeneratePassword: z.boolean().optional(),
});
export type UpdateInstallAccessBody = z.infer<typeof updateInstallAccessBody>;

import { z } from 'zod';

export const certificateInfo = z.object({
  subject: z.string(),
  issuer: z.string(),
  /** Epoch ms. */
  validTo: z.number(),
  daysLeft: z.number(),
  trusted: z.boolean(),
  trustError: z.string().nullable(),
});
export type CertificateInfo = z.infer<typeof certificateInfo>;

/** GET /api/system/public_url_check (admins): how the configured PUBLIC_URL looks from the server. */
export const publicUrlReport = z.object({
  publicUrl: z.string().nullable(),
  https: z.boolean(),
  reachable: z.boolean(),
  /** The URL answered as this deployment, not another site behind a misrouted proxy. */
  sameDeployment: z.boolean(),
  certificate: certificateInfo.nullable(),
  problems: z.array(z.string()),
});
export type PublicUrlReport = z.infer<typeof publicUrlReport>;

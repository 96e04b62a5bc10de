import { z } from 'zod';

/**
 * A HarmonyOS signing identity (issue 21): the .p12 an admin uploads (stored as the iOS certificates are), with which
 * the server signs the install manifest of every HarmonyOS version whose modules are signed with the same key.
 */
export const harmonyCertificateRow = z.object({
  id: z.number(),
  name: z.string(),
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string(),
  sha1: z.string(),
  /** Base64 SPKI DER of the certificate's key: the key a build's modules must be signed with to use it. */
  publicKey: z.string(),
  /** `EC` (P-256, what Huawei issues) or `RSA`. */
  keyType: z.string(),
  validFrom: z.number(),
  validTo: z.number(),
  createTime: z.number(),
  uploadBy: z.string().nullable(),
});
export type HarmonyCertificateRow = z.infer<typeof harmonyCertificateRow>;

export const HarmonyCertMessages = {
  certificateExists: '该鸿蒙签名证书已上传',
  certificateNotFound: '鸿蒙签名证书不存在',
  profilesNotHere: '鸿蒙签名证书只需上传 .p12 和密码，不需要描述文件',
} as const;

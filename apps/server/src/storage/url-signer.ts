import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 signatures over a canonical list of fields, for URLs the server hands out and later checks. */
export function createUrlSigner(secret: string) {
  function sign(fields: Array<string | number>): string {
    return createHmac('sha256', secret).update(fields.join('\n')).digest('base64url');
  }
  return {
    sign,
    verify(fields: Array<string | number>, signature: string): boolean {
      const expected = Buffer.from(sign(fields));
      const actual = Buffer.from(signature);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
export type UrlSigner = ReturnType<typeof createUrlSigner>;

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AscApiError, createAscClient } from './asc-client.ts';

const p8 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const deviceAttributes = z.object({ name: z.string(), udid: z.string() });

/** A client whose every call is answered with `status` and `body`, as Apple (or something in its way) might. */
function answering(status: number, body: string) {
  return createAscClient({
    baseUrl: 'https://asc.test',
    credentials: { issuerId: 'issuer', keyId: 'KEY1234567', p8 },
    fetchImpl: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }),
  });
}

describe('App Store Connect answers', () => {
  it('reads the attributes a caller names from a page of resources', async () => {
    const page = { data: [{ type: 'devices', id: 'D1', attributes: { name: 'iPhone', udid: 'u1', model: null } }] };
    expect(await answering(200, JSON.stringify(page)).all('/v1/devices', deviceAttributes)).toEqual([
      { type: 'devices', id: 'D1', attributes: { name: 'iPhone', udid: 'u1' } },
    ]);
  });

  it('gives an answer that does not fit a clear MALFORMED_RESPONSE error naming the field', async () => {
    const odd = { data: [{ type: 'devices', id: 'D1', attributes: { name: 'iPhone', udid: 7 } }] };
    for (const [body, field] of [
      [JSON.stringify(odd), 'data.0.attributes.udid'],
      ['{"data": null}', 'data'],
      ['<html>maintenance</html>', 'JSON'],
    ] as const) {
      const error = await answering(200, body)
        .all('/v1/devices', deviceAttributes)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AscApiError);
      expect(error).toMatchObject({ status: 502, code: 'MALFORMED_RESPONSE' });
      expect((error as AscApiError).detail).toContain('GET /v1/devices does not fit');
      expect((error as AscApiError).detail).toContain(field);
    }
  });

  it("keeps Apple's own error code, and the status when the error is not Apple's shape", async () => {
    const refusal = {
      errors: [{ code: 'FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED', title: 'Agreement', detail: '' }],
    };
    await expect(answering(403, JSON.stringify(refusal)).all('/v1/devices', deviceAttributes)).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED',
    });
    await expect(answering(503, '{"errors": "down"}').all('/v1/devices', deviceAttributes)).rejects.toMatchObject({
      status: 503,
      code: 'HTTP_503',
    });
  });
});

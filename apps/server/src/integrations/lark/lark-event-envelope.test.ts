import { createCipheriv, createHash } from 'node:crypto';
import * as lark from '@larksuiteoapi/node-sdk';
import { describe, expect, it } from 'vitest';
import { decryptLarkEvent, larkEventSignature, LarkEventError, openLarkEvent } from './lark-event-envelope.ts';

const keys = { verificationToken: 'v-token', encryptKey: null };

function open(
  body: unknown,
  k: { verificationToken: string | null; encryptKey: string | null } = keys,
  headers: Record<string, string> = {},
) {
  return openLarkEvent({ headers, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) }, k);
}

describe('openLarkEvent', () => {
  it('decrypts the contract test vector as the SDK cipher does, without the SDK', () => {
    const vector = 'P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=';
    expect(decryptLarkEvent('test key', vector)).toBe('hello world');
    expect(new lark.AESCipher('test key').decrypt(vector)).toBe('hello world');
    const long = JSON.stringify({ event: { text: '飞书'.repeat(100) } });
    const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update('k2').digest(), Buffer.alloc(16, 7));
    const encrypted = Buffer.concat([Buffer.alloc(16, 7), cipher.update(long), cipher.final()]).toString('base64');
    expect(decryptLarkEvent('k2', encrypted)).toBe(new lark.AESCipher('k2').decrypt(encrypted));
    expect(() => decryptLarkEvent('wrong key', encrypted)).toThrow();
  });

  it('signs the raw bytes as hex(sha256(timestamp + nonce + key + body))', () => {
    const body = Buffer.from('{"encrypt":"abc"}');
    expect(larkEventSignature('1700000000', 'n', 'k', body)).toBe(
      createHash('sha256').update('1700000000nk{"encrypt":"abc"}').digest('hex'),
    );
  });

  it('reads schema 2.0 and 1.0 envelopes', () => {
    const v2 = open({
      schema: '2.0',
      header: { event_id: 'e1', event_type: 'drive.file.edit_v1', create_time: '1700000000000', token: 'v-token' },
      event: { file_token: 'f' },
    });
    expect(v2).toEqual({
      kind: 'event',
      eventId: 'e1',
      eventType: 'drive.file.edit_v1',
      createTime: 1700000000000,
      event: { file_token: 'f' },
    });
    // Some old samples carry µs.
    const micro = open({
      schema: '2.0',
      header: { event_id: 'e2', event_type: 't', create_time: '1700000000000000', token: 'v-token' },
      event: {},
    });
    expect(micro).toMatchObject({ createTime: 1700000000000 });
    const v1 = open({
      uuid: 'u1',
      ts: '1700000000.5',
      token: 'v-token',
      type: 'event_callback',
      event: { type: 'drive.file.edit_v1' },
    });
    expect(v1).toMatchObject({
      kind: 'event',
      eventId: 'u1',
      eventType: 'drive.file.edit_v1',
      createTime: 1700000000500,
    });
  });

  it('refuses what it cannot trust', () => {
    const reason = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof LarkEventError ? error.reason : 'other';
      }
      return 'accepted';
    };
    expect(reason(() => open('not json'))).toBe('bad_body');
    expect(
      reason(() => open({ schema: '2.0', header: { event_id: 'e', event_type: 't', token: 'wrong' }, event: {} })),
    ).toBe('bad_token');
    expect(reason(() => open({ encrypt: 'AAAA' }))).toBe('cannot_decrypt');
    expect(
      reason(() =>
        open(
          { encrypt: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
          { verificationToken: 'v-token', encryptKey: 'k' },
        ),
      ),
    ).toBe('cannot_decrypt');
    expect(
      reason(() =>
        open(
          { schema: '2.0', header: { event_id: 'e', event_type: 't', token: 'v-token' }, event: {} },
          { verificationToken: 'v-token', encryptKey: 'k' },
        ),
      ),
    ).toBe('missing_signature');
  });
});

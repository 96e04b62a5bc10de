import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

function boxKey(secret: string): Buffer {
  return createHash('sha256').update(`secret-box:${secret}`).digest();
}

function openWith(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** A sealed value none of the box's keys opens (a wrong key, or a value changed by hand). */
export class SealedValueError extends Error {
  constructor() {
    super('a stored secret could not be decrypted with the server key');
    this.name = 'SealedValueError';
  }
}

/**
 * AES-256-GCM for secrets kept at rest (install passwords, certificate keys, webhook and robot secrets);
 * `v1.<iv>.<tag>.<data>`. Values are sealed with `secret`; `previous` keys (a rotation under way) still open
 * what was sealed with them, and `reseal` moves such a value onto the current key.
 */
export function createSecretBox(secret: string, previous: readonly string[] = []) {
  const current = boxKey(secret);
  const older = previous.filter((p) => p !== secret).map(boxKey);
  const tryOpen = (key: Buffer, sealed: string): string | null => {
    try {
      return openWith(key, sealed);
    } catch {
      return null;
    }
  };
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        data.toString('base64url'),
      ].join('.');
    },
    open(sealed: string): string {
      const plain =
        tryOpen(current, sealed) ?? older.reduce<string | null>((found, key) => found ?? tryOpen(key, sealed), null);
      if (plain === null) throw new SealedValueError();
      return plain;
    },
    /** Whether the current key opens the value (a rotation leaves such values alone). */
    opensWithCurrent: (sealed: string) => tryOpen(current, sealed) !== null,
    /** The value sealed again with the current key; null when it already is. Throws SealedValueError when no key opens it. */
    reseal(sealed: string): string | null {
      if (tryOpen(current, sealed) !== null) return null;
      return this.seal(this.open(sealed));
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

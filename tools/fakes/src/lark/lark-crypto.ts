import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** Custom bot signature: Base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = empty)). */
export function signBotRequest(timestamp: string | number, secret: string): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update(Buffer.alloc(0)).digest('base64');
}

function eventKey(encryptKey: string): Buffer {
  return createHash('sha256').update(encryptKey, 'utf8').digest();
}

/** Event encryption: base64(16-byte IV ‖ AES-256-CBC(key = SHA-256(encryptKey), PKCS#7)). */
export function encryptEvent(encryptKey: string, plaintext: string, iv: Buffer = randomBytes(16)): string {
  const cipher = createCipheriv('aes-256-cbc', eventKey(encryptKey), iv);
  return Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

export function decryptEvent(encryptKey: string, encrypted: string): string {
  const raw = Buffer.from(encrypted, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', eventKey(encryptKey), raw.subarray(0, 16));
  return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8');
}

/** X-Lark-Signature: hex(sha256(timestamp + nonce + encryptKey + body)). */
export function signEvent(timestamp: string, nonce: string, encryptKey: string, body: string): string {
  return createHash('sha256')
    .update(timestamp + nonce + encryptKey + body)
    .digest('hex');
}

export interface JsapiSignInput {
  ticket: string;
  nonceStr: string;
  timestamp: string | number;
  url: string;
}

/** JSAPI page signature: sha1 of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`, values not encoded. */
export function signJsapi(input: JsapiSignInput): string {
  const url = input.url.split('#')[0] ?? '';
  return createHash('sha1')
    .update(`jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${url}`)
    .digest('hex');
}

export function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

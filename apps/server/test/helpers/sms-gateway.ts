import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback SMS gateway that records what the server's webhook SMS provider posts. */
export async function startSmsGateway() {
  const received: Array<{ phone: string; text: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(body) as { phone: string; text: string });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  return {
    url,
    received,
    /** The six-digit code of the last message sent to that phone. */
    lastCodeFor(phone: string): string {
      const message = received.filter((m) => m.phone === phone).at(-1);
      const code = message?.text.match(/\d{6}/)?.[0];
      if (!code) throw new Error(`no code was sent to ${phone}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a server (PostgreSQL here) that can fall silent: while silent it keeps every socket open
 * and accepts new ones but passes no byte either way — what a failover, a dropped route or a frozen host looks like
 * to a client (no reset, no close). Speaking again, bytes flow on new connections; the silenced ones stay dead.
 */
export interface SilentTcpProxy {
  /** `postgres://…` with the proxy's port in place of the target's. */
  url: string;
  silence(): void;
  speak(): void;
  close(): Promise<void>;
}

export async function startSilentTcpProxy(targetUrl: string): Promise<SilentTcpProxy> {
  const target = new URL(targetUrl);
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    // Once silenced, a connection never carries a byte again (a half-delivered message would confuse the driver).
    let dead = silent;
    const relay = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (silent) dead = true;
        if (!dead) to.write(chunk);
      });
    relay(client, upstream);
    relay(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    silence: () => {
      silent = true;
    },
    speak: () => {
      silent = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

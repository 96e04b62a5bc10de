import { lookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import { isNameDenied, judgeHost, parseAddress, type HostRules } from './host-rules.ts';
import { RepoAccessError, type PinnedHost, type RepoTimeouts } from './repo-access-error.ts';
import { repoTargetOf, type RepoTarget } from './repo-target.ts';

export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RepoAccessError('unreachable', `${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Opens a connection to the pinned address as git or svn would, and checks the other end answers in time: a TLS
 * handshake (https), the server's greeting (ssh, svnserve), or just the connection (http, where the client speaks
 * first and git's own low-speed limit covers a silent server). Any failure is `unreachable`, whatever it was.
 */
function probe(target: RepoTarget, address: string, timeouts: RepoTimeouts): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (detail: string) => {
      socket.destroy();
      reject(new RepoAccessError('unreachable', `${target.host}:${target.port} (${address}): ${detail}`));
    };
    const done = () => {
      socket.destroy();
      resolve();
    };
    const servername = parseAddress(target.host) ? undefined : target.host;
    const socket =
      target.greeting === 'tls'
        ? tls.connect(
            { host: address, port: target.port, servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] },
            done,
          )
        : net.connect({ host: address, port: target.port }, () => {
            if (target.greeting === 'connect') return done();
            socket.setTimeout(timeouts.idleMs);
          });
    // Until connected (and for TLS, handshaken): the connect limit; then the greeting gets the idle limit.
    socket.setTimeout(timeouts.connectMs);
    socket.once('timeout', () => fail('no answer in time'));
    socket.once('error', (error) => fail(error.message));
    socket.once('close', () => fail('closed'));
    if (target.greeting === 'banner') socket.once('data', done);
  });
}

/**
 * The host check of repository addresses. `checkWritten` runs on save, on what the address itself says (a literal
 * address, a host name on the lists) — names are not resolved then. `reach` runs before every git or svn run: it
 * resolves the name, judges every address it has, probes the first one and answers it as the pin.
 */
export function createRepoHostGuard(deps: {
  rules: () => Promise<HostRules>;
  timeouts: RepoTimeouts;
  resolve?: Resolve;
}) {
  const resolve = deps.resolve ?? systemResolve;
  return {
    /** Refused on save: a literal private address not allowed, or a denied host; null for file:// and the like. */
    async checkWritten(url: string): Promise<RepoAccessError | null> {
      const target = repoTargetOf(url);
      if (!target) return null;
      const literal = parseAddress(target.host);
      const rules = await deps.rules();
      // A name is judged on save only by the lists (its addresses are checked each time it is connected to).
      const verdict = literal
        ? judgeHost(target.host, [target.host], rules)
        : isNameDenied(target.host, rules)
          ? 'refused'
          : 'allowed';
      return verdict === 'refused'
        ? new RepoAccessError('refused_host', `${target.host} refused by the host rules`)
        : null;
    },

    /** The address to connect to for `url` (null for file://), or a RepoAccessError. */
    async reach(url: string): Promise<PinnedHost | null> {
      const target = repoTargetOf(url);
      if (!target) return null;
      const literal = parseAddress(target.host);
      let addresses: string[];
      try {
        addresses = literal
          ? [literal.toString()]
          : await withTimeout(resolve(target.host), deps.timeouts.connectMs, `resolving ${target.host}`);
      } catch (error) {
        if (error instanceof RepoAccessError) throw error;
        throw new RepoAccessError(
          'unreachable',
          `resolving ${target.host}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (judgeHost(target.host, addresses, await deps.rules()) === 'refused')
        throw new RepoAccessError('refused_host', `${target.host} → ${addresses.join(', ')}`);
      const address = addresses[0] ?? '';
      await probe(target, address, deps.timeouts);
      return { host: target.host, port: target.port, address };
    },
  };
}
export type RepoHostGuard = ReturnType<typeof createRepoHostGuard>;

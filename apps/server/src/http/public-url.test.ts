import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  defaultRouteInterfaces,
  hostKey,
  serverAddresses,
  startupAddressNote,
  type NetworkView,
} from './public-url.ts';

const ROUTES = `Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
docker0\tAC110000\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0
eth0\t0000000A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0
`;

const info = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as unknown as os.NetworkInterfaceInfo;

const NET: NetworkView = {
  interfaces: {
    lo: [info('127.0.0.1', 'IPv4', true), info('::1', 'IPv6', true)],
    docker0: [info('172.17.0.1', 'IPv4')],
    wlan0: [info('192.168.1.20', 'IPv4'), info('fe80::1', 'IPv6')],
    eth0: [info('10.0.0.5', 'IPv4'), info('fd00::5', 'IPv6')],
  },
  routeInterfaces: ['eth0', 'wlan0'],
  hostname: 'buildbox',
};

describe('the addresses a server hands out in links', () => {
  it('reads the default routes from /proc/net/route, lowest metric first', () => {
    expect(defaultRouteInterfaces(ROUTES)).toEqual(['eth0', 'wlan0']);
    expect(defaultRouteInterfaces('Iface\tDestination\n')).toEqual([]);
  });

  it('listening on all interfaces, links use the default-route LAN address; the others are listed', () => {
    const addresses = serverAddresses([{ address: '0.0.0.0', port: 8080 }], NET);
    expect(addresses.primary).toBe('http://10.0.0.5:8080');
    expect(addresses.primaryIsLoopback).toBe(false);
    expect(addresses.others).toEqual(['http://192.168.1.20:8080', 'http://172.17.0.1:8080', 'http://localhost:8080']);
    for (const own of [
      '10.0.0.5:8080',
      '192.168.1.20:8080',
      '127.0.0.1:8080',
      'localhost:8080',
      'buildbox:8080',
      'buildbox.local:8080',
    ])
      expect(addresses.own.has(own), own).toBe(true);
    expect(addresses.own.has('10.0.0.5:9090')).toBe(false);
    expect(addresses.own.has('evil.example:8080')).toBe(false);
    // 0.0.0.0 does not answer IPv6.
    expect(addresses.own.has('fd00::5:8080')).toBe(false);
  });

  it('on :: the IPv6 addresses are ours too, and IPv4 on the default route still comes first', () => {
    const addresses = serverAddresses([{ address: '::', port: 80 }], NET);
    expect(addresses.primary).toBe('http://10.0.0.5:80');
    expect(addresses.own.has('fd00::5:80')).toBe(true);
    expect(addresses.others).toContain('http://[fd00::5]:80');
    expect(addresses.others.some((base) => base.includes('fe80'))).toBe(false);
  });

  it('without a known default route, a private IPv4 address is taken', () => {
    const addresses = serverAddresses([{ address: '0.0.0.0', port: 8080 }], {
      ...NET,
      routeInterfaces: [],
      interfaces: { lo: NET.interfaces.lo, ppp0: [info('100.64.3.2', 'IPv4')], wlan0: [info('192.168.1.20', 'IPv4')] },
    });
    expect(addresses.primary).toBe('http://192.168.1.20:8080');
  });

  it('listening on loopback only, links stay on loopback and say so', () => {
    const addresses = serverAddresses([{ address: '127.0.0.1', port: 3000 }], NET);
    expect(addresses).toMatchObject({ primary: 'http://127.0.0.1:3000', primaryIsLoopback: true, others: [] });
    expect([...addresses.own].sort()).toEqual(['127.0.0.1:3000', 'localhost:3000']);
    expect(startupAddressNote(addresses)).toContain('phones cannot open');
  });

  it('listening on one address, links use it', () => {
    const addresses = serverAddresses([{ address: '192.168.1.20', port: 8080 }], NET);
    expect(addresses.primary).toBe('http://192.168.1.20:8080');
    expect(addresses.own.has('10.0.0.5:8080')).toBe(false);
    expect(startupAddressNote(addresses)).toContain('links and QR codes use http://192.168.1.20:8080');
  });

  it('a machine with no LAN interface falls back to localhost', () => {
    const addresses = serverAddresses([{ address: '0.0.0.0', port: 8080 }], {
      interfaces: { lo: NET.interfaces.lo },
      routeInterfaces: [],
      hostname: 'box',
    });
    expect(addresses).toMatchObject({ primary: 'http://localhost:8080', primaryIsLoopback: true });
  });

  it('reads a Host header as host:port, refusing anything that is not a bare host', () => {
    expect(hostKey('10.0.0.5:8080', 'http')).toBe('10.0.0.5:8080');
    expect(hostKey('Example.COM', 'https')).toBe('example.com:443');
    expect(hostKey('example.com', 'http')).toBe('example.com:80');
    expect(hostKey('[FD00::5]:80', 'http')).toBe('fd00::5:80');
    expect(hostKey('localhost.:8080', 'http')).toBe('localhost:8080');
    expect(hostKey('user@10.0.0.5:8080', 'http')).toBeNull();
    expect(hostKey('10.0.0.5:8080/x', 'http')).toBeNull();
    expect(hostKey('a b', 'http')).toBeNull();
  });
});

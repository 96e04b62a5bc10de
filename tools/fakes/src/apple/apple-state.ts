import type { KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { randomChars } from '../shared/ids.ts';

export type AscPlatform = 'IOS' | 'MAC_OS' | 'UNIVERSAL';
export type AscDeviceClass = 'APPLE_WATCH' | 'IPAD' | 'IPHONE' | 'IPOD' | 'APPLE_TV' | 'MAC';

export interface AscDevice {
  id: string;
  name: string;
  platform: AscPlatform;
  udid: string;
  deviceClass: AscDeviceClass;
  status: 'ENABLED' | 'DISABLED';
  model: string | null;
  addedDate: string;
}

export interface AscCertificate {
  id: string;
  name: string;
  certificateType: string;
  displayName: string;
  serialNumber: string;
  platform: AscPlatform;
  expirationDate: string;
  /** base64 DER X.509 */
  certificateContent: string;
}

export interface AscBundleId {
  id: string;
  name: string;
  identifier: string;
  platform: AscPlatform;
  seedId: string;
}

export interface AscProfile {
  id: string;
  name: string;
  platform: AscPlatform;
  profileType: string;
  profileState: 'ACTIVE' | 'INVALID';
  profileContent: string;
  uuid: string;
  createdDate: string;
  expirationDate: string;
  bundleIdId: string;
  certificateIds: string[];
  deviceIds: string[];
}

export interface AscKey {
  issuerId: string;
  keyId: string;
  publicKey: KeyObject;
  revoked?: boolean;
}

export interface DeviceSeed {
  name: string;
  udid: string;
  platform?: AscPlatform;
  deviceClass?: AscDeviceClass;
  status?: 'ENABLED' | 'DISABLED';
  model?: string | null;
}

/** Apple's resource ids: 10 upper-case letters and digits. */
export function ascId(): string {
  return randomChars(10).toUpperCase();
}

/** ISO-8601 with millis and offset, as Apple writes dates. */
export function ascDate(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

const FAMILY_WORD: Record<AscDeviceClass, string> = {
  IPHONE: 'iPhone',
  IPAD: 'iPad',
  IPOD: 'iPod touch',
  APPLE_WATCH: 'Apple Watch',
  APPLE_TV: 'Apple TV',
  MAC: 'Mac',
};

export function familyWord(deviceClass: AscDeviceClass): string {
  return FAMILY_WORD[deviceClass];
}

/** One team behind one or more API keys: its devices, certificates, bundle ids and profiles. */
export class AppleState {
  readonly keys = new Map<string, AscKey>();
  readonly devices: AscDevice[] = [];
  readonly certificates: AscCertificate[] = [];
  readonly bundleIds: AscBundleId[] = [];
  readonly profiles: AscProfile[] = [];
  /** Contract F2: an unsigned agreement blocks every endpoint with 403. */
  agreementExpired = false;
  /** Contract F3: devices per device class per membership year (disabled ones count too). */
  deviceLimit = 100;
  /** Requests per key per rolling hour (contract F2: 3500). */
  hourlyLimit = 3500;
  /** Contract F6: right after a delete Apple may still hold the name for a while (0 = released at once). */
  profileNameHoldMs = 0;
  /** Names of deleted profiles still held, with when they are released. */
  readonly heldProfileNames = new Map<string, number>();
  /** Request times per key id, for the rolling hour. */
  readonly hits = new Map<string, number[]>();

  constructor(
    readonly teamId: string,
    readonly teamName: string,
  ) {}

  addDevice(seed: DeviceSeed, now: number): AscDevice {
    const platform = seed.platform ?? 'IOS';
    const device: AscDevice = {
      id: ascId(),
      name: seed.name,
      platform,
      udid: seed.udid,
      deviceClass: seed.deviceClass ?? (platform === 'MAC_OS' ? 'MAC' : 'IPHONE'),
      status: seed.status ?? 'ENABLED',
      model: seed.model ?? null,
      addedDate: ascDate(now),
    };
    this.devices.push(device);
    return device;
  }

  /** Registers a certificate the team owns (its DER, e.g. the one behind a test .p12). */
  addCertificate(input: {
    der: Buffer;
    certificateType?: string;
    name?: string;
    platform?: AscPlatform;
  }): AscCertificate {
    const cert = forge.pki.certificateFromAsn1(
      forge.asn1.fromDer(forge.util.createBuffer(input.der.toString('binary'))),
    );
    const commonName = String(cert.subject.getField('CN')?.value ?? 'Apple Development');
    const certificate: AscCertificate = {
      id: ascId(),
      name: input.name ?? commonName.split(':')[0] ?? commonName,
      certificateType:
        input.certificateType ??
        (commonName.startsWith('Apple Distribution') || commonName.startsWith('iPhone Distribution')
          ? 'DISTRIBUTION'
          : 'DEVELOPMENT'),
      displayName: commonName.replace(/^[^:]*:\s*/, '').replace(/\s*\([A-Z0-9]+\)$/, ''),
      serialNumber: cert.serialNumber.toUpperCase(),
      platform: input.platform ?? 'IOS',
      expirationDate: ascDate(cert.validity.notAfter.getTime()),
      certificateContent: input.der.toString('base64'),
    };
    this.certificates.push(certificate);
    return certificate;
  }

  addBundleId(input: { identifier: string; name?: string; platform?: AscPlatform }): AscBundleId {
    const bundleId: AscBundleId = {
      id: ascId(),
      identifier: input.identifier,
      name: input.name ?? input.identifier.split('.').pop() ?? input.identifier,
      platform: input.platform ?? 'IOS',
      seedId: this.teamId,
    };
    this.bundleIds.push(bundleId);
    return bundleId;
  }

  /** Forgets what the API created and the request windows; keys and seeds given at start stay. */
  snapshot() {
    return {
      teamId: this.teamId,
      agreementExpired: this.agreementExpired,
      deviceLimit: this.deviceLimit,
      hourlyLimit: this.hourlyLimit,
      keys: [...this.keys.values()].map((k) => ({ issuerId: k.issuerId, keyId: k.keyId, revoked: Boolean(k.revoked) })),
      devices: this.devices,
      certificates: this.certificates,
      bundleIds: this.bundleIds,
      profiles: this.profiles.map(({ profileContent: _content, ...rest }) => rest),
    };
  }
}

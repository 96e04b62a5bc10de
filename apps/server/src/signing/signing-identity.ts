import type { KeyObject } from 'node:crypto';
import type { CertProfileType } from '@release/contract';
import type { ProvisioningProfile } from '@release/inspect/types.ts';

/** A provisioning profile as the signer uses it: embedded byte for byte, matched to bundles by `appId`. */
export interface SigningProfile {
  uuid: string;
  name: string;
  type: CertProfileType;
  /** `TEAMID.com.acme.app` or a wildcard `TEAMID.*`. */
  appId: string;
  bundleId: string;
  /** The `.mobileprovision` file as uploaded. */
  content: Buffer;
  /** Its parsed plist (entitlements, devices, certificates). */
  profile: ProvisioningProfile;
}

/** Everything re-signing needs from a stored certificate: opened from the sealed columns only when signing. */
export interface SigningIdentity {
  certificateId: number;
  commonName: string;
  teamId: string | null;
  /** The leaf certificate, DER, byte-exact. */
  certificateDer: Buffer;
  /** Intermediates that came with it in the .p12 (DER). */
  chain: Buffer[];
  privateKey: KeyObject;
  profiles: SigningProfile[];
}

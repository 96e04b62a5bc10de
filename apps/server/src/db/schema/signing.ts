import type { Generated } from 'kysely';

/** Tables of iOS signing: Apple accounts, certificates, devices, device enrollment, re-signing. Times are UTC epoch milliseconds; booleans are 0/1; JSON columns are text. */

/** An App Store Connect API key (modules/apple-accounts); the .p8 is sealed with the server secret. */
export interface AppleAccountsTable {
  id: Generated<number>;
  name: string;
  issuer_id: string;
  key_id: string;
  private_key_sealed: string;
  /** The team, learnt from the account's bundle ids or certificates at sync. */
  team_id: string | null;
  remark: string;
  /** JSON AppleSyncResult of the last sync. */
  last_sync: string | null;
  last_sync_time: number | null;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

/** What an account is bound to: apps and uploaded certificates (one account per target). */
export interface AppleAccountBindingsTable {
  account_id: number;
  target_type: 'app' | 'certificate';
  target_id: number;
}

/** The account's devices as Apple listed them at the last sync (or as registered since). */
export interface AppleDevicesTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  udid: string;
  name: string;
  platform: string;
  device_class: string;
  status: string;
  model: string | null;
}

export interface AppleCertificatesTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  name: string;
  certificate_type: string;
  display_name: string;
  serial_number: string;
  expire_time: number;
  /** Upper-case hex SHA-1 of the DER, to match an uploaded certificate. */
  sha1: string;
}

export interface AppleBundleIdsTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  identifier: string;
  name: string;
  platform: string;
  seed_id: string | null;
}

export interface CertificatesTable {
  id: Generated<number>;
  group_id: string;
  main_bundle_id: string;
  common_name: string;
  subject: string;
  team_id: string | null;
  team_name: string | null;
  serial_number: string;
  /** Upper-case hex SHA-1 of the certificate DER (Keychain's fingerprint); unique. */
  sha1: string;
  valid_from: number;
  valid_to: number;
  /** Base64 DER of the leaf certificate. */
  certificate_der: string;
  /** JSON list of base64 DER certificates that came with it in the .p12. */
  chain_der: string;
  /** PKCS#8 PEM of the private key, sealed with the server secret. */
  private_key_sealed: string;
  /** The .p12 password, sealed with the server secret. */
  password_sealed: string;
  create_by: number | null;
  create_time: number;
}

/** A HarmonyOS signing identity (migration 064, issue 21): signs the install manifests of builds signed with its key. */
export interface HarmonyCertificatesTable {
  id: Generated<number>;
  common_name: string;
  subject: string;
  issuer: string;
  serial_number: string;
  /** Upper-case hex SHA-1 of the certificate DER; unique. */
  sha1: string;
  /** Base64 SPKI DER of the certificate's public key: matched against a build's `signature.publicKey`. */
  public_key: string;
  valid_from: number;
  valid_to: number;
  /** Base64 DER of the certificate. */
  certificate_der: string;
  /** PKCS#8 PEM of the private key, sealed with the server secret. */
  private_key_sealed: string;
  /** The .p12 password, sealed with the server secret. */
  password_sealed: string;
  create_by: number | null;
  create_time: number;
}

export interface CertificateProfilesTable {
  id: Generated<number>;
  certificate_id: number;
  uuid: string;
  name: string;
  profile_type: string;
  team_id: string | null;
  app_id: string;
  bundle_id: string;
  /** JSON list of UDIDs. */
  devices: string;
  provisions_all_devices: number;
  lists_certificate: number;
  expire_time: number;
  /** Base64 of the profile file as uploaded. */
  content: string;
}

export interface DevicesTable {
  id: Generated<number>;
  udid: string;
  device_name: string;
  platform: 'ios' | 'mac';
  model: string | null;
  remark: Generated<string>;
  /** An admin's review: install page registrations start pending; only confirmed devices go to Apple. */
  review_status: Generated<'confirmed' | 'pending' | 'rejected'>;
  user_id: number | null;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

/** A self-service device registration (Profile Service); see modules/device-enroll. */
export interface DeviceEnrollmentsTable {
  id: Generated<number>;
  challenge_hash: string;
  user_id: number | null;
  app_id: number | null;
  version_id: number | null;
  create_time: number;
  expire_time: number;
  used_time: number | null;
  udid: string | null;
  product: string | null;
  os_version: string | null;
  serial: string | null;
  outcome: 'registered' | 'known' | null;
}

/** One `/api/zsign` re-signing; the job `zsign.resign` runs it (modules/zsign). */
export interface ResignJobsTable {
  id: Generated<number>;
  app_id: number;
  source_version_id: number;
  certificate_id: number;
  certificate_name: string;
  user_id: number;
  status: 'pending' | 'running' | 'done' | 'failed';
  /** 0–100. */
  progress: number;
  stage: 'queued' | 'read' | 'sign' | 'write' | 'verify' | 'store' | 'done';
  error: string | null;
  result_version_id: number | null;
  /** SHA-256 hex of what was asked (source, certificate, its current profiles, options): the same ask returns this run. */
  request_key: string | null;
  /** JSON ResignOptions (what the re-signing changes); null for none. */
  options: string | null;
  /** Bytes of the current stage done and in all (progress by bytes). */
  bytes_done: Generated<number>;
  bytes_total: Generated<number>;
  create_time: number;
  update_time: number;
}

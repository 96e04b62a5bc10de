import { FakeClock } from '../shared/clock.ts';
import { controlRoute, requireNumber, requireString } from '../shared/control.ts';
import { fakeHost, withFakeBase, type FakeBase } from '../shared/fake-base.ts';
import type { RecordedRequest, RouteDef } from '../shared/http-server.ts';
import { uuid } from '../shared/ids.ts';
import type { AppleContext } from './apple-context.ts';
import { ascError, methodNotAllowed, pathNotFound } from './apple-errors.ts';
import { generateAscKey, publicKeyOfP8, type AscKeyPair } from './apple-jwt.ts';
import { makeProfileSigner } from './apple-profile.ts';
import {
  AppleState,
  type AscBundleId,
  type AscCertificate,
  type AscDevice,
  type AscPlatform,
  type DeviceSeed,
} from './apple-state.ts';
import { deviceRoutes } from './device.routes.ts';
import { profileRoutes } from './profile.routes.ts';

export interface AppleFakeOptions {
  port?: number;
  host?: string;
  clock?: FakeClock;
  /** The team (App ID prefix); default a random 10-character id. */
  teamId?: string;
  teamName?: string;
  devices?: DeviceSeed[];
  bundleIds?: Array<{ identifier: string; name?: string }>;
}

/** An API key as App Store Connect shows it once: issuer id, key id and the .p8. */
export type AppleApiKey = Pick<AscKeyPair, 'issuerId' | 'keyId' | 'p8'>;

export interface AppleFake extends FakeBase {
  readonly state: AppleState;
  /** Why the last refused bearer token was refused (Apple's body says only NOT_AUTHORIZED). */
  readonly lastAuthFailure: { reason: string } | null;
  /** Creates a team API key (a fresh EC P-256 key unless a .p8 is given). */
  addKey(input?: { issuerId?: string; keyId?: string; p8?: string }): AppleApiKey;
  revokeKey(keyId: string): void;
  addDevice(seed: DeviceSeed): AscDevice;
  addCertificate(input: {
    der: Buffer;
    certificateType?: string;
    name?: string;
    platform?: AscPlatform;
  }): AscCertificate;
  addBundleId(input: { identifier: string; name?: string; platform?: AscPlatform }): AscBundleId;
  setAgreementExpired(expired: boolean): void;
  setDeviceLimit(limit: number): void;
  setHourlyLimit(limit: number): void;
  /** Keeps a deleted profile's name taken for this long (Apple's lag after a delete); 0 releases at once. */
  setProfileNameHold(ms: number): void;
  /** Forgets requests, injected errors, rate windows and the agreement/limit switches; resources stay. */
  reset(): void;
}

export async function startAppleFake(options: AppleFakeOptions = {}): Promise<AppleFake> {
  const clock = options.clock ?? new FakeClock();
  const state = new AppleState(options.teamId ?? 'T3AM5FAKE1', options.teamName ?? 'Example Co., Ltd.');
  const ctx: AppleContext = {
    state,
    clock,
    signer: makeProfileSigner(clock.now()),
    baseUrl: () => host.base.url,
    lastAuthFailure: null,
  };
  // Apple's reset leaves the clock's timers alone (a test may share one clock across fakes).
  const host = fakeHost(clock, () => {
    state.hits.clear();
    state.agreementExpired = false;
    state.deviceLimit = 100;
    state.hourlyLimit = 3500;
    state.profileNameHoldMs = 0;
    state.heldProfileNames.clear();
    ctx.lastAuthFailure = null;
  });

  const fake = withFakeBase<AppleFake>(host.base, {
    state,
    get lastAuthFailure() {
      return ctx.lastAuthFailure;
    },
    addKey(input = {}) {
      const issuerId = input.issuerId ?? uuid();
      if (input.p8) {
        const keyId = input.keyId ?? generateAscKey(issuerId).keyId;
        state.keys.set(keyId, { issuerId, keyId, publicKey: publicKeyOfP8(input.p8) });
        return { issuerId, keyId, p8: input.p8 };
      }
      const key = generateAscKey(issuerId, input.keyId);
      state.keys.set(key.keyId, { issuerId, keyId: key.keyId, publicKey: key.publicKey });
      return { issuerId, keyId: key.keyId, p8: key.p8 };
    },
    revokeKey(keyId) {
      const key = state.keys.get(keyId);
      if (key) key.revoked = true;
    },
    addDevice: (seed) => state.addDevice(seed, clock.now()),
    addCertificate: (input) => state.addCertificate(input),
    addBundleId: (input) => state.addBundleId(input),
    setAgreementExpired(expired) {
      state.agreementExpired = expired;
    },
    setDeviceLimit(limit) {
      state.deviceLimit = limit;
    },
    setHourlyLimit(limit) {
      state.hourlyLimit = limit;
    },
    setProfileNameHold(ms) {
      state.profileNameHoldMs = ms;
    },
  });

  for (const seed of options.devices ?? []) fake.addDevice(seed);
  for (const seed of options.bundleIds ?? []) fake.addBundleId(seed);

  const control: RouteDef[] = [
    controlRoute('GET', '/state', () => state.snapshot()),
    controlRoute('GET', '/requests', (): RecordedRequest[] => fake.requests),
    controlRoute('POST', '/reset', () => fake.reset()),
    controlRoute('POST', '/clock/advance', async (input) => fake.advance(requireNumber(input, 'ms'))),
    controlRoute('POST', '/errors', (input) =>
      fake.injectError({
        route: requireString(input, 'route'),
        status: requireNumber(input, 'status'),
        body: input.body,
        times: input.times as number | undefined,
      }),
    ),
    controlRoute('DELETE', '/errors', () => fake.clearInjectedErrors()),
    controlRoute('POST', '/keys', (input) =>
      fake.addKey({
        issuerId: input.issuerId as string | undefined,
        keyId: input.keyId as string | undefined,
        p8: input.p8 as string | undefined,
      }),
    ),
    controlRoute('POST', '/keys/revoke', (input) => fake.revokeKey(requireString(input, 'keyId'))),
    controlRoute('POST', '/devices', (input) =>
      fake.addDevice({
        name: requireString(input, 'name'),
        udid: requireString(input, 'udid'),
        platform: input.platform as AscPlatform | undefined,
      }),
    ),
    controlRoute('POST', '/certificates', (input) =>
      fake.addCertificate({
        der: Buffer.from(requireString(input, 'der'), 'base64'),
        certificateType: input.certificateType as string | undefined,
      }),
    ),
    controlRoute('POST', '/bundle-ids', (input) =>
      fake.addBundleId({ identifier: requireString(input, 'identifier'), name: input.name as string | undefined }),
    ),
    controlRoute('POST', '/agreement', (input) => fake.setAgreementExpired(input.expired === true)),
    controlRoute('POST', '/device-limit', (input) => fake.setDeviceLimit(requireNumber(input, 'limit'))),
    controlRoute('POST', '/rate-limit', (input) => fake.setHourlyLimit(requireNumber(input, 'limit'))),
    controlRoute('POST', '/profile-name-hold', (input) => fake.setProfileNameHold(requireNumber(input, 'ms'))),
  ];

  await host.listen(
    {
      routes: [...control, ...deviceRoutes(ctx), ...profileRoutes(ctx)],
      notFound: (req) => pathNotFound(req.path),
      methodNotAllowed: (req) => methodNotAllowed(req.method),
      injectedBody: ascError(
        500,
        'UNEXPECTED_ERROR',
        'An unexpected error occurred.',
        'An unexpected error occurred on the server side. If this issue continues, contact us at https://developer.apple.com/contact/.',
      ).body,
    },
    options,
  );
  return fake;
}

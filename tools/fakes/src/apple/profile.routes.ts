import type { FakeRequest, RouteDef } from '../shared/http-server.ts';
import {
  attributeInvalid,
  attributeRequired,
  entityError,
  entityUnparsable,
  notFound,
  parameterInvalid,
  relationshipNotAllowed,
  relationshipRequired,
} from './apple-errors.ts';
import { exact, entityOf, guarded, listAnswer, single, type AppleContext, type Resource } from './apple-context.ts';
import { buildProfileContent, newProfileUuid } from './apple-profile.ts';
import { ascDate, ascId, type AscProfile } from './apple-state.ts';
import { bundleIdResource, certificateResource, deviceResource } from './device.routes.ts';

const PROFILE_TYPES = [
  'IOS_APP_DEVELOPMENT',
  'IOS_APP_STORE',
  'IOS_APP_ADHOC',
  'IOS_APP_INHOUSE',
  'MAC_APP_DEVELOPMENT',
  'MAC_APP_STORE',
  'MAC_APP_DIRECT',
  'TVOS_APP_DEVELOPMENT',
  'TVOS_APP_STORE',
  'TVOS_APP_ADHOC',
  'TVOS_APP_INHOUSE',
  'MAC_CATALYST_APP_DEVELOPMENT',
  'MAC_CATALYST_APP_STORE',
  'MAC_CATALYST_APP_DIRECT',
];
const PROFILE_LIFETIME_MS = 365 * 86_400_000;
const INCLUDABLE = ['bundleId', 'certificates', 'devices'];

const needsDevices = (type: string) => type.endsWith('_DEVELOPMENT') || type.endsWith('_ADHOC');
const noDevices = (type: string) => type.endsWith('_STORE') || type.endsWith('_INHOUSE');
/** Contract F4 pairing: development profiles take development certificates, the rest distribution ones. */
const certificateFits = (profileType: string, certificateType: string) =>
  profileType.endsWith('_DEVELOPMENT')
    ? ['DEVELOPMENT', 'IOS_DEVELOPMENT', 'MAC_APP_DEVELOPMENT'].includes(certificateType)
    : ['DISTRIBUTION', 'IOS_DISTRIBUTION', 'MAC_APP_DISTRIBUTION'].includes(certificateType);
const deviceClassFits = (profileType: string, deviceClass: string) =>
  profileType.startsWith('IOS_')
    ? ['IPHONE', 'IPAD', 'IPOD', 'APPLE_WATCH'].includes(deviceClass)
    : profileType.startsWith('TVOS_')
      ? deviceClass === 'APPLE_TV'
      : deviceClass === 'MAC';

function relationIds(relationships: Record<string, unknown>, name: string, type: string): string[] | null {
  const rel = relationships[name] as { data?: unknown } | undefined;
  if (!rel || rel.data === undefined || rel.data === null) return null;
  const data = Array.isArray(rel.data) ? rel.data : [rel.data];
  return data
    .filter(
      (d): d is { type: string; id: string } =>
        typeof d === 'object' &&
        d !== null &&
        (d as { type?: unknown }).type === type &&
        typeof (d as { id?: unknown }).id === 'string',
    )
    .map((d) => d.id);
}

/** Contract F6: list/get/delete/create profiles (no PATCH); a new profile carries a signed `.mobileprovision`. */
export function profileRoutes(ctx: AppleContext): RouteDef[] {
  const { state } = ctx;
  const route = (name: string, method: string, path: string, handler: RouteDef['handler']): RouteDef => ({
    name,
    method,
    path,
    handler: guarded(ctx, handler),
  });

  function profileResource(p: AscProfile): Resource {
    const { id, bundleIdId, certificateIds, deviceIds, ...attributes } = p;
    const self = `${ctx.baseUrl()}/v1/profiles/${id}`;
    return {
      type: 'profiles',
      id,
      attributes,
      relationships: {
        bundleId: {
          data: { type: 'bundleIds', id: bundleIdId },
          links: { self: `${self}/relationships/bundleId`, related: `${self}/bundleId` },
        },
        certificates: {
          data: certificateIds.map((c) => ({ type: 'certificates', id: c })),
          links: { self: `${self}/relationships/certificates`, related: `${self}/certificates` },
        },
        devices: {
          data: deviceIds.map((d) => ({ type: 'devices', id: d })),
          links: { self: `${self}/relationships/devices`, related: `${self}/devices` },
        },
      },
      links: { self },
    };
  }

  function includedOf(req: FakeRequest, profiles: AscProfile[]): Resource[] | 'bad' | undefined {
    const include = req.query.get('include');
    if (!include) return undefined;
    const wanted = include.split(',');
    if (wanted.some((w) => !INCLUDABLE.includes(w))) return 'bad';
    const out = new Map<string, Resource>();
    for (const p of profiles) {
      if (wanted.includes('bundleId')) {
        const b = state.bundleIds.find((x) => x.id === p.bundleIdId);
        if (b) out.set(`b:${b.id}`, bundleIdResource(ctx, b));
      }
      if (wanted.includes('certificates'))
        for (const c of state.certificates.filter((x) => p.certificateIds.includes(x.id)))
          out.set(`c:${c.id}`, certificateResource(ctx, c));
      if (wanted.includes('devices'))
        for (const d of state.devices.filter((x) => p.deviceIds.includes(x.id)))
          out.set(`d:${d.id}`, deviceResource(ctx, d));
    }
    return [...out.values()];
  }

  const findProfile = (req: FakeRequest) => state.profiles.find((p) => p.id === req.params.id);

  return [
    route('profiles.list', 'GET', '/v1/profiles', (req) => {
      const include = includedOf(req, []);
      if (include === 'bad') return parameterInvalid('include', req.query.get('include') ?? '');
      return listAnswer(ctx, req, state.profiles, {
        filters: {
          id: exact((p) => p.id),
          name: exact((p) => p.name),
          profileType: exact((p) => p.profileType),
          profileState: exact((p) => p.profileState),
        },
        sortable: {
          id: (p) => p.id,
          name: (p) => p.name,
          profileType: (p) => p.profileType,
          profileState: (p) => p.profileState,
        },
        serialize: profileResource,
        extra: (page) => {
          const included = includedOf(req, page);
          return included && included !== 'bad' ? { included } : {};
        },
      });
    }),
    route('profiles.get', 'GET', '/v1/profiles/:id', (req) => {
      const profile = findProfile(req);
      if (!profile) return notFound('profiles', req.params.id ?? '');
      const included = includedOf(req, [profile]);
      if (included === 'bad') return parameterInvalid('include', req.query.get('include') ?? '');
      return single(ctx, req, profileResource(profile), 200, included);
    }),
    route('profiles.devices', 'GET', '/v1/profiles/:id/devices', (req) => {
      const profile = findProfile(req);
      if (!profile) return notFound('profiles', req.params.id ?? '');
      const devices = state.devices.filter((d) => profile.deviceIds.includes(d.id));
      return listAnswer(ctx, req, devices, { filters: {}, sortable: {}, serialize: (d) => deviceResource(ctx, d) });
    }),
    route('profiles.certificates', 'GET', '/v1/profiles/:id/certificates', (req) => {
      const profile = findProfile(req);
      if (!profile) return notFound('profiles', req.params.id ?? '');
      const certificates = state.certificates.filter((c) => profile.certificateIds.includes(c.id));
      return listAnswer(ctx, req, certificates, {
        filters: {},
        sortable: {},
        serialize: (c) => certificateResource(ctx, c),
      });
    }),
    route('profiles.bundleId', 'GET', '/v1/profiles/:id/bundleId', (req) => {
      const profile = findProfile(req);
      const bundleId = profile && state.bundleIds.find((b) => b.id === profile.bundleIdId);
      return bundleId ? single(ctx, req, bundleIdResource(ctx, bundleId)) : notFound('profiles', req.params.id ?? '');
    }),
    route('bundleIds.profiles', 'GET', '/v1/bundleIds/:id/profiles', (req) => {
      if (!state.bundleIds.some((b) => b.id === req.params.id)) return notFound('bundleIds', req.params.id ?? '');
      return listAnswer(
        ctx,
        req,
        state.profiles.filter((p) => p.bundleIdId === req.params.id),
        { filters: {}, sortable: {}, serialize: profileResource },
      );
    }),
    route('profiles.delete', 'DELETE', '/v1/profiles/:id', (req) => {
      const at = state.profiles.findIndex((p) => p.id === req.params.id);
      if (at < 0) return notFound('profiles', req.params.id ?? '');
      const [removed] = state.profiles.splice(at, 1);
      if (removed && state.profileNameHoldMs > 0)
        state.heldProfileNames.set(removed.name, ctx.clock.now() + state.profileNameHoldMs);
      return { status: 204, text: '' };
    }),
    route('profiles.create', 'POST', '/v1/profiles', (req) => {
      const entity = entityOf(req, 'profiles');
      if (!entity) return entityUnparsable();
      const { name, profileType } = entity.attributes;
      if (typeof name !== 'string' || name === '') return attributeRequired('name');
      if (typeof profileType !== 'string' || profileType === '') return attributeRequired('profileType');
      if (!PROFILE_TYPES.includes(profileType)) return attributeInvalid('profileType', profileType);
      const bundleIds = relationIds(entity.relationships, 'bundleId', 'bundleIds');
      if (!bundleIds?.[0]) return relationshipRequired('bundleId');
      const certificateIds = relationIds(entity.relationships, 'certificates', 'certificates');
      if (!certificateIds || certificateIds.length === 0) return relationshipRequired('certificates');
      const deviceIds = relationIds(entity.relationships, 'devices', 'devices') ?? [];
      if (noDevices(profileType) && deviceIds.length > 0) return relationshipNotAllowed();
      if (needsDevices(profileType) && deviceIds.length === 0) return relationshipRequired('devices');
      const bundleId = state.bundleIds.find((b) => b.id === bundleIds[0]);
      if (!bundleId) return entityError(`There is no App ID with ID '${bundleIds[0]}' on this team.`);
      const certificates = certificateIds.map((id) => state.certificates.find((c) => c.id === id));
      const missingCert = certificateIds.find((_id, i) => !certificates[i]);
      if (missingCert) return entityError(`There is no certificate with ID '${missingCert}' on this team.`);
      if (certificates.some((c) => c && !certificateFits(profileType, c.certificateType)))
        return entityError('The certificate type is not valid for the profile type.');
      const devices = deviceIds.map((id) => state.devices.find((d) => d.id === id));
      const missingDevice = deviceIds.find((_id, i) => !devices[i]);
      if (missingDevice) return entityError(`There is no device with ID '${missingDevice}' on this team.`);
      if (devices.some((d) => d && !deviceClassFits(profileType, d.deviceClass)))
        return entityError('Invalid deviceClass for profile type.');
      if (state.profiles.some((p) => p.name === name) || (state.heldProfileNames.get(name) ?? 0) > ctx.clock.now())
        return entityError(
          `Multiple profiles found with the name '${name}'.  Please remove the duplicate profiles and try again.`,
        );
      const now = ctx.clock.now();
      const certExpiry = Math.min(
        ...certificates.map((c) => Date.parse(c?.expirationDate ?? '') || Number.POSITIVE_INFINITY),
      );
      const expires = Math.min(now + PROFILE_LIFETIME_MS, certExpiry);
      const uuid = newProfileUuid();
      const content = buildProfileContent(
        {
          name,
          uuid,
          profileType,
          teamId: state.teamId,
          teamName: state.teamName,
          appIdName: bundleId.name,
          bundleIdentifier: bundleId.identifier,
          createdAt: new Date(now),
          expiresAt: new Date(expires),
          certificateDers: certificates.map((c) => Buffer.from(c?.certificateContent ?? '', 'base64')),
          udids: devices.filter((d) => d?.status === 'ENABLED').map((d) => d?.udid ?? ''),
        },
        ctx.signer,
      );
      const profile: AscProfile = {
        id: ascId(),
        name,
        platform: bundleId.platform,
        profileType,
        profileState: 'ACTIVE',
        profileContent: content.toString('base64'),
        uuid,
        createdDate: ascDate(now),
        expirationDate: ascDate(expires),
        bundleIdId: bundleId.id,
        certificateIds,
        deviceIds,
      };
      state.profiles.push(profile);
      return single(ctx, { ...req, path: `/v1/profiles/${profile.id}` }, profileResource(profile), 201);
    }),
  ];
}

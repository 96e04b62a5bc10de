import type { RouteDef } from '../shared/http-server.ts';
import {
  attributeInvalid,
  attributeRequired,
  entityError,
  entityUnparsable,
  forbidden,
  notFound,
  ascError,
} from './apple-errors.ts';
import { exact, entityOf, guarded, listAnswer, single, type AppleContext, type Resource } from './apple-context.ts';
import {
  ascDate,
  familyWord,
  type AscBundleId,
  type AscCertificate,
  type AscDevice,
  type AscPlatform,
} from './apple-state.ts';

const IOS_UDID = /^([0-9]{8}-[0-9a-f]{16}|[0-9a-f]{40})$/i;
const MAC_UDID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLATFORMS: AscPlatform[] = ['IOS', 'MAC_OS', 'UNIVERSAL'];

export function deviceResource(ctx: AppleContext, d: AscDevice): Resource {
  const { id, ...attributes } = d;
  return { type: 'devices', id, attributes, links: { self: `${ctx.baseUrl()}/v1/devices/${id}` } };
}

export function certificateResource(ctx: AppleContext, c: AscCertificate): Resource {
  const { id, ...attributes } = c;
  return { type: 'certificates', id, attributes, links: { self: `${ctx.baseUrl()}/v1/certificates/${id}` } };
}

export function bundleIdResource(ctx: AppleContext, b: AscBundleId): Resource {
  const { id, ...attributes } = b;
  return { type: 'bundleIds', id, attributes, links: { self: `${ctx.baseUrl()}/v1/bundleIds/${id}` } };
}

/** Contract F3–F5: devices (list, get, register, rename/disable; no delete), certificates and bundle ids (read). */
export function deviceRoutes(ctx: AppleContext): RouteDef[] {
  const { state } = ctx;
  const route = (name: string, method: string, path: string, handler: RouteDef['handler']): RouteDef => ({
    name,
    method,
    path,
    handler: guarded(ctx, handler),
  });

  return [
    route('devices.list', 'GET', '/v1/devices', (req) =>
      listAnswer(ctx, req, state.devices, {
        filters: {
          id: exact((d) => d.id),
          name: exact((d) => d.name),
          platform: exact((d) => d.platform),
          status: exact((d) => d.status),
          udid: (d, values) => values.some((v) => v.toLowerCase() === d.udid.toLowerCase()),
        },
        sortable: {
          id: (d) => d.id,
          name: (d) => d.name,
          platform: (d) => d.platform,
          udid: (d) => d.udid,
          status: (d) => d.status,
        },
        serialize: (d) => deviceResource(ctx, d),
      }),
    ),
    route('devices.get', 'GET', '/v1/devices/:id', (req) => {
      const device = state.devices.find((d) => d.id === req.params.id);
      return device ? single(ctx, req, deviceResource(ctx, device)) : notFound('devices', req.params.id ?? '');
    }),
    route('devices.create', 'POST', '/v1/devices', (req) => {
      const entity = entityOf(req, 'devices');
      if (!entity) return entityUnparsable();
      const { name, platform, udid } = entity.attributes;
      for (const [key, value] of Object.entries({ name, platform, udid }))
        if (typeof value !== 'string' || value === '') return attributeRequired(key);
      const p = platform as AscPlatform;
      if (!PLATFORMS.includes(p)) return attributeInvalid('platform', String(platform));
      const u = String(udid);
      if (!(p === 'MAC_OS' ? MAC_UDID : IOS_UDID).test(u)) return attributeInvalid('udid', u);
      if (state.devices.some((d) => d.udid.toLowerCase() === u.toLowerCase()))
        return entityError(`A device with number '${u}' already exists on this team.`);
      const deviceClass = p === 'MAC_OS' ? 'MAC' : 'IPHONE';
      if (state.devices.filter((d) => d.deviceClass === deviceClass).length >= state.deviceLimit) {
        return forbidden(
          `Your development team has reached the maximum number of registered ${familyWord(deviceClass)} devices.`,
        );
      }
      const device = state.addDevice({ name: String(name), udid: u, platform: p, deviceClass }, ctx.clock.now());
      return single(ctx, { ...req, path: `/v1/devices/${device.id}` }, deviceResource(ctx, device), 201);
    }),
    route('devices.update', 'PATCH', '/v1/devices/:id', (req) => {
      const device = state.devices.find((d) => d.id === req.params.id);
      if (!device) return notFound('devices', req.params.id ?? '');
      const entity = entityOf(req, 'devices');
      if (!entity) return entityUnparsable();
      if (entity.id !== device.id)
        return ascError(
          409,
          'ENTITY_ERROR.ATTRIBUTE.INVALID',
          'An attribute in the provided entity has invalid value',
          "The 'id' in the entity does not match the path.",
        );
      const { name, status, ...rest } = entity.attributes;
      const other = Object.keys(rest)[0];
      if (other) return attributeInvalid(other, String(rest[other]));
      if (status !== undefined && status !== 'ENABLED' && status !== 'DISABLED')
        return attributeInvalid('status', String(status));
      if (name !== undefined && (typeof name !== 'string' || name === ''))
        return attributeInvalid('name', String(name));
      if (typeof name === 'string') device.name = name;
      if (status !== undefined) device.status = status;
      return single(ctx, req, deviceResource(ctx, device));
    }),
    route('certificates.list', 'GET', '/v1/certificates', (req) =>
      listAnswer(ctx, req, state.certificates, {
        filters: {
          id: exact((c) => c.id),
          certificateType: exact((c) => c.certificateType),
          serialNumber: (c, values) => values.some((v) => v.toUpperCase() === c.serialNumber),
          displayName: exact((c) => c.displayName),
        },
        sortable: {
          id: (c) => c.id,
          displayName: (c) => c.displayName,
          certificateType: (c) => c.certificateType,
          serialNumber: (c) => c.serialNumber,
        },
        serialize: (c) => certificateResource(ctx, c),
      }),
    ),
    route('certificates.get', 'GET', '/v1/certificates/:id', (req) => {
      const certificate = state.certificates.find((c) => c.id === req.params.id);
      return certificate
        ? single(ctx, req, certificateResource(ctx, certificate))
        : notFound('certificates', req.params.id ?? '');
    }),
    route('bundleIds.list', 'GET', '/v1/bundleIds', (req) =>
      listAnswer(ctx, req, state.bundleIds, {
        filters: {
          id: exact((b) => b.id),
          // Contract F5: a substring match, so clients must compare exactly themselves.
          identifier: (b, values) => values.some((v) => b.identifier.includes(v)),
          name: exact((b) => b.name),
          platform: () => true,
          seedId: exact((b) => b.seedId),
        },
        sortable: {
          id: (b) => b.id,
          name: (b) => b.name,
          identifier: (b) => b.identifier,
          platform: (b) => b.platform,
          seedId: (b) => b.seedId,
        },
        serialize: (b) => bundleIdResource(ctx, b),
      }),
    ),
    route('bundleIds.get', 'GET', '/v1/bundleIds/:id', (req) => {
      const bundleId = state.bundleIds.find((b) => b.id === req.params.id);
      return bundleId ? single(ctx, req, bundleIdResource(ctx, bundleId)) : notFound('bundleIds', req.params.id ?? '');
    }),
  ];
}

export { ascDate };

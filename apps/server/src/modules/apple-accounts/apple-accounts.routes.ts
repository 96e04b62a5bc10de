import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addAppleAccountBody,
  addDeviceToBuildBody,
  addDeviceToBuildResult,
  appleAccountIdBody,
  appleAccountIdQuery,
  appleAccountRow,
  appleSyncResult,
  bindAppleAccountBody,
  regenerateAppleProfileBody,
  regenerateAppleProfileResult,
  registerAppleDevicesBody,
  registerAppleDevicesResult,
  updateAppleAccountBody,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { AppleAccountsService } from './apple-accounts.service.ts';
import type { AppleProvisioningService } from './apple-provisioning.service.ts';
import type { AppleBuildDeviceService } from './apple-build-device.service.ts';
import { presenterFor, type LinkDeps } from '../versions/version-presenter.ts';

const tags = ['apple-accounts'];
const admin = { access: 'admin' as const };

/** SPEC §7 Apple accounts, plus sync, device registration and profile regeneration; admins only. */
export function appleAccountsRoutes(deps: { accounts: AppleAccountsService; provisioning: AppleProvisioningService; buildDevice: AppleBuildDeviceService } & LinkDeps): FastifyPluginAsyncZod {
  const { accounts, provisioning, buildDevice } = deps;
  return async (app) => {
    app.get('/api/apple_accounts', { config: admin, schema: { tags, description: 'Every account with what the last sync read; never the key.', response: { 200: envelopeSchema(z.array(appleAccountRow)) } } }, async () =>
      ok(await accounts.list()),
    );

    app.post(
      '/api/apple_account',
      { config: admin, schema: { tags, description: 'Adds an App Store Connect API key (`privateKey` = the .p8 text); it is tried with Apple first.', body: addAppleAccountBody, response: { 200: envelopeSchema(appleAccountRow) } } },
      async (req) => ok(await accounts.add(req.body, currentUser(req).userId)),
    );

    app.post(
      '/api/apple_account/update',
      { config: admin, schema: { tags, description: 'Edits an account; without `privateKey` the stored key stays.', body: updateAppleAccountBody, response: { 200: envelopeSchema(appleAccountRow) } } },
      async (req) => ok(await accounts.update(req.body)),
    );

    app.post(
      '/api/apple_account/bind',
      { config: admin, schema: { tags, description: 'Sets the apps and uploaded certificates bound to the account (a target bound elsewhere moves here).', body: bindAppleAccountBody, response: { 200: envelopeSchema(appleAccountRow) } } },
      async (req) => ok(await accounts.bind(req.body)),
    );

    app.delete('/api/apple_account', { config: admin, schema: { tags, querystring: appleAccountIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await accounts.remove(req.query.id);
      return ok(null);
    });

    app.post(
      '/api/apple_account/sync',
      { config: admin, schema: { tags, description: "Reads the account's devices, certificates and bundle ids from Apple.", body: appleAccountIdBody, response: { 200: envelopeSchema(appleSyncResult) } } },
      async (req) => ok(await provisioning.sync(req.body.id, currentUser(req).userId)),
    );

    app.post(
      '/api/apple_account/register_devices',
      { config: admin, schema: { tags, description: 'Registers local iOS devices at Apple (`deviceIds`, or every one Apple lacks).', body: registerAppleDevicesBody, response: { 200: envelopeSchema(registerAppleDevicesResult) } } },
      async (req) => ok(await provisioning.registerDevices(req.body.id, req.body.deviceIds)),
    );

    app.post(
      '/api/apple_account/profile',
      {
        config: admin,
        schema: {
          tags,
          description: "Regenerates the bundle id's ad-hoc/development profile with every enabled device and stores it with the matching uploaded certificate.",
          body: regenerateAppleProfileBody,
          response: { 200: envelopeSchema(regenerateAppleProfileResult) },
        },
      },
      async (req) => ok(await provisioning.regenerateProfile(req.body)),
    );

    app.post(
      '/api/apple_account/add_device_to_build',
      {
        config: admin,
        schema: {
          tags,
          description:
            "One button for \"add this tester's phone to the build\": the app's bound Apple account registers the device, regenerates the build's profile with it onto the account's certificate, and the build is re-signed (`job` as /api/zsign answers it).",
          body: addDeviceToBuildBody,
          response: { 200: envelopeSchema(addDeviceToBuildResult) },
        },
      },
      async (req) => ok(await buildDevice.addDeviceToBuild(currentUser(req), req.body, presenterFor(req, deps))),
    );
  };
}

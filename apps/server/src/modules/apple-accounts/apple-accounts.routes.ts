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
import { linksFor, type LinkDeps } from '../../http/links.ts';

const tags = ['苹果开发者账号'];
const admin = { access: 'admin' as const };

/** SPEC §7 Apple accounts, plus sync, device registration and profile regeneration; admins only. */
export function appleAccountsRoutes(
  deps: {
    accounts: AppleAccountsService;
    provisioning: AppleProvisioningService;
    buildDevice: AppleBuildDeviceService;
  } & LinkDeps,
): FastifyPluginAsyncZod {
  const { accounts, provisioning, buildDevice } = deps;
  return async (app) => {
    app.get(
      '/api/apple_accounts',
      {
        config: admin,
        schema: {
          tags,
          summary: '苹果账号列表',
          description:
            '管理员（角色等级 100）。所有 App Store Connect API 密钥账号及上次同步读到的设备、证书与 Bundle ID，以及绑定的应用与证书；从不返回私钥。',
          response: { 200: envelopeSchema(z.array(appleAccountRow)) },
        },
      },
      async () => ok(await accounts.list()),
    );

    app.post(
      '/api/apple_account',
      {
        config: admin,
        schema: {
          tags,
          summary: '添加苹果账号',
          description:
            '管理员（角色等级 100）。添加 App Store Connect API 密钥（`privateKey` 为 .p8 文件内容），保存前先用它调用一次苹果接口验证。.p8 无法读取 400；苹果拒绝或无法连接时 400 并给出中文原因；同一密钥 ID 已添加 409。',
          body: addAppleAccountBody,
          response: { 200: envelopeSchema(appleAccountRow) },
        },
      },
      async (req) => ok(await accounts.add(req.body, currentUser(req).userId)),
    );

    app.post(
      '/api/apple_account/update',
      {
        config: admin,
        schema: {
          tags,
          summary: '编辑苹果账号',
          description:
            '管理员（角色等级 100）。修改账号信息；不带 `privateKey` 时保留原密钥，带上则重新验证。账号不存在 404；密钥 ID 与其他账号重复 409。',
          body: updateAppleAccountBody,
          response: { 200: envelopeSchema(appleAccountRow) },
        },
      },
      async (req) => ok(await accounts.update(req.body)),
    );

    app.post(
      '/api/apple_account/bind',
      {
        config: admin,
        schema: {
          tags,
          summary: '绑定应用与证书',
          description:
            '管理员（角色等级 100）。整体设置绑定到该账号的应用与已上传证书（已绑定到其他账号的会移到这里）。账号不存在 404；应用或证书不存在 400。',
          body: bindAppleAccountBody,
          response: { 200: envelopeSchema(appleAccountRow) },
        },
      },
      async (req) => ok(await accounts.bind(req.body)),
    );

    app.delete(
      '/api/apple_account',
      {
        config: admin,
        schema: {
          tags,
          summary: '删除苹果账号',
          description: '管理员（角色等级 100）。按 `id` 删除账号及其保存的密钥；账号不存在 404「Apple 账号不存在」。',
          querystring: appleAccountIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await accounts.remove(req.query.id);
        return ok(null);
      },
    );

    app.post(
      '/api/apple_account/sync',
      {
        config: admin,
        schema: {
          tags,
          summary: '从苹果同步',
          description:
            '管理员（角色等级 100）。从苹果读取该账号的设备、证书与 Bundle ID 并保存。账号不存在 404；苹果拒绝或无法连接时 400（请求过于频繁 429）并给出中文原因。',
          body: appleAccountIdBody,
          response: { 200: envelopeSchema(appleSyncResult) },
        },
      },
      async (req) => ok(await provisioning.sync(req.body.id, currentUser(req).userId)),
    );

    app.post(
      '/api/apple_account/register_devices',
      {
        config: admin,
        schema: {
          tags,
          summary: '向苹果注册设备',
          description:
            '管理员（角色等级 100）。把本地已确认的 iOS 设备注册到苹果：`deviceIds` 指定设备，不传则注册所有苹果那边还没有的设备；返回注册成功与失败的设备。设备不存在或没有可注册的设备 400。',
          body: registerAppleDevicesBody,
          response: { 200: envelopeSchema(registerAppleDevicesResult) },
        },
      },
      async (req) => ok(await provisioning.registerDevices(req.body.id, req.body.deviceIds)),
    );

    app.post(
      '/api/apple_account/profile',
      {
        config: admin,
        schema: {
          tags,
          summary: '重新生成描述文件',
          description:
            '管理员（角色等级 100）。为 `bundleId` 重新生成 ad-hoc（默认）或 development 描述文件，包含所有启用的设备，并与对应的已上传证书（或 `certificateId` 指定的证书）一起保存。账号未同步、没有匹配的证书、Bundle ID 不存在或没有设备时 400 并说明原因。',
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
          summary: '把设备加入某个版本',
          description:
            '管理员（角色等级 100）。「把这台测试机加进这个包」一步完成：用应用绑定的苹果账号注册设备 `deviceId`，用该设备重新生成版本的描述文件，再重签名版本 `appVersionId`（`job` 同 /api/zsign 的应答）。版本或设备不存在 404；版本没有 Bundle ID、应用未绑定苹果账号或没有可用证书 400。',
          body: addDeviceToBuildBody,
          response: { 200: envelopeSchema(addDeviceToBuildResult) },
        },
      },
      async (req) => ok(await buildDevice.addDeviceToBuild(currentUser(req), req.body, linksFor(req, deps))),
    );
  };
}

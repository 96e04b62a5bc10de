import { AppMessages, BundleIdMessages, MessagingMessages, platformNames, type UploadAppBody } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import { packageIdentity, type InspectPackageOptions, type PackageInspection } from '@release/inspect';
import type { Clock } from '../../lib/clock.ts';
import { placeholderIcon } from '../../lib/placeholder-icon.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import { withLocalFile } from '../../storage/local-copy.ts';
import type { AppMetrics } from '../../lib/app-metrics.ts';
import type { LiveHub } from '../../lib/live-hub.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { MembersLookup } from '../apps/apps-directory.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import { MEDIA_ROUTE } from '../../http/links.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationsDirectory } from '../notifications/notifications-directory.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { PackedModuleFile } from './harmony-module-set.ts';
import { createPackageReceiver } from './package-receiver.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import { bundleIdOf, decideBundleId } from '../versions/bundle-id-rule.ts';
import type { StoredAttachment } from '../versions/version-columns.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import type { VersionsDirectory } from '../versions/versions-directory.ts';
import { packageSourceCommit } from '../changes/package-source.ts';
import type { VersionSourcesService } from '../changes/version-sources.service.ts';
import type { PackageChangesService } from '../package-changes/package-changes.service.ts';

export interface RegistrationDeps {
  uploads: UploadsService;
  versions: VersionsDirectory;
  apps: AppsLookup;
  members: MembersLookup;
  notifications: NotificationsDirectory;
  policy: AppsPolicy;
  media: MediaService;
  blobs: ConfiguredBlobStore;
  ingest: CommitIngestService;
  /** The app's package thresholds a new build crosses against the one before it (issue 19), stored as its marks. */
  packageAlerts?: Pick<PackageChangesService, 'alertsFor'>['alertsFor'];
  /** Records the commits a new version was built from (issue 19); never fails the publish. */
  sources?: Pick<VersionSourcesService, 'record'>;
  clock: Clock;
  /** Inspects a package file off the event loop (the inspection worker pool). */
  inspectFile: (filePath: string, options: InspectPackageOptions) => Promise<PackageInspection>;
  /** Counts stored packages and their bytes for /metrics. */
  metrics?: Pick<AppMetrics, 'uploads' | 'uploadBytes'>;
  /** Tells the browsers of the app about the new version (and its subscribers' new notices). */
  live?: Pick<LiveHub, 'publish'>;
  /** Tells the chosen group (chatEnv) about a new version; the messaging module's push. */
  announce?: (
    actor: AuthUser,
    version: { appId: number; id: number },
    chatEnv: 'DevTest' | 'PreFavTest',
    baseUrl: string | null,
  ) => Promise<unknown>;
}

/** What is kept of an inspection: everything but the icon bytes (stored as a file of its own). */
function inspectionMetadata(inspection: PackageInspection): Record<string, unknown> {
  const icon =
    'icon' in inspection && inspection.icon
      ? {
          format: inspection.icon.format,
          width: inspection.icon.width,
          height: inspection.icon.height,
          sourcePath: inspection.icon.sourcePath,
        }
      : null;
  return JSON.parse(JSON.stringify({ ...inspection, icon })) as Record<string, unknown>;
}

/**
 * A package inspected where it lies before it is registered (the one-request upload's bytes, while they are flushed),
 * and its icon stored as soon as it is read: `register` takes both by the file's key instead of doing them itself.
 */
export interface PreparedPackage {
  inspection: Promise<PackageInspection>;
  /** The stored icon's key; null when there is none to store yet (no icon read, not asked, or its storing failed). */
  iconKey: Promise<string | null>;
}

/** `/api/v2/upload_app`: an uploaded file becomes a version of an app, once, after inspection. */
export function createPackageRegistrationService(deps: RegistrationDeps) {
  const { uploads, versions, apps, members, notifications, policy, media, blobs, ingest, clock } = deps;

  async function attachmentsOf(userId: number, keys: string[]): Promise<StoredAttachment[]> {
    const list: StoredAttachment[] = [];
    for (const key of keys) {
      const session = await uploads.completedUpload(userId, key);
      if (session.purpose !== 'attachment') throw AppError.badRequest('附件无效，请重新上传');
      list.push({ fileName: session.file_name, fileKey: key });
    }
    return list;
  }

  /** The package's own icon stored as a media file; null when it has none readable. */
  async function storeIconOf(inspection: PackageInspection): Promise<string | null> {
    const icon = 'icon' in inspection && inspection.icon ? inspection.icon : null;
    if (!icon) return null;
    const type = icon.format === 'webp' ? 'image/webp' : icon.format === 'jpeg' ? 'image/jpeg' : 'image/png';
    return media.storeImage(icon.data, type);
  }

  async function inspect(fileKey: string, fileName: string): Promise<PackageInspection> {
    return withLocalFile(blobs, fileKey, (filePath) => deps.inspectFile(filePath, { declaredName: fileName }));
  }

  const { receive } = createPackageReceiver({ uploads, versions, blobs, inspect });

  type AppRow = NonNullable<Awaited<ReturnType<AppsLookup['findById']>>>;
  interface StoredFile {
    fileKey: string;
    fileName: string;
    fileSize: number;
    description: string;
    attachments: StoredAttachment[];
    chatEnv: string | null;
    /** Where a CI build came from; kept in the version's metadata as `source`. */
    source?: { commit?: string; branch?: string } | null;
    /** The modules of a HarmonyOS set packed into the stored .app (file names in it, sizes, SHA-256). */
    moduleFiles?: PackedModuleFile[];
    /** The package's icon, stored already (PreparedPackage). */
    iconKey?: string | null;
  }

  /** The version row of an inspected package file (icon stored, next index number); `raced` when another call stored the same file first. */
  async function storeVersion(
    actor: Pick<AuthUser, 'userId'>,
    app: AppRow,
    inspection: PackageInspection,
    file: StoredFile,
  ): Promise<{ version: VersionRecord; raced: boolean }> {
    const appId = app.id;
    const icon = 'icon' in inspection && inspection.icon ? inspection.icon : null;
    const label = packageIdentity(inspection);
    // Without a readable icon the version still gets one of its own, and the warning says why.
    const iconKey =
      file.iconKey ??
      (await storeIconOf(inspection)) ??
      (await media.storeImage(await placeholderIcon(label.name ?? app.app_name), 'image/png'));
    const now = clock.now();
    const packageAlerts = (await deps.packageAlerts?.(appId, label.platform, inspection.facts)) ?? [];
    const row = {
      app_id: appId,
      native_package_type: label.platform,
      file_key: file.fileKey,
      file_name: file.fileName,
      app_size: file.fileSize,
      app_version: label.version,
      build: label.build,
      bundle_id: label.bundleId,
      display_name: label.name,
      icon_key: iconKey,
      description: file.description,
      attach_files: file.attachments,
      metadata: {
        ...inspectionMetadata(inspection),
        ...(file.source ? { source: file.source } : {}),
        ...(file.moduleFiles ? { moduleFiles: file.moduleFiles } : {}),
        ...(packageAlerts.length > 0 ? { packageAlerts } : {}),
      },
      warnings: inspection.warnings,
      expire_date: label.expiresAt ? label.expiresAt.getTime() : null,
      chat_env: file.chatEnv,
      upload_by: actor.userId,
      create_time: now,
      update_time: now,
    };
    let id: number | undefined;
    // Two uploads to one app at once may race for the next index number: the unique index decides, retry.
    for (let attempt = 0; id === undefined; attempt += 1) {
      try {
        id = await versions.transaction(async (trx) => {
          const inserted = await versions.insertNext(trx, row);
          await apps.update(trx, appId, {
            update_time: now,
            ...(app.app_icon || !icon ? {} : { app_icon: `${MEDIA_ROUTE}${iconKey}` }),
          });
          return inserted.id;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
        const winner = await versions.findByFileKey(file.fileKey);
        if (winner) return { version: winner, raced: true };
      }
    }
    deps.metrics?.uploads.inc({ platform: label.platform });
    deps.metrics?.uploadBytes.inc({ platform: label.platform }, file.fileSize);
    return { version: (await versions.findById(id)) as VersionRecord, raced: false };
  }

  /**
   * The bundle id rule (bundle-id-rule.ts): the platform's first build sets the app's id, a build with another id is
   * refused (409, data says which ids) unless `allowOther`. The first id is set by compare and set, so two first
   * builds at once cannot both set theirs.
   */
  async function admitBundleId(appId: number, inspection: PackageInspection, allowOther: boolean): Promise<void> {
    const target = bundleIdOf(inspection);
    if (!target) return;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const before = await apps.bundleIds(appId);
      if (!before) return;
      const decision = decideBundleId(before.ids, target, allowOther);
      if (decision.kind === 'accept') return;
      if (decision.kind === 'mismatch') {
        throw AppError.conflict(BundleIdMessages.mismatch(target.platform, decision.allowed, target.bundleId), {
          reason: 'bundleIdMismatch',
          platform: target.platform,
          allowed: decision.allowed,
          bundleId: target.bundleId,
        });
      }
      if (await apps.replaceBundleIdsIf(appId, before.stored, decision.next)) return;
    }
  }

  async function notifySubscribers(
    actor: Pick<AuthUser, 'userId' | 'username'>,
    appId: number,
    appName: string,
    description: string,
  ) {
    const subscribers = (await members.subscribers(appId)).filter((id) => id !== actor.userId);
    const messageInfo = { username: actor.username, appId, appName, description };
    await notifications.insertMany(subscribers.map((userId) => ({ userId, appId, messageInfo, now: clock.now() })));
    // Last, once the version, its timeline item and these notices are stored: a browser refetches on the event, and
    // an event ahead of the notices would leave the bell one behind until its next poll.
    deps.live?.publish({ type: 'version', appId });
  }

  return {
    /** `options.prepared`: the uploaded files already inspected (`prepareAt`), by key; they are not inspected again. */
    async register(
      actor: AuthUser,
      body: UploadAppBody,
      options: { baseUrl?: string; prepared?: ReadonlyMap<string, PreparedPackage> } = {},
    ): Promise<VersionRecord> {
      await policy.assertCanEdit(actor, body.appId);
      // SPEC §6: only admins send to the release group.
      if (body.chatEnv === 'PreFavTest' && !actor.isAdmin && body.appVersionId === undefined)
        throw AppError.noPermission(MessagingMessages.releaseGroupAdminOnly);
      const app = await apps.findById(body.appId);
      if (!app) throw AppError.notFound(AppMessages.appNotFound);
      const attachments = await attachmentsOf(actor.userId, body.attachFileUrls);

      if (body.appVersionId !== undefined) {
        const existing = await versions.findById(body.appVersionId);
        if (!existing || existing.app_id !== body.appId) throw AppError.notFound('版本不存在');
        await versions.update(existing.id, {
          description: body.description,
          attach_files: [...existing.attach_files, ...attachments],
          update_time: clock.now(),
        });
        for (const key of body.attachFileUrls)
          await uploads.markRegistered((await uploads.completedUpload(actor.userId, key)).id);
        return (await versions.findById(existing.id)) as VersionRecord;
      }

      if (!body.s3Url) throw AppError.badRequest('请先上传安装包');
      const prepared = options.prepared ?? new Map<string, PreparedPackage>();
      const inspected = new Map([...prepared].map(([key, early]) => [key, early.inspection]));
      const received = await receive(actor.userId, body.s3Url, body.moduleFileUrls, inspected);
      if ('version' in received) {
        if (received.version.app_id !== body.appId) throw AppError.conflict('该安装包已发布到其他应用');
        return received.version;
      }
      const { inspection } = received;
      // Refused for its id, the upload is kept: the uploader may confirm and register the same file.
      await admitBundleId(body.appId, inspection, body.allowOtherBundleId === true);
      const file = await received.write();
      let stored: Awaited<ReturnType<typeof storeVersion>>;
      try {
        stored = await storeVersion(actor, app, inspection, {
          fileKey: received.fileKey,
          fileName: received.fileName,
          ...file,
          description: body.description,
          attachments,
          chatEnv: body.chatEnv ?? null,
          // A set's icon is its combined inspection's, stored with the version.
          iconKey: body.moduleFileUrls.length === 0 ? await prepared.get(body.s3Url)?.iconKey : null,
          source:
            body.commit || body.branch
              ? { ...(body.commit ? { commit: body.commit } : {}), ...(body.branch ? { branch: body.branch } : {}) }
              : null,
        });
      } catch (error) {
        await received.abandon();
        throw error;
      }
      if (stored.raced) return stored.version;
      const id = stored.version.id;
      const label = packageIdentity(inspection);
      await received.settle();
      await ingest.recordVersion(stored.version);
      // The commit the upload names; else the one the package carries (Info.plist, meta-data, version.json).
      const carried = body.commit ? null : packageSourceCommit(inspection.sourceValues, app.source_commit_key);
      await deps.sources?.record(stored.version, {
        commits: body.commit ? body.commit.split(/[\s,]+/).filter(Boolean) : carried ? [carried] : [],
        branch: body.branch || null,
        origin: carried ? 'package' : 'upload',
      });
      for (const attachment of attachments)
        await uploads.markRegistered((await uploads.completedUpload(actor.userId, attachment.fileKey)).id);
      // The notice names the build that arrived (2.1.0 (210), or 第 N 版 for a web build), then its note.
      const arrived = `${platformNames[stored.version.native_package_type]} ${label.version ? [label.version, label.build && `(${label.build})`].filter(Boolean).join(' ') : `第 ${stored.version.index_no} 版`} 已发布`;
      await notifySubscribers(
        actor,
        body.appId,
        app.app_name,
        body.description ? `${arrived}：${body.description}` : arrived,
      );
      if (body.chatEnv && deps.announce)
        await deps.announce(actor, { appId: body.appId, id }, body.chatEnv, options.baseUrl ?? null);
      // As stored: nothing since (uploads, ingest, sources, notices, pushes) writes the version's row.
      return stored.version;
    },

    /**
     * Inspects a package file where it lies on local disk (the one-request upload's bytes while they are flushed, issue
     * 23) and, with `storeIcon`, stores its icon once read, while the file is still being placed: `register` takes both.
     * Not for a HarmonyOS module, whose set's icon is the combined inspection's.
     */
    prepareAt(filePath: string, fileName: string, options: { storeIcon: boolean }): PreparedPackage {
      const inspection = deps.inspectFile(filePath, { declaredName: fileName });
      const iconKey = options.storeIcon ? inspection.then(storeIconOf).catch(() => null) : Promise.resolve(null);
      return { inspection, iconKey };
    },

    /**
     * A package file the server wrote itself (a re-signed ipa) becomes a version of `appId`, inspected like any
     * upload; subscribers are told. Calling it again for the same file answers the version already made.
     */
    async registerStoredPackage(
      actor: Pick<AuthUser, 'userId' | 'username'>,
      input: { appId: number; fileKey: string; fileName: string; description: string },
    ): Promise<VersionRecord> {
      const already = await versions.findByFileKey(input.fileKey);
      if (already) return already;
      const app = await apps.findById(input.appId);
      if (!app) throw AppError.notFound(AppMessages.appNotFound);
      const inspection = await inspect(input.fileKey, input.fileName);
      // A copy the server made of a version (re-signed) is never refused for its id; it may still be the platform's first.
      await admitBundleId(input.appId, inspection, true);
      const size = (await blobs.stat(input.fileKey))?.size ?? inspection.fileSize;
      const stored = await storeVersion(actor, app, inspection, {
        fileKey: input.fileKey,
        fileName: input.fileName,
        fileSize: size,
        description: input.description,
        attachments: [],
        chatEnv: null,
      });
      if (stored.raced) return stored.version;
      await ingest.recordVersion(stored.version);
      await notifySubscribers(actor, input.appId, app.app_name, input.description);
      return stored.version;
    },
  };
}
export type PackageRegistrationService = ReturnType<typeof createPackageRegistrationService>;

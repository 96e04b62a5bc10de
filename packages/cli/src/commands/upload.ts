import fs from 'node:fs';
import path from 'node:path';
import { type AppVersionRow, UPLOAD_PART_SIZE } from '@release/contract';
import { createApiClient, type ApiClient } from '../api-client.ts';
import type { Command } from '../args.ts';
import { resolveConnection, retryDelayMs } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';
import { text } from '../messages.ts';
import { readPackageVersion } from '../package-version.ts';
import { type FormBody, formBody } from '../direct-form.ts';
import { findApp } from './find-app.ts';
import { isSendablePath, publishToPath } from './upload-direct.ts';
import { uploadFile } from '../part-uploader.ts';
import { createProgress, formatBytes } from '../progress.ts';

type UploadCommand = Extract<Command, { name: 'upload' }>;

function checkFile(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new CliError(ExitCode.usage, text.noSuchFile(file));
  }
  if (!stat.isFile()) throw new CliError(ExitCode.usage, text.notAFile(file));
  if (stat.size === 0) throw new CliError(ExitCode.usage, text.emptyFile(file));
  return stat.size;
}

async function transfer(
  api: ApiClient,
  io: Io,
  file: string,
  fileKey: string,
  delayMs: number | undefined,
): Promise<void> {
  const name = path.basename(file);
  const progress = createProgress(io.stderr, name.length > 40 ? `${name.slice(0, 37)}...` : name);
  await uploadFile({
    filePath: file,
    fileKey,
    api,
    retryDelayMs: delayMs,
    onProgress: (loaded, total) => progress.update(loaded, total),
  });
  progress.finish();
}

/** The one-request publish's form: the app as `appField`, the command's fields, then the file with its progress. */
function directForm(cmd: UploadCommand, size: number, appField: [string, string], io: Io, out: Output): FormBody {
  const name = path.basename(cmd.file);
  const progress = createProgress(io.stderr, name.length > 40 ? `${name.slice(0, 37)}...` : name);
  let sent = 0;
  const fields: Array<[string, string]> = [
    appField,
    ['note', cmd.note],
    ...(cmd.chatEnv ? ([['chatEnv', cmd.chatEnv]] as Array<[string, string]>) : []),
    ...(cmd.allowOtherBundleId ? ([['allowOtherBundleId', 'true']] as Array<[string, string]>) : []),
    ...(cmd.commit.length ? ([['commit', cmd.commit.join(',')]] as Array<[string, string]>) : []),
    ...(cmd.branch ? ([['branch', cmd.branch]] as Array<[string, string]>) : []),
  ];
  return formBody(fields, { path: cmd.file, name, size }, (n) => {
    sent += n;
    progress.update(sent, size);
    if (sent < size) return;
    // Every byte is sent: the server now stores and inspects it before answering.
    progress.finish();
    out.info(text.checking);
  });
}

export function describeVersion(v: AppVersionRow): string {
  const version = v.appVersion ? `${v.appVersion}${v.build ? ` (${v.build})` : ''}` : v.fileName;
  return `${v.nativePackageType} ${version} #${v.indexNo}, ${formatBytes(v.appSize)}`;
}

/** `release-cli upload`: the web app's publish flow, from a file on disk (or the modules of a HarmonyOS version). */
export async function uploadCommand(cmd: UploadCommand, io: Io, out: Output): Promise<void> {
  for (const file of [cmd.file, ...cmd.modules, ...cmd.attach]) checkFile(file);
  // Checked before any call (a package sent in one request never reads it).
  const delayMs = retryDelayMs(io.env);
  const api = createApiClient(resolveConnection({ server: cmd.server }, io.env));
  // A package that would be one part, alone: sent and registered in one request (POST /api/upload_app/direct).
  const size = checkFile(cmd.file);
  const oneRequest = size <= UPLOAD_PART_SIZE && cmd.modules.length === 0 && cmd.attach.length === 0;
  // Named by its path, the app is found by the server in that request; --skip-existing asks about it first.
  if (oneRequest && !cmd.skipExisting && isSendablePath(cmd.app)) {
    const { app, version } = await publishToPath(api, cmd.app, directForm(cmd, size, ['path', cmd.app], io, out));
    return published(out, app, version);
  }
  const app = await findApp(api, cmd.app);

  if (cmd.skipExisting) {
    const local = await readPackageVersion(cmd.file);
    if (!local) {
      out.info(text.noVersionToCompare);
    } else {
      const found = await api.exists({
        appId: app.appId,
        platform: local.platform,
        appVersion: local.appVersion,
        build: local.build ?? undefined,
      });
      if (found.exists) {
        out.info(
          text.alreadyPublished(
            app.appName,
            `${local.platform} ${local.appVersion}${local.build ? ` (${local.build})` : ''}`,
          ),
        );
        out.result({ ok: true, skipped: true, appId: app.appId, appVersionId: found.appVersionId ?? null, ...local });
        return;
      }
    }
  }

  if (oneRequest) {
    const { appName: _name, ...version } = await api.publishDirect(
      directForm(cmd, size, ['appId', String(app.appId)], io, out),
    );
    return published(out, app, version);
  }

  const keys = await api.issueKeys(
    path.basename(cmd.file),
    cmd.attach.map((f) => path.basename(f)),
  );
  if (!keys.appFile || keys.attachFiles.length !== cmd.attach.length)
    throw new CliError(ExitCode.failed, text.keysMissing);
  await transfer(api, io, cmd.file, keys.appFile.fileKey, delayMs);
  // The other modules of a HarmonyOS version: each its own package upload, registered together.
  const moduleFileUrls: string[] = [];
  for (const file of cmd.modules) {
    const key = (await api.issueKeys(path.basename(file), [])).appFile;
    if (!key) throw new CliError(ExitCode.failed, text.keysMissing);
    await transfer(api, io, file, key.fileKey, delayMs);
    moduleFileUrls.push(key.fileKey);
  }
  for (const [index, file] of cmd.attach.entries()) {
    const key = keys.attachFiles[index];
    if (key) await transfer(api, io, file, key.fileKey, delayMs);
  }

  out.info(text.checking);
  const version = await api.registerVersion({
    appId: app.appId,
    description: cmd.note,
    s3Url: keys.appFile.fileKey,
    moduleFileUrls,
    attachFileUrls: keys.attachFiles.map((a) => a.fileKey),
    chatEnv: cmd.chatEnv,
    ...(cmd.allowOtherBundleId ? { allowOtherBundleId: true } : {}),
    ...(cmd.commit.length ? { commit: cmd.commit.join(',') } : {}),
    ...(cmd.branch ? { branch: cmd.branch } : {}),
  });
  published(out, app, version);
}

function published(out: Output, app: { appId: number; appName: string }, version: AppVersionRow): void {
  out.info(text.published(app.appName, describeVersion(version)));
  for (const warning of version.warnings) out.info(text.warning(warning));
  out.result({ ok: true, skipped: false, appId: app.appId, version });
}

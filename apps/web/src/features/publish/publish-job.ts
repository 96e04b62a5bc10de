import {
  type AppVersionRow,
  type BundleIdMismatch,
  type GetSignedUrlResult,
  type UploadAppBody,
  UPLOAD_PART_SIZE,
} from '@release/contract';
import {
  isAbortError,
  MultipartUpload,
  transferPercent,
  UploadError,
  type MultipartApi,
  type PartSender,
} from './multipart-upload.ts';

/**
 * One publish: name the objects (get_signed_url), transfer the package and its attachments, then
 * register the version (v2/upload_app). Framework-free and resumable: after a failure or a cancel,
 * `run()` again skips whatever is already done.
 */

export interface PublishApi extends MultipartApi {
  /** `appId`: the app being published to (the server checks the edit permit on it before anything is uploaded). */
  issueKeys: (
    appFileName: string,
    attachFileNames: string[],
    signal: AbortSignal,
    appId?: number,
  ) => Promise<GetSignedUrlResult>;
  register: (body: UploadAppBody, signal: AbortSignal) => Promise<AppVersionRow>;
  /** Network or timeout: sending the same call again may work. A refusal needs the step redone. */
  isTransient: (error: unknown) => boolean;
  /** The package's bundle id is not one of the app's: what the server said, else null. */
  bundleIdMismatchOf: (error: unknown) => BundleIdMismatch | null;
  /** POST /api/upload_app/direct: the package and the fields in one request, registered in its answer. */
  publishDirect?: (
    file: File,
    meta: PublishMeta,
    signal: AbortSignal,
    /** Bytes of the request sent so far, of `total` (the form: the file and its fields). */
    onUploadProgress: (loaded: number, total: number) => void,
  ) => Promise<AppVersionRow>;
}

export interface PublishFiles {
  file: File;
  /** The other modules of a HarmonyOS version (kinds `uploadedTogether`), published with `file` as one version. */
  modules?: File[];
  attachments: File[];
}

export type PublishMeta = Pick<UploadAppBody, 'appId' | 'description' | 'chatEnv' | 'allowOtherBundleId'>;

export type PublishStage = 'uploading' | 'registering';

export interface PublishCallbacks {
  /** 0-80 while transferring, 100 once registered (SPEC §9). */
  onProgress: (percent: number) => void;
  onStage: (stage: PublishStage) => void;
}

export class PublishAbortedError extends Error {
  constructor() {
    super('已取消上传');
    this.name = 'PublishAbortedError';
  }
}

export class PublishJob {
  private readonly files: PublishFiles;
  private readonly api: PublishApi;
  private readonly sendPart: PartSender | undefined;
  private keys: GetSignedUrlResult | null = null;
  private moduleKeys: string[] = [];
  private uploads: MultipartUpload[] = [];
  private version: AppVersionRow | null = null;
  private callbacks: PublishCallbacks | null = null;

  constructor(files: PublishFiles, api: PublishApi, sendPart?: PartSender) {
    this.files = files;
    this.api = api;
    this.sendPart = sendPart;
  }

  get totalBytes(): number {
    return [this.files.file, ...(this.files.modules ?? []), ...this.files.attachments].reduce(
      (sum, f) => sum + f.size,
      0,
    );
  }

  async run(meta: PublishMeta, signal: AbortSignal, callbacks: PublishCallbacks): Promise<AppVersionRow> {
    this.callbacks = callbacks;
    if (this.version) return this.version;
    try {
      callbacks.onStage('uploading');
      if (this.inOneRequest()) return await this.publishDirect(meta, signal, callbacks);
      const uploads = await this.prepare(signal, meta.appId);
      this.reportTransfer();
      // The package first (the biggest), then each attachment; parts go 5 at a time within a file.
      for (const upload of uploads) await upload.run(signal);
      callbacks.onStage('registering');
      this.version = await this.register(meta, signal);
      callbacks.onProgress(100);
      return this.version;
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw new PublishAbortedError();
      // The key itself was refused (expired, already used): the retry asks for new keys.
      if (error instanceof UploadError && error.stage === 'start' && !this.api.isTransient(error.cause)) this.forget();
      throw error;
    }
  }

  /**
   * A package that would be one part, alone (no attachments, no other modules): sent and registered in one request
   * instead of five (keys, start, part, finish, register). Sent again whole on a retry, as its one part would be.
   */
  private inOneRequest(): boolean {
    const { file, modules, attachments } = this.files;
    return Boolean(this.api.publishDirect) && file.size <= UPLOAD_PART_SIZE && !modules?.length && !attachments.length;
  }

  private async publishDirect(meta: PublishMeta, signal: AbortSignal, callbacks: PublishCallbacks) {
    const { file } = this.files;
    let registering = false;
    const version = await this.api.publishDirect?.(file, meta, signal, (loaded, total) => {
      callbacks.onProgress(transferPercent(loaded, total));
      if (total <= 0 || loaded < total || registering) return;
      // Every byte is sent: the server stores and inspects the package before it answers.
      registering = true;
      callbacks.onStage('registering');
    });
    if (!version) throw new Error('上传失败');
    this.version = version;
    callbacks.onProgress(100);
    return version;
  }

  private async prepare(signal: AbortSignal, appId: number): Promise<MultipartUpload[]> {
    if (this.keys && this.uploads.length > 0) return this.uploads;
    const { file, attachments } = this.files;
    const keys = await this.api.issueKeys(
      file.name,
      attachments.map((a) => a.name),
      signal,
      appId,
    );
    if (!keys.appFile || keys.attachFiles.length !== attachments.length) throw new Error('上传凭证不完整，请重试');
    // Each further module is a package upload of its own, registered with the first.
    const moduleKeys: string[] = [];
    for (const module of this.files.modules ?? []) {
      const key = (await this.api.issueKeys(module.name, [], signal, appId)).appFile;
      if (!key) throw new Error('上传凭证不完整，请重试');
      moduleKeys.push(key.fileKey);
    }
    const targets: Array<{ blob: File; fileKey: string }> = [
      { blob: file, fileKey: keys.appFile.fileKey },
      ...(this.files.modules ?? []).map((blob, i) => ({ blob, fileKey: moduleKeys[i] ?? '' })),
      ...attachments.map((blob, i) => ({ blob, fileKey: keys.attachFiles[i]?.fileKey ?? '' })),
    ];
    this.keys = keys;
    this.moduleKeys = moduleKeys;
    this.uploads = targets.map(
      ({ blob, fileKey }) =>
        new MultipartUpload({
          blob,
          fileKey,
          api: this.api,
          sendPart: this.sendPart,
          isTransient: this.api.isTransient,
          onProgress: () => this.reportTransfer(),
        }),
    );
    return this.uploads;
  }

  private reportTransfer(): void {
    const loaded = this.uploads.reduce((sum, u) => sum + u.loaded, 0);
    this.callbacks?.onProgress(transferPercent(loaded, this.totalBytes));
  }

  private async register(meta: PublishMeta, signal: AbortSignal): Promise<AppVersionRow> {
    const keys = this.keys;
    if (!keys?.appFile) throw new Error('上传凭证不完整，请重试');
    try {
      return await this.api.register(
        {
          ...meta,
          s3Url: keys.appFile.fileKey,
          moduleFileUrls: this.moduleKeys,
          attachFileUrls: keys.attachFiles.map((a) => a.fileKey),
        },
        signal,
      );
    } catch (error) {
      // Refused (not a package, damaged...): the server dropped the file; a retry starts over. Refused for its
      // bundle id, the file is kept: confirming registers the same upload again.
      if (!signal.aborted && !this.api.isTransient(error) && !this.api.bundleIdMismatchOf(error)) this.forget();
      throw error;
    }
  }

  private forget(): void {
    this.keys = null;
    this.moduleKeys = [];
    this.uploads = [];
  }
}

/** The message to show for a failed step: the server's own text when it gave one. */
export function publishErrorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '上传失败';
}

import { Readable } from 'node:stream';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { assertSafeKey, BlobError, type BlobPart, type BlobStore, type ByteRange } from './blob-store.ts';

/**
 * The AWS SDK takes ~30 MB of memory once loaded (measured by bench/), so it is loaded on the first call:
 * a server that keeps its files on local disk never pays for it.
 */
async function loadSdk(config: S3ClientConfig) {
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { s3, client: new s3.S3Client(config), Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

export interface S3StoreOptions {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (MinIO, Ceph, s3rver); virtual-hosted style otherwise. */
  forcePathStyle: boolean;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The origin of the store's presigned URLs, where browsers PUT parts and GET files (the web app's CSP allows it). */
export function s3BrowserOrigin(
  options: Pick<S3StoreOptions, 'endpoint' | 'region' | 'bucket' | 'forcePathStyle'>,
): string {
  const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);
  return options.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${options.bucket}.${endpoint.host}`;
}

/** Blobs in any S3-compatible store; clients upload and download through presigned URLs, never through us. */
export function createS3BlobStore(options: S3StoreOptions) {
  const config: S3ClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  let loading: Promise<Sdk> | undefined;
  const sdk = () => {
    loading ??= loadSdk(config);
    return loading;
  };
  const Bucket = options.bucket;

  async function statObject(key: string): Promise<{ size: number } | null> {
    assertSafeKey(key);
    const { s3, client } = await sdk();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  const store = {
    kind: 's3' as const,
    origin: s3BrowserOrigin(options),

    async startMultipart(key: string, opts: { size: number; partSize: number; contentType: string }) {
      assertSafeKey(key);
      const { s3, client } = await sdk();
      const result = await client.send(
        new s3.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: opts.contentType }),
      );
      if (!result.UploadId) throw new BlobError('no_upload', 'the store did not start the upload');
      return { uploadId: result.UploadId };
    },

    async partUploadUrl(key: string, uploadId: string, partNo: number, expiresInSec: number) {
      const { s3, client, getSignedUrl } = await sdk();
      return getSignedUrl(
        client,
        new s3.UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNo }),
        { expiresIn: expiresInSec },
      );
    },

    async completeMultipart(key: string, uploadId: string, parts: BlobPart[], expectedSize: number) {
      const sorted = [...parts].sort((a, b) => a.partNo - b.partNo);
      const { s3, client } = await sdk();
      try {
        await client.send(
          new s3.CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: {
              Parts: sorted.map((p) => ({
                PartNumber: p.partNo,
                ETag: p.etag.startsWith('"') ? p.etag : `"${p.etag}"`,
              })),
            },
          }),
        );
      } catch (error) {
        throw new BlobError('incomplete', `the store refused to assemble the parts: ${(error as Error).message}`);
      }
      const stat = await statObject(key);
      if (stat?.size !== expectedSize) {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
        throw new BlobError('incomplete', `assembled ${stat?.size ?? 0} of ${expectedSize} bytes`);
      }
      return stat;
    },

    async abortMultipart(key: string, uploadId: string) {
      const { s3, client } = await sdk();
      await client
        .send(new s3.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }))
        .catch((error: unknown) => {
          // An upload already completed or aborted is gone: S3 says NoSuchUpload, s3rver MethodNotAllowed.
          const name = (error as { name?: string }).name;
          if (!isNotFound(error) && name !== 'NoSuchUpload' && name !== 'MethodNotAllowed') throw error;
        });
    },

    async listMultipart(): Promise<Array<{ key: string; uploadId: string; startedAt: number }>> {
      const { s3, client } = await sdk();
      const result = await client.send(new s3.ListMultipartUploadsCommand({ Bucket }));
      return (result.Uploads ?? []).map((u) => ({
        key: u.Key ?? '',
        uploadId: u.UploadId ?? '',
        startedAt: u.Initiated?.getTime() ?? 0,
      }));
    },

    async put(key: string, body: Readable | Buffer, opts: { contentType: string }) {
      assertSafeKey(key);
      const { client, Upload } = await sdk();
      await new Upload({ client, params: { Bucket, Key: key, Body: body, ContentType: opts.contentType } }).done();
      const stat = await statObject(key);
      return { size: stat?.size ?? 0 };
    },

    stat: statObject,

    async read(key: string, range?: ByteRange) {
      assertSafeKey(key);
      const { s3, client } = await sdk();
      try {
        const result = await client.send(
          new s3.GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!(result.Body instanceof Readable)) throw new BlobError('not_found', `no body for ${key}`);
        return result.Body;
      } catch (error) {
        if (isNotFound(error)) throw new BlobError('not_found', `no blob ${key}`);
        throw error;
      }
    },

    async downloadUrl(key: string, opts: { expiresInSec: number; fileName: string; contentType: string }) {
      assertSafeKey(key);
      const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(opts.fileName)}`;
      const { s3, client, getSignedUrl } = await sdk();
      return getSignedUrl(
        client,
        new s3.GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: disposition,
          ResponseContentType: opts.contentType,
        }),
        {
          expiresIn: opts.expiresInSec,
        },
      );
    },

    async delete(key: string) {
      assertSafeKey(key);
      const { s3, client } = await sdk();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
    },

    /** Every object of the bucket with its size (unfinished multipart uploads are not objects yet). */
    async *listObjects(): AsyncGenerator<{ key: string; size: number }> {
      const { s3, client } = await sdk();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? [])
          if (object.Key) yield { key: object.Key, size: Number(object.Size ?? 0) };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  } satisfies BlobStore & Record<string, unknown>;
  return store;
}
export type S3BlobStore = ReturnType<typeof createS3BlobStore>;

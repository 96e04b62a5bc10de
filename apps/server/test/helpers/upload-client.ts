import type { TestServer } from './test-app.ts';

interface StartData {
  uploadId: string;
  partSize: number;
  uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
}

/** Sends bytes through the three-step flow as the web app and the CLI do; answers the fileKey. */
export async function transferFile(
  server: Pick<TestServer, 'url' | 'request'>,
  token: string,
  fileName: string,
  bytes: Buffer,
  purpose: 'package' | 'attachment' | 'lark_attachment' = 'package',
): Promise<string> {
  const keys = await server.request<{ appFile: { fileKey: string } | null; attachFiles: Array<{ fileKey: string }> }>(
    'POST',
    '/api/get_signed_url',
    {
      token,
      body:
        purpose === 'package'
          ? { appFileName: fileName }
          : { attachFileNames: [fileName], ...(purpose === 'lark_attachment' ? { scene: 'lark_attachment' } : {}) },
    },
  );
  if (keys.body.code !== 200) throw new Error(`get_signed_url: ${keys.body.msg}`);
  const fileKey = purpose === 'package' ? keys.body.data.appFile?.fileKey : keys.body.data.attachFiles[0]?.fileKey;
  if (!fileKey) throw new Error('no file key issued');
  const start = await server.request<StartData>('POST', '/api/multi_signed_url_upload', {
    token,
    body: { functionName: 'start', fileKey, fileSize: bytes.length },
  });
  if (start.body.code !== 200) throw new Error(`start: ${start.body.msg}`);
  const { uploadId, partSize, uploadParamsList } = start.body.data;
  const tags = await Promise.all(
    uploadParamsList.map(async ({ partNo, signedUrl }) => {
      // Behind a configured PUBLIC_URL the part URLs name the proxy; tests talk to the server directly.
      const url = new URL(signedUrl);
      const target =
        url.hostname === '127.0.0.1' || !url.pathname.startsWith('/api/')
          ? signedUrl
          : `${server.url}${url.pathname}${url.search}`;
      const res = await fetch(target, {
        method: 'PUT',
        body: bytes.subarray((partNo - 1) * partSize, partNo * partSize),
      });
      if (!res.ok) throw new Error(`part ${partNo}: HTTP ${res.status} ${await res.text()}`);
      return { partNo, etag: res.headers.get('etag') ?? '' };
    }),
  );
  const finish = await server.request('POST', '/api/multi_signed_url_upload', {
    token,
    body: { functionName: 'finish', fileKey, uploadId, tags },
  });
  if (finish.body.code !== 200) throw new Error(`finish: ${finish.body.msg}`);
  return fileKey;
}

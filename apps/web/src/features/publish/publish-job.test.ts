import { describe, expect, it } from 'vitest';
import { type AppVersionRow, UPLOAD_PART_SIZE, type UploadAppBody } from '@release/contract';
import { PublishAbortedError, PublishJob, type PublishApi } from './publish-job.ts';
import type { PartSender } from './multipart-upload.ts';

const PART = 8;

class Refused extends Error {}
class Mismatch extends Error {}
const mismatch = {
  reason: 'bundleIdMismatch' as const,
  platform: 'ios' as const,
  allowed: ['com.a'],
  bundleId: 'com.b',
};

function fakePublishApi(registerAnswers: Array<'ok' | 'network' | 'refused' | 'mismatch'>) {
  const calls = { keys: 0, starts: [] as string[], finishes: 0, register: [] as UploadAppBody[] };
  const api: PublishApi = {
    issueKeys: async (appFileName, attachFileNames) => {
      calls.keys += 1;
      return {
        appFile: { fileName: appFileName, fileKey: `k${calls.keys}/${appFileName}` },
        attachFiles: attachFileNames.map((fileName) => ({ fileName, fileKey: `k${calls.keys}/${fileName}` })),
      };
    },
    start: async (fileKey, fileSize) => {
      calls.starts.push(fileKey);
      const count = Math.ceil(fileSize / PART);
      return {
        uploadId: fileKey,
        partSize: PART,
        uploadParamsList: Array.from({ length: count }, (_, i) => ({
          partNo: i + 1,
          signedUrl: `https://s3.test/${i + 1}`,
        })),
      };
    },
    finish: async (fileKey, _uploadId, tags) => {
      calls.finishes += 1;
      return { fileKey, fileSize: tags.length };
    },
    register: async (body) => {
      calls.register.push(body);
      const answer = registerAnswers.shift() ?? 'ok';
      if (answer === 'network') throw new Error('网络不太好~');
      if (answer === 'refused') throw new Refused('扩展名为.ipa但内容是Android安装包');
      if (answer === 'mismatch') throw new Mismatch('包名不一致：该应用的 iOS Bundle ID 为 com.a，此安装包为 com.b');
      return { id: 7, appId: body.appId } as unknown as AppVersionRow;
    },
    isTransient: (error) => !(error instanceof Refused || error instanceof Mismatch),
    bundleIdMismatchOf: (error) => (error instanceof Mismatch ? mismatch : null),
  };
  return { api, calls };
}

const okFetch: PartSender = async (url, { body, onUploadProgress }) => {
  onUploadProgress(body.size);
  return { status: 200, etag: `"${url}"` };
};
const meta = { appId: 3, description: '说明', chatEnv: 'DevTest' as const };

function files() {
  return {
    file: new File([new Uint8Array(PART * 3)], 'app.ipa'),
    attachments: [new File([new Uint8Array(PART)], 'notes.txt')],
  };
}

describe('PublishJob', () => {
  it('uploads the package and attachments, registers, and reports 0-80 then 100', async () => {
    const { api, calls } = fakePublishApi(['ok']);
    const progress: number[] = [];
    const stages: string[] = [];
    const job = new PublishJob(files(), api, okFetch);
    const version = await job.run(meta, new AbortController().signal, {
      onProgress: (p) => progress.push(p),
      onStage: (s) => stages.push(s),
    });

    expect(version.id).toBe(7);
    expect(calls.starts).toEqual(['k1/app.ipa', 'k1/notes.txt']);
    expect(calls.register).toEqual([
      { ...meta, s3Url: 'k1/app.ipa', moduleFileUrls: [], attachFileUrls: ['k1/notes.txt'] },
    ]);
    expect(progress.slice(0, -1).every((p, i) => p <= 80 && p >= (progress[i - 1] ?? 0))).toBe(true);
    expect(progress.at(-2)).toBe(80);
    expect(progress.at(-1)).toBe(100);
    expect(stages).toEqual(['uploading', 'registering']);
  });

  it('uploads the other modules of a HarmonyOS version each under its own key and registers them together', async () => {
    const { api, calls } = fakePublishApi(['ok']);
    const modules = [new File([new Uint8Array(PART)], 'lib.hsp'), new File([new Uint8Array(PART * 2)], 'feature.hap')];
    const job = new PublishJob(
      { ...files(), file: new File([new Uint8Array(PART)], 'entry.hap'), modules },
      api,
      okFetch,
    );
    expect(job.totalBytes).toBe(PART * 5);
    await job.run(meta, new AbortController().signal, { onProgress: () => undefined, onStage: () => undefined });
    expect(calls.starts).toEqual(['k1/entry.hap', 'k2/lib.hsp', 'k3/feature.hap', 'k1/notes.txt']);
    expect(calls.register).toEqual([
      {
        ...meta,
        s3Url: 'k1/entry.hap',
        moduleFileUrls: ['k2/lib.hsp', 'k3/feature.hap'],
        attachFileUrls: ['k1/notes.txt'],
      },
    ]);
  });

  it('re-sends only the registration after a network failure', async () => {
    const { api, calls } = fakePublishApi(['network', 'ok']);
    const job = new PublishJob(files(), api, okFetch);
    const callbacks = { onProgress: () => undefined, onStage: () => undefined };
    await expect(job.run(meta, new AbortController().signal, callbacks)).rejects.toThrow('网络不太好~');
    await job.run({ ...meta, description: '改过的说明' }, new AbortController().signal, callbacks);
    expect(calls.keys).toBe(1);
    expect(calls.starts).toHaveLength(2);
    expect(calls.register.map((b) => [b.s3Url, b.description])).toEqual([
      ['k1/app.ipa', '说明'],
      ['k1/app.ipa', '改过的说明'],
    ]);
  });

  it('starts over with new keys after the server refuses the package', async () => {
    const { api, calls } = fakePublishApi(['refused', 'ok']);
    const job = new PublishJob(files(), api, okFetch);
    const callbacks = { onProgress: () => undefined, onStage: () => undefined };
    await expect(job.run(meta, new AbortController().signal, callbacks)).rejects.toThrow('Android安装包');
    await job.run(meta, new AbortController().signal, callbacks);
    expect(calls.keys).toBe(2);
    expect(calls.register.at(-1)?.s3Url).toBe('k2/app.ipa');
  });

  it('keeps the upload after a bundle id refusal, so confirming registers the same file with the flag', async () => {
    const { api, calls } = fakePublishApi(['mismatch', 'ok']);
    const job = new PublishJob(files(), api, okFetch);
    const callbacks = { onProgress: () => undefined, onStage: () => undefined };
    await expect(job.run(meta, new AbortController().signal, callbacks)).rejects.toThrow('包名不一致');
    await job.run({ ...meta, allowOtherBundleId: true }, new AbortController().signal, callbacks);
    expect([calls.keys, calls.starts.length]).toEqual([1, 2]);
    expect(calls.register.map((b) => [b.s3Url, b.allowOtherBundleId])).toEqual([
      ['k1/app.ipa', undefined],
      ['k1/app.ipa', true],
    ]);
  });

  it('sends a package of one part alone in one request (upload_app/direct), reporting 0-80, registering, then 100', async () => {
    const { api, calls } = fakePublishApi([]);
    const direct: Array<[string, unknown]> = [];
    const answers = ['mismatch', 'ok'];
    api.publishDirect = async (file, fields, _signal, onUploadProgress) => {
      direct.push([file.name, fields.allowOtherBundleId]);
      onUploadProgress(100, 400);
      onUploadProgress(400, 400);
      if (answers.shift() === 'mismatch') throw new Mismatch('包名不一致');
      return { id: 9, appId: fields.appId } as unknown as AppVersionRow;
    };
    const small = { file: new File([new Uint8Array(UPLOAD_PART_SIZE)], 'small.ipa'), attachments: [] };
    const job = new PublishJob(small, api, okFetch);
    const progress: number[] = [];
    const stages: string[] = [];
    const callbacks = { onProgress: (p: number) => progress.push(p), onStage: (s: string) => stages.push(s) };
    // Refused for its bundle id: confirming sends the file again with the flag, still in one request.
    await expect(job.run(meta, new AbortController().signal, callbacks)).rejects.toThrow('包名不一致');
    const version = await job.run({ ...meta, allowOtherBundleId: true }, new AbortController().signal, callbacks);
    expect(version.id).toBe(9);
    expect(direct).toEqual([
      ['small.ipa', undefined],
      ['small.ipa', true],
    ]);
    expect([calls.keys, calls.starts, calls.register]).toEqual([0, [], []]);
    expect(progress.slice(-3)).toEqual([20, 80, 100]);
    expect(stages.slice(-2)).toEqual(['uploading', 'registering']);

    // One byte over a part, or with an attachment: the multipart flow (its keys asked for; stopped there, as the
    // fake's 8-byte parts would make 655,361 of them).
    for (const more of [
      { file: new File([new Uint8Array(UPLOAD_PART_SIZE + 1)], 'big.ipa'), attachments: [] },
      { file: small.file, attachments: [new File(['x'], 'notes.txt')] },
    ]) {
      const before = calls.keys;
      const stop = new AbortController();
      api.issueKeys = async (appFileName) => {
        calls.keys += 1;
        stop.abort();
        return { appFile: { fileName: appFileName, fileKey: `k/${appFileName}` }, attachFiles: [] };
      };
      await expect(new PublishJob(more, api, okFetch).run(meta, stop.signal, callbacks)).rejects.toBeInstanceOf(
        PublishAbortedError,
      );
      expect(calls.keys).toBe(before + 1);
    }
    expect(direct).toHaveLength(2);
  });

  it('turns a cancel into PublishAbortedError', async () => {
    const { api } = fakePublishApi(['ok']);
    const controller = new AbortController();
    const hanging: PartSender = (_url, { signal }) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        setTimeout(() => controller.abort(), 5);
      });
    const job = new PublishJob(files(), api, hanging);
    await expect(
      job.run(meta, controller.signal, { onProgress: () => undefined, onStage: () => undefined }),
    ).rejects.toBeInstanceOf(PublishAbortedError);
  });
});

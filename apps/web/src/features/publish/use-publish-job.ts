import { useEffect, useRef, useState } from 'react';
import type { AppVersionRow, BundleIdMismatch } from '@release/contract';
import {
  bundleIdMismatchOf,
  finishMultipart,
  isTransientFailure,
  issueUploadKeys,
  publishDirect,
  registerPackage,
  startMultipart,
} from '../../api/publish.api.ts';
import {
  PublishAbortedError,
  PublishJob,
  publishErrorMessage,
  type PublishApi,
  type PublishFiles,
  type PublishMeta,
} from './publish-job.ts';
import { publishText } from './publish.strings.ts';

/** `confirm`: the package's bundle id is not the app's; the uploader may publish it anyway. */
export type PublishPhase = 'idle' | 'uploading' | 'registering' | 'failed' | 'canceled' | 'confirm' | 'done';

export interface PublishState {
  phase: PublishPhase;
  percent: number;
  error: string | null;
  /** In phase `confirm`: the ids the server named. */
  mismatch?: BundleIdMismatch | null;
}

const publishApi: PublishApi = {
  issueKeys: issueUploadKeys,
  start: startMultipart,
  finish: finishMultipart,
  register: registerPackage,
  isTransient: isTransientFailure,
  bundleIdMismatchOf,
  publishDirect,
};

const idle: PublishState = { phase: 'idle', percent: 0, error: null };

function sameFiles(a: PublishFiles, b: PublishFiles): boolean {
  return (
    a.file === b.file &&
    (a.modules ?? []).length === (b.modules ?? []).length &&
    (a.modules ?? []).every((f, i) => f === b.modules?.[i]) &&
    a.attachments.length === b.attachments.length &&
    a.attachments.every((f, i) => f === b.attachments[i])
  );
}

/** Runs a PublishJob for the page: progress, cancel, and retry that resumes the same job. */
export function usePublishJob() {
  const [state, setState] = useState<PublishState>(idle);
  const job = useRef<{ job: PublishJob; files: PublishFiles } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const lastMeta = useRef<PublishMeta | null>(null);
  const busy = state.phase === 'uploading' || state.phase === 'registering';

  useEffect(() => () => controller.current?.abort(), []);

  useEffect(() => {
    if (!busy) return undefined;
    const warn = (event: BeforeUnloadEvent): string => {
      event.preventDefault();
      return publishText.leaveWarning;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const run = async (files: PublishFiles, meta: PublishMeta): Promise<AppVersionRow | null> => {
    if (busy) return null;
    // Other files: a new job. The same files: the job resumes where it stopped.
    if (!job.current || !sameFiles(job.current.files, files))
      job.current = { job: new PublishJob(files, publishApi), files };
    lastMeta.current = meta;
    const abort = new AbortController();
    controller.current = abort;
    setState((s) => ({
      phase: 'uploading',
      percent: s.phase === 'idle' || s.phase === 'done' ? 0 : s.percent,
      error: null,
    }));
    try {
      const version = await job.current.job.run(meta, abort.signal, {
        onProgress: (percent) => setState((s) => ({ ...s, percent })),
        onStage: (phase) => setState((s) => ({ ...s, phase })),
      });
      setState({ phase: 'done', percent: 100, error: null });
      return version;
    } catch (error) {
      const mismatch = bundleIdMismatchOf(error);
      if (error instanceof PublishAbortedError) setState((s) => ({ ...s, phase: 'canceled', error: null }));
      else if (mismatch) setState((s) => ({ ...s, phase: 'confirm', error: publishErrorMessage(error), mismatch }));
      else setState((s) => ({ ...s, phase: 'failed', error: publishErrorMessage(error) }));
      return null;
    }
  };

  return {
    state,
    busy,
    run,
    /** 仍然发布: registers the same upload again, accepting its other bundle id. */
    confirmOtherBundleId: async (): Promise<AppVersionRow | null> => {
      const current = job.current;
      const meta = lastMeta.current;
      if (!current || !meta || state.phase !== 'confirm') return null;
      return run(current.files, { ...meta, allowOtherBundleId: true });
    },
    /** 取消: aborts every request in flight. */
    cancel: () => controller.current?.abort(),
    /** Different files were picked: forget the progress of the old ones. */
    reset: () => {
      if (busy) return;
      job.current = null;
      setState(idle);
    },
  };
}

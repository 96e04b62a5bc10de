import {
  FEEDBACK_DEVICE_MAX,
  FEEDBACK_MAX_SCREENSHOTS,
  FEEDBACK_PATH,
  FEEDBACK_RECORDING_MAX_MB,
  FEEDBACK_SCREENSHOT_MAX_MB,
  FeedbackMessages,
} from '@release/contract/feedback-form';
import { ResultCode } from '@release/contract/install-page';

/**
 * Tester feedback as both the install page (Preact) and the console (antd) send it: the device read from the
 * browser, the files checked before sending, and the multipart POST with upload progress. Free of UI libraries.
 */

const MB = 1024 * 1024;

/** Device model and OS version: Chromium's client hints when it has them, else what the User-Agent says. */
export async function readDevice(): Promise<{ model: string; os: string }> {
  const ua = navigator.userAgent;
  const ios = /\b(iPhone|iPad|iPod)\b.*?\bOS ([\d_]+)/.exec(ua);
  const android = /\bAndroid ([\d.]+)(?:;[^;)]*?;?\s*([^;)]+?)(?: Build\/[^;)]*)?\))?/.exec(ua);
  let model = ios?.[1] ?? (android?.[2] && android[2].trim() !== 'K' ? android[2].trim() : '');
  let os = ios ? `iOS ${ios[2]?.replace(/_/g, '.')}` : android ? `Android ${android[1]}` : '';
  const hints = (
    navigator as { userAgentData?: { getHighEntropyValues(k: string[]): Promise<Record<string, string>> } }
  ).userAgentData;
  if (hints) {
    try {
      const values = await hints.getHighEntropyValues(['model', 'platform', 'platformVersion']);
      if (values.model) model = values.model;
      if (values.platform && values.platformVersion) os = `${values.platform} ${values.platformVersion}`;
    } catch {
      // Refused: the User-Agent's reading stands.
    }
  }
  return { model: model.slice(0, FEEDBACK_DEVICE_MAX), os: os.slice(0, FEEDBACK_DEVICE_MAX) };
}

/** The same checks the server makes, before anything is sent (the server checks the bytes themselves again). */
export function filesProblem(files: File[]): string | null {
  const videos = files.filter((f) => f.type.startsWith('video/'));
  const images = files.filter((f) => f.type.startsWith('image/'));
  if (videos.length + images.length !== files.length) return FeedbackMessages.badFileType;
  if (videos.length && images.length) return FeedbackMessages.mixedFiles;
  if (videos.length > 1 || images.length > FEEDBACK_MAX_SCREENSHOTS) return FeedbackMessages.tooManyFiles;
  if (images.some((f) => f.size > FEEDBACK_SCREENSHOT_MAX_MB * MB)) return FeedbackMessages.screenshotTooLarge;
  if (videos.some((f) => f.size > FEEDBACK_RECORDING_MAX_MB * MB)) return FeedbackMessages.recordingTooLarge;
  return null;
}

export interface FeedbackFields {
  /** The install link's path (the app's download path). */
  path: string;
  versionId: number;
  text: string;
  device: { model: string; os: string };
  files: File[];
  /** Sent from the console's package list (the bug says so). */
  fromConsole?: boolean;
}

/**
 * POST /api/app_version/feedback (fields first, then files) with upload progress: a recording may take a while on a
 * phone's link. Answers null when sent, else the server's refusal or `networkError`.
 */
export function sendFeedback(
  fields: FeedbackFields,
  headers: Record<string, string | null>,
  onProgress: (percent: number) => void,
  networkError: string,
): Promise<string | null> {
  const form = new FormData();
  form.append('url', fields.path);
  form.append('versionId', String(fields.versionId));
  form.append('text', fields.text);
  if (fields.device.model) form.append('deviceModel', fields.device.model);
  if (fields.device.os) form.append('osVersion', fields.device.os);
  if (fields.fromConsole) form.append('from', 'console');
  for (const file of fields.files) form.append('files', file, file.name);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', FEEDBACK_PATH);
    for (const [name, value] of Object.entries(headers)) if (value) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => resolve(networkError);
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText) as { code?: number; msg?: string };
        resolve(body.code === ResultCode.ok ? null : body.msg || networkError);
      } catch {
        resolve(networkError);
      }
    };
    xhr.send(form);
  });
}

/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import type { InstallVersion } from '@release/contract';
import {
  FEEDBACK_MAX_SCREENSHOTS,
  FEEDBACK_PATH,
  FEEDBACK_RECORDING_MAX_MB,
  FEEDBACK_SCREENSHOT_MAX_MB,
  FEEDBACK_TEXT_MAX,
  FeedbackMessages,
} from '@release/contract/feedback-form';
import { ResultCode } from '@release/contract/install-page';
import { installText } from '../features/packages/install.strings.ts';
import { NETWORK_ERROR, readInstallToken, readSessionToken } from './install.api.ts';
import { Alert, Button } from './ui.tsx';
import './feedback.css';

const MB = 1024 * 1024;

export const feedbackText = {
  title: '反馈问题',
  about: (build: string) => `反馈将提交给开发同学，并注明你正在使用的版本 ${build} 和设备信息。`,
  placeholder: '遇到了什么问题？怎么操作会出现？',
  files: '截图或录屏',
  filesHint: `最多 ${FEEDBACK_MAX_SCREENSHOTS} 张截图（每张 ≤ ${FEEDBACK_SCREENSHOT_MAX_MB} MB）或 1 段录屏（≤ ${FEEDBACK_RECORDING_MAX_MB} MB）`,
  choose: '添加截图或录屏',
  remove: '移除',
  device: '设备',
  send: '提交反馈',
  cancel: '取消',
  again: '再提交一条',
  close: '完成',
  uploading: (percent: number) => `正在上传 ${percent}%`,
} as const;

/** Device model and OS version: Chromium's client hints when it has them, else what the User-Agent says. */
async function readDevice(): Promise<{ model: string; os: string }> {
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
  return { model: model.slice(0, 64), os: os.slice(0, 64) };
}

/** The same checks the server makes, before anything is sent (the server checks the bytes themselves again). */
function filesProblem(files: File[]): string | null {
  const videos = files.filter((f) => f.type.startsWith('video/'));
  const images = files.filter((f) => f.type.startsWith('image/'));
  if (videos.length + images.length !== files.length) return FeedbackMessages.badFileType;
  if (videos.length && images.length) return FeedbackMessages.mixedFiles;
  if (videos.length > 1 || images.length > FEEDBACK_MAX_SCREENSHOTS) return FeedbackMessages.tooManyFiles;
  if (images.some((f) => f.size > FEEDBACK_SCREENSHOT_MAX_MB * MB)) return FeedbackMessages.screenshotTooLarge;
  if (videos.some((f) => f.size > FEEDBACK_RECORDING_MAX_MB * MB)) return FeedbackMessages.recordingTooLarge;
  return null;
}

/** Sends the form with upload progress (a recording may take a while on a phone's link). */
function post(form: FormData, path: string, onProgress: (percent: number) => void): Promise<string | null> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', FEEDBACK_PATH);
    const pass = readInstallToken(path);
    if (pass) xhr.setRequestHeader('app-version-token', pass);
    const session = readSessionToken();
    if (session) xhr.setRequestHeader('token', session);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => resolve(NETWORK_ERROR);
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText) as { code?: number; msg?: string };
        resolve(body.code === ResultCode.ok ? null : body.msg || NETWORK_ERROR);
      } catch {
        resolve(NETWORK_ERROR);
      }
    };
    xhr.send(form);
  });
}

function buildLabel(v: InstallVersion): string {
  const name = v.appVersion
    ? [v.appVersion, v.build && `(${v.build})`].filter(Boolean).join(' ')
    : `第 ${v.indexNo} 版`;
  return `${installText.platforms[v.nativePackageType]} ${name}`;
}

export function FeedbackForm({
  path,
  version,
  onClose,
}: {
  path: string;
  version: InstallVersion;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [device, setDevice] = useState({ model: '', os: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [sent, setSent] = useState(false);
  useEffect(() => void readDevice().then(setDevice), []);

  const choose = (list: FileList | null) => {
    const next = [...files, ...Array.from(list ?? [])];
    setProblem(filesProblem(next));
    if (!filesProblem(next)) setFiles(next);
  };
  const submit = async () => {
    const trimmed = text.trim();
    const refusal = !trimmed
      ? FeedbackMessages.textRequired
      : trimmed.length > FEEDBACK_TEXT_MAX
        ? FeedbackMessages.textTooLong
        : filesProblem(files);
    setProblem(refusal);
    if (refusal) return;
    const form = new FormData();
    form.append('url', path);
    form.append('versionId', String(version.id));
    form.append('text', trimmed);
    if (device.model) form.append('deviceModel', device.model);
    if (device.os) form.append('osVersion', device.os);
    for (const file of files) form.append('files', file, file.name);
    setProgress(0);
    const failed = await post(form, path, setProgress);
    setProgress(null);
    if (failed) setProblem(failed);
    else setSent(true);
  };

  if (sent)
    return (
      <div class="i-card i-stack i-gap-8 i-feedback" data-testid="feedback-form">
        <Alert type="success" title={FeedbackMessages.sent} testId="feedback-sent" />
        <div class="i-row i-gap-8">
          <Button
            onClick={() => {
              setSent(false);
              setText('');
              setFiles([]);
            }}
          >
            {feedbackText.again}
          </Button>
          <Button look="link" onClick={onClose}>
            {feedbackText.close}
          </Button>
        </div>
      </div>
    );
  const busy = progress !== null;
  return (
    <div class="i-card i-stack i-gap-8 i-feedback" data-testid="feedback-form">
      <strong>{feedbackText.title}</strong>
      <span class="i-muted i-small">{feedbackText.about(buildLabel(version))}</span>
      <textarea
        class="i-feedback-text"
        rows={5}
        maxLength={FEEDBACK_TEXT_MAX}
        placeholder={feedbackText.placeholder}
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        data-testid="feedback-text"
      />
      <span class="i-muted i-small i-feedback-count">
        {text.length} / {FEEDBACK_TEXT_MAX}
      </span>
      <label class="i-feedback-pick">
        <span>{feedbackText.choose}</span>
        <input
          type="file"
          accept="image/*,video/*"
          multiple
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            choose(input.files);
            input.value = '';
          }}
          data-testid="feedback-files"
        />
      </label>
      <span class="i-muted i-small">{feedbackText.filesHint}</span>
      {files.length > 0 && (
        <ul class="i-feedback-files" data-testid="feedback-file-list">
          {files.map((file, i) => (
            <li key={`${file.name}-${i}`} class="i-row i-gap-8">
              <span class="i-ellipsis i-min0">{file.name}</span>
              <span class="i-muted i-small">{(file.size / MB).toFixed(1)} MB</span>
              <Button look="link" onClick={() => setFiles(files.filter((_, j) => j !== i))}>
                {feedbackText.remove}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <span class="i-muted i-small" data-testid="feedback-device">
        {feedbackText.device}：{[device.model, device.os].filter(Boolean).join(' · ') || '由浏览器信息推断'}
      </span>
      {problem && <Alert type="error" title={problem} testId="feedback-problem" />}
      {busy && (
        <div
          class="i-feedback-progress"
          role="progressbar"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div style={{ width: `${progress}%` }} />
          <span class="i-small">{feedbackText.uploading(progress)}</span>
        </div>
      )}
      <div class="i-row i-gap-8">
        <Button look="primary" busy={busy} onClick={() => void submit()} testId="feedback-send">
          {feedbackText.send}
        </Button>
        <Button look="link" onClick={onClose}>
          {feedbackText.cancel}
        </Button>
      </div>
    </div>
  );
}

/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import type { InstallVersion } from '@release/contract';
import { FEEDBACK_TEXT_MAX, FeedbackMessages } from '@release/contract/feedback-form';
import { filesProblem, readDevice, sendFeedback } from '../features/feedback/feedback-send.ts';
import { feedbackText } from '../features/feedback/feedback.strings.ts';
import { installText } from '../features/packages/install.strings.ts';
import { NETWORK_ERROR, readInstallToken, readSessionToken } from './install.api.ts';
import { Alert, Button } from './ui.tsx';
import './feedback.css';

const MB = 1024 * 1024;

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
    setProgress(0);
    const failed = await sendFeedback(
      { path, versionId: version.id, text: trimmed, device, files },
      { 'app-version-token': readInstallToken(path), token: readSessionToken() },
      setProgress,
      NETWORK_ERROR,
    );
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
        {feedbackText.device}：{[device.model, device.os].filter(Boolean).join(' · ') || feedbackText.deviceGuessed}
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

/** @jsxImportSource preact */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DeviceEnrollResult } from '@release/contract';
import { copyText } from '../app/clipboard.ts';
import { enrollText } from '../features/device-enroll/device-enroll.strings.ts';
import { fetchEnrollResult, rememberUdid } from './install.api.ts';
import { ActionLink, Alert, Button, Spinner } from './ui.tsx';

type State =
  | { status: 'loading' }
  | { status: 'ready'; result: DeviceEnrollResult }
  | { status: 'failed'; message: string };

function Details({ result }: { result: DeviceEnrollResult }) {
  const [copied, setCopied] = useState(false);
  const rows: Array<[string, string | null]> = [
    [enrollText.product, result.product],
    [enrollText.osVersion, result.osVersion],
    [enrollText.serial, result.serial],
  ];
  return (
    <dl class="i-details">
      <dt>{enrollText.udid}</dt>
      <dd>
        <strong class="i-break" data-testid="enroll-udid">
          {result.udid}
        </strong>
        <div>
          <Button look="link" onClick={() => void copyText(result.udid).then(setCopied)}>
            {copied ? enrollText.copied : enrollText.copy}
          </Button>
        </div>
      </dd>
      {rows.map(([label, value]) =>
        value ? (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ) : null,
      )}
    </dl>
  );
}

/**
 * /device-enroll/result: where Safari lands after the phone sent its UDID (no session; the link is signed). Part of the
 * install entry, as the phone comes from the install page and goes back to it.
 */
export function EnrollResult({ id, sig }: { id: string; sig: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    document.title = `${enrollText.resultTitle} - 发布系统`;
    let live = true;
    void fetchEnrollResult(id, sig).then((answer) => {
      if (!live) return;
      if (answer.ok) rememberUdid(answer.data.udid);
      setState(answer.ok ? { status: 'ready', result: answer.data } : { status: 'failed', message: answer.message });
    });
    return () => {
      live = false;
    };
  }, [id, sig]);

  let body;
  if (state.status === 'loading') body = <Spinner />;
  else if (state.status === 'failed')
    body = (
      <Alert type="warning" title={enrollText.resultFailed} testId="enroll-result-failed">
        {state.message}
      </Alert>
    );
  else {
    const { result } = state;
    const back = result.app
      ? `/package/${encodeURIComponent(result.app.path)}${result.versionId ? `?id=${result.versionId}` : ''}`
      : null;
    body = (
      <div class="i-stack i-gap-16">
        <Alert
          type={result.outcome === 'registered' ? 'success' : 'info'}
          icon="mobile"
          title={
            <span data-testid="enroll-outcome">
              {result.outcome === 'registered' ? enrollText.registered : enrollText.known}
            </span>
          }
        >
          {enrollText.resubmitHint}
        </Alert>
        <Details result={result} />
        {back && result.app ? (
          <ActionLink look="primary" large block href={back} testId="enroll-back">
            {enrollText.backToInstall(result.app.appName)}
          </ActionLink>
        ) : null}
      </div>
    );
  }

  return (
    <div class="install-page" data-testid="enroll-result-page">
      <div class="i-card install-main">
        <h1 class="i-heading i-enroll-title">{enrollText.resultTitle}</h1>
        {body}
      </div>
    </div>
  );
}

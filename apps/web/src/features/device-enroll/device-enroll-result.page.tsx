import { useEffect, useState } from 'react';
import { Button, Card, Descriptions, Result, Spin, Typography } from 'antd';
import { useSearchParams } from 'react-router-dom';
import type { DeviceEnrollResult } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';
import { copyText } from '../../app/clipboard.ts';
import { fetchEnrollResult, rememberUdid } from './device-enroll.api.ts';
import { enrollText } from './device-enroll.strings.ts';
import './enroll-result.css';

type State = { status: 'loading' } | { status: 'ready'; result: DeviceEnrollResult } | { status: 'failed'; message: string };

function Details({ result }: { result: DeviceEnrollResult }) {
  const [copied, setCopied] = useState(false);
  return (
    <Descriptions column={1} size="small" bordered style={{ textAlign: 'left' }}>
      <Descriptions.Item label={enrollText.udid}>
        <Typography.Text strong style={{ wordBreak: 'break-all' }} data-testid="enroll-udid">
          {result.udid}
        </Typography.Text>
        <div>
          <Button size="small" type="link" style={{ padding: 0 }} onClick={() => void copyText(result.udid).then(setCopied)}>
            {copied ? enrollText.copied : enrollText.copy}
          </Button>
        </div>
      </Descriptions.Item>
      {result.product && <Descriptions.Item label={enrollText.product}>{result.product}</Descriptions.Item>}
      {result.osVersion && <Descriptions.Item label={enrollText.osVersion}>{result.osVersion}</Descriptions.Item>}
      {result.serial && <Descriptions.Item label={enrollText.serial}>{result.serial}</Descriptions.Item>}
    </Descriptions>
  );
}

/** /device-enroll/result: where Safari lands after the phone sent its UDID (no session needed; the link is signed). */
export function DeviceEnrollResultPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const sig = params.get('sig') ?? '';
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    document.title = `${enrollText.resultTitle} - ${zh.appTitle}`;
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
  if (state.status === 'loading') body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (state.status === 'failed') body = <Result status="warning" title={enrollText.resultFailed} subTitle={state.message} data-testid="enroll-result-failed" />;
  else {
    const { result } = state;
    const back = result.app ? `/package/${encodeURIComponent(result.app.path)}${result.versionId ? `?id=${result.versionId}` : ''}` : null;
    body = (
      <>
        <Result
          status={result.outcome === 'registered' ? 'success' : 'info'}
          title={<span data-testid="enroll-outcome">{result.outcome === 'registered' ? enrollText.registered : enrollText.known}</span>}
          subTitle={enrollText.resubmitHint}
          extra={
            back && result.app ? (
              <Button type="primary" href={back} data-testid="enroll-back">
                {enrollText.backToInstall(result.app.appName)}
              </Button>
            ) : undefined
          }
          style={{ padding: '16px 0' }}
        />
        <Details result={result} />
      </>
    );
  }

  return (
    <div className="install-page" data-testid="enroll-result-page">
      <Card className="install-main" title={enrollText.resultTitle}>
        {body}
      </Card>
    </div>
  );
}

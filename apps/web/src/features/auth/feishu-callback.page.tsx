import { useEffect, useRef, useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { RoutePath, SignInKind } from '@release/contract';
import { isApiError } from '../../api/api-error.ts';
import { confirmQrLogin, larkLogin, reportSignInDenied } from '../../api/sso.api.ts';
import { toast } from '../../app/feedback.ts';
import { queryClient } from '../../app/query-client.ts';
import { takeRedirect } from '../../app/redirect.ts';
import { saveLoginSession } from '../../app/session.store.ts';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { parseState, takeOwnState, type LoginPageState } from './lark-sign-in.ts';

type Outcome = { kind: 'working'; text: string } | { kind: 'done'; text: string } | { kind: 'failed'; text: string };

/**
 * /callback/feishu: where Lark sends the browser back with `code` and `state` (or `error`). The state says
 * what to do: a web login (success_login) or an account binding (bind_login) finish here; a terminal login
 * hands the code to the CLI's loopback listener; a QR login confirms the waiting screen from this phone.
 */
export function FeishuCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working', text: zh.feishuCallback.signingIn });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state') ?? '';
    const error = params.get('error');
    const { kind, port } = parseState(state);
    const fail = (text: string) => setOutcome({ kind: 'failed', text });
    const failFrom = (reason: unknown) => fail(isApiError(reason) ? reason.message : zh.feishuCallback.failed);

    if (kind === SignInKind.terminal && port !== null) {
      // The CLI checks the state itself; the code only goes to this machine's loopback address.
      setOutcome({ kind: 'working', text: zh.feishuCallback.toTerminal });
      const target = new URL(`http://127.0.0.1:${port}/callback`);
      for (const [name, value] of params) target.searchParams.set(name, value);
      window.location.replace(target.toString());
      return;
    }
    if (kind === SignInKind.qr) {
      confirmQrLogin({ state, code: code ?? undefined, error: error ?? undefined })
        .then((result) =>
          result.status === 'done'
            ? setOutcome({ kind: 'done', text: zh.feishuCallback.qrDone })
            : fail(zh.feishuCallback.denied),
        )
        .catch(failFrom);
      return;
    }
    if (kind !== SignInKind.success && kind !== SignInKind.bind) return fail(zh.feishuCallback.content);
    // A web login that did not finish goes back to /login, which shows why; a binding stays here.
    const refuse = (text: string) => {
      if (kind === SignInKind.bind) return fail(text);
      void navigate(RoutePath.login, { replace: true, state: { signInError: text } satisfies LoginPageState });
    };
    if (!takeOwnState(state)) return refuse(zh.feishuCallback.notStartedHere);
    if (error || !code) {
      void reportSignInDenied(state, error ?? 'no_code');
      return refuse(zh.feishuCallback.denied);
    }
    larkLogin({ code, state })
      .then((result) => {
        queryClient.clear();
        saveLoginSession(result);
        toast.success(kind === SignInKind.bind ? zh.feishuCallback.bound : zh.login.success);
        void navigate(kind === SignInKind.bind ? RoutePath.app : takeRedirect(), { replace: true });
      })
      .catch((reason: unknown) => refuse(isApiError(reason) ? reason.message : zh.feishuCallback.failed));
  }, [params, navigate]);

  return (
    <StandalonePage>
      {outcome.kind === 'working' ? (
        <Result icon={<Spin size="large" />} title={outcome.text} data-testid="feishu-callback-working" />
      ) : (
        <Result
          status={outcome.kind === 'done' ? 'success' : 'warning'}
          title={outcome.kind === 'done' ? outcome.text : zh.feishuCallback.title}
          subTitle={outcome.kind === 'failed' ? outcome.text : undefined}
          data-testid={`feishu-callback-${outcome.kind}`}
          extra={
            outcome.kind === 'failed' ? (
              <Link to={RoutePath.login}>
                <Button type="primary">{zh.feishuCallback.backToLogin}</Button>
              </Link>
            ) : null
          }
        />
      )}
    </StandalonePage>
  );
}

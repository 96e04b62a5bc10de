import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SignInKind, type LoginOptions, type LoginResult } from '@release/contract';
import { larkLogin, reportSignInDenied, wecomLogin } from '../../api/sso.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { larkBridge, parseState, silentLarkCode, takeOwnState } from './lark-sign-in.ts';

/**
 * What /login does on its own: the WeCom SSO return (`?code&state=wecom_login.…`), and, with `auto_login`
 * inside the Lark client, a silent Lark login through the JS bridge. `busy` while either is under way.
 */
export function useExternalSignIn(
  options: LoginOptions | undefined,
  onLogin: (result: LoginResult) => void,
): { busy: boolean } {
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error');
  const autoLogin = params.get('auto_login') === '1';

  useEffect(() => {
    if (started.current || !options) return;
    const wecomReturn = state !== null && parseState(state).kind === SignInKind.wecom;
    if (wecomReturn) {
      started.current = true;
      // The code is spent whatever happens: never leave it in the address bar.
      setParams({}, { replace: true });
      if (!takeOwnState(state)) {
        toast.error(zh.feishuCallback.notStartedHere);
        return;
      }
      if (error || !code) {
        void reportSignInDenied(state, error ?? 'no_code');
        toast.error(zh.feishuCallback.denied);
        return;
      }
      setBusy(true);
      wecomLogin({ code, state })
        .then(onLogin)
        .catch(() => undefined)
        .finally(() => setBusy(false));
      return;
    }
    if (autoLogin && options.larkAppId && larkBridge()) {
      started.current = true;
      setBusy(true);
      silentLarkCode(options.larkAppId)
        .then((silentCode) => (silentCode ? larkLogin({ code: silentCode }).then(onLogin) : undefined))
        .catch(() => undefined)
        .finally(() => setBusy(false));
    }
  }, [options, code, state, error, autoLogin, onLogin, setParams]);

  return { busy };
}

import type { LarkFake, WecomFake } from '@release/fakes';

/** The server's env for a Lark app living on the loopback fake (every Lark host is the fake). */
export function larkEnv(lark: LarkFake): Record<string, string> {
  return {
    LARK_APP_ID: lark.app.appId,
    LARK_APP_SECRET: lark.app.appSecret,
    LARK_OPEN_BASE_URL: lark.url,
    LARK_ACCOUNTS_BASE_URL: lark.url,
    LARK_PASSPORT_BASE_URL: lark.url,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

/** The server's env for a WeCom corp app living on the loopback fake. */
export function wecomEnv(wecom: WecomFake): Record<string, string> {
  return {
    WECOM_BASE_URL: wecom.url,
    WECOM_LOGIN_BASE_URL: wecom.url,
    WECOM_CORP_ID: wecom.corp.corpId,
    WECOM_AGENT_ID: wecom.corp.agentId,
    WECOM_SECRET: wecom.corp.secret,
  };
}

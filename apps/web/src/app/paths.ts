import { RoutePath } from '@release/contract';

/** Each user's own API tokens: under /home, not under setting, since it is not admin-only. */
export const TOKENS_PATH = `${RoutePath.home}/tokens`;

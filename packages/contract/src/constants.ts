/** Business constants of SPEC §9, shared by server and web. */
export const ADMIN_ROLE_LEVEL = 100;
export const SESSION_LIFETIME_MS = 604_800_000; // 7 days
export const REDIRECT_TO_LOGIN_DELAY_MS = 200;
export const EXPIRED_LOGOUT_DELAY_MS = 1000;
export const TOAST_DEBOUNCE_MS = 3000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
export const APP_LIST_PAGE = { pageNo: 1, pageSize: 1000 } as const;
export const CATEGORY_PAGE_SIZE = 1000;
export const NOTIFICATION_LIST_SIZE = 100;
export const ROLE_LIST_PAGE = { pageNo: 1, pageSize: 10 } as const;
export const TABLE_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_TABLE_PAGE_SIZE = 20;
export const BADGE_OVERFLOW = 999;
export const SIDER_WIDTH = 260;
export const SIDER_COLLAPSED_WIDTH = 51;
export const MOBILE_BREAKPOINT_PX = 768;
/** Wrong passwords allowed per user and per IP inside the window before login is refused. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const PHONE_CODE_LIFETIME_MS = 5 * 60 * 1000;
export const PHONE_CODE_RESEND_MS = 60 * 1000;
/** Upper bound for free-text names (usernames, role and category names). */
export const NAME_MAX_LENGTH = 64;
export const UNCATEGORISED_NAME = '未分类';
export const UNCATEGORISED_ID = 0;

/** SPEC §9 sizes of the app page and the app settings modal. */
export const APP_ICON_SIZE = 80;
export const APP_QR_SIZE = 125;
export const APP_QR_LEVEL = 'H';
export const APP_SETTINGS_MODAL_WIDTH = 800;
export const DESCRIPTION_AUTOSIZE = { minRows: 2, maxRows: 10 } as const;
/** SPEC §5: icons are jpeg or png only. */
export const ICON_MIME_TYPES: readonly string[] = ['image/jpeg', 'image/png'];

/** SPEC §9: the install download address is /package/<path> on the current origin. */
export function packageUrlPrefix(origin: string = window.location.origin): string {
  return `${origin}/package/`;
}

/** /trend/{user}: a member's commit trend (SPEC §2). */
export function trendPath(username: string): string {
  return `/trend/${encodeURIComponent(username)}`;
}

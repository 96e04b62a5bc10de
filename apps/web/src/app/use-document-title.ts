import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { zh } from '../locales/zh-CN.ts';

/** Browser tab titles of the console: `<what> - 发布系统`; just 发布系统 without a `what`. */
export function useDocumentTitle(what: string | null | undefined): void {
  useEffect(() => {
    document.title = what ? `${what} - ${zh.appTitle}` : zh.appTitle;
  }, [what]);
}

/**
 * The section a console path belongs to, for its tab title; undefined where the page names itself (an app's page
 * says the app's name, and the layout's effect, which runs after the page's, must not write over it).
 */
export function sectionTitle(pathname: string): string | null | undefined {
  if (/^\/home\/app\/[^/]+/.test(pathname)) return undefined;
  if (pathname.startsWith('/home/app')) return zh.menu.app;
  if (pathname.startsWith('/home/wiki')) return zh.menu.wiki;
  if (pathname.startsWith('/home/setting')) return zh.menu.setting;
  return null;
}

/** In the layout: every console page at least says its section (an app page then names its app). */
export function useSectionTitle(): void {
  const { pathname } = useLocation();
  const section = sectionTitle(pathname);
  useEffect(() => {
    if (section !== undefined) document.title = section ? `${section} - ${zh.appTitle}` : zh.appTitle;
  }, [section]);
}

import { useEffect } from 'react';

/**
 * /package/:path (and /ios, /android) reached by the console's own navigation: the page is another entry
 * (install.html, served by the server for these routes), so the browser loads it for real.
 */
export function InstallPageRedirect() {
  useEffect(() => {
    window.location.reload();
  }, []);
  return null;
}

/** @jsxImportSource preact */
import { render } from 'preact';
import { readBoot } from './boot.ts';
import { InstallApp } from './install-app.tsx';
import './install.css';

/**
 * The install page's own entry (install.html): Preact and a few kilobytes of CSS instead of the console's React and
 * antd, so a tester's phone on a slow link shows the password box in about a second (docs/decisions.md).
 */
const [, , path = ''] = window.location.pathname.split('/');
const params = new URLSearchParams(window.location.search);
const versionId = Number(params.get('id') ?? params.get('packId')) || undefined;
const root = document.getElementById('root');
// /device-enroll/result (ENROLL_RESULT_ROUTE on the server) is the same entry, as the phone comes from an install page;
// its code loads apart, so the password page's first paint carries none of it.
if (root && window.location.pathname === '/device-enroll/result') {
  void import('./enroll-result.tsx').then(({ EnrollResult }) =>
    render(<EnrollResult id={params.get('id') ?? ''} sig={params.get('sig') ?? ''} />, root),
  );
} else if (root) render(<InstallApp path={decodeURIComponent(path)} versionId={versionId} boot={readBoot()} />, root);

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
if (root) render(<InstallApp path={decodeURIComponent(path)} versionId={versionId} boot={readBoot()} />, root);

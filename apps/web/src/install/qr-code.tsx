/** @jsxImportSource preact */
import { encode } from 'uqr';
import { isLoopbackUrl, loopbackQrText } from '../app/loopback-url.ts';
import { isSignedInAdmin } from './install.api.ts';

/** SPEC §9: QR codes are 125 px at error correction level H. */
const QR_SIZE = 125;

/** The QR code as one SVG path (dark modules), with a one-module quiet zone. */
export function QrSvg({ value, size = QR_SIZE }: { value: string; size?: number }) {
  const { data, size: modules } = encode(value, { ecc: 'H', border: 1 });
  let d = '';
  for (const [y, row] of data.entries()) for (const [x, dark] of row.entries()) if (dark) d += `M${x} ${y}h1v1h-1z`;
  return (
    <svg
      class="i-qr-svg"
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shape-rendering="crispEdges"
      role="img"
      aria-label="二维码"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

/** Beside a QR code whose link only this computer can open (no PUBLIC_URL, page opened as localhost). */
export function LoopbackQrWarning({ url }: { url: string }) {
  if (!isLoopbackUrl(url)) return null;
  return (
    <div class="i-alert i-alert-warning i-qr-warning" data-testid="qr-loopback-warning">
      <div class="i-alert-body">
        <div class="i-alert-title">{loopbackQrText.title}</div>
        <div class="i-alert-text">
          {loopbackQrText.description}
          {isSignedInAdmin() && (
            <>
              {' '}
              <a href="/home/setting/system" data-testid="qr-loopback-check">
                {loopbackQrText.check}
              </a>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

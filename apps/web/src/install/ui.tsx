/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** The id of the page's QR code card (查看二维码 scrolls to it). */
export const INSTALL_QR_ID = 'install-qr';

/** A few 16 px line icons (currentColor), instead of an icon library. */
const ICONS = {
  lock: 'M5 7V5a3 3 0 0 1 6 0v2h1v7H4V7zm2 0h2V5a1 1 0 0 0-2 0z',
  download: 'M7 2h2v6.6l2.3-2.3 1.4 1.4L8 12.4 3.3 7.7l1.4-1.4L7 8.6zM3 13h10v2H3z',
  apple:
    'M11.2 8.5c0-1.6 1.3-2.3 1.4-2.4-.8-1.1-1.9-1.3-2.3-1.3-1-.1-1.9.6-2.4.6s-1.3-.6-2.1-.6C4.7 4.8 3.7 5.4 3.2 6.4c-1.1 1.9-.3 4.7.8 6.2.5.8 1.1 1.6 1.9 1.6s1-.5 2-.5 1.2.5 2 .5 1.3-.8 1.8-1.5c.6-.8.8-1.6.8-1.7 0 0-1.3-.5-1.3-2.5zM9.7 3.6c.4-.5.7-1.2.6-1.9-.6 0-1.3.4-1.8.9-.4.4-.7 1.1-.6 1.8.7.1 1.4-.3 1.8-.8z',
  android:
    'M4 6h8v5.5a1 1 0 0 1-1 1h-.5V15H9v-2.5H7V15H5.5v-2.5H5a1 1 0 0 1-1-1zm.2-1a3.9 3.9 0 0 1 7.6 0zM6 3.2l-.9-1.4.4-.3.9 1.4zm4 0 .9-1.4-.4-.3-.9 1.4zM2 6.5a.8.8 0 0 1 1.5 0v3a.8.8 0 0 1-1.5 0zm10.5 0a.8.8 0 0 1 1.5 0v3a.8.8 0 0 1-1.5 0z',
  globe:
    'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1zm4.9 6h-2a11 11 0 0 0-.8-3.9A5 5 0 0 1 12.9 7zM8 3c.5.6 1.2 2 1.3 4H6.7C6.8 5 7.5 3.6 8 3zM5.9 3.1A11 11 0 0 0 5.1 7h-2a5 5 0 0 1 2.8-3.9zM3.1 9h2a11 11 0 0 0 .8 3.9A5 5 0 0 1 3.1 9zM8 13c-.5-.6-1.2-2-1.3-4h2.6c-.1 2-.8 3.4-1.3 4zm2.1-.1a11 11 0 0 0 .8-3.9h2a5 5 0 0 1-2.8 3.9z',
  qr: 'M2 2h5v5H2zm1.5 1.5v2h2v-2zM9 2h5v5H9zm1.5 1.5v2h2v-2zM2 9h5v5H2zm1.5 1.5v2h2v-2zM9 9h2v2H9zm3 0h2v2h-2zm-3 3h2v2H9zm3 0h2v2h-2z',
  mobile: 'M4.5 1h7a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1zm.5 2v9h6V3zm2.2 10v1h1.6v-1z',
  clip: 'M10.5 3.5 5 9a1.4 1.4 0 0 0 2 2l5-5a2.8 2.8 0 0 0-4-4L3 7a4.2 4.2 0 0 0 6 6l4-4-1-1-4 4a2.8 2.8 0 0 1-4-4l5-5a1.4 1.4 0 0 1 2 2l-5 5-1-1 5-5z',
  info: 'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1zm-.8 3h1.6v1.6H7.2zm0 3h1.6v5H7.2z',
  warning: 'M8 1.5 15 14H1zm-.8 4v4h1.6v-4zm0 5v1.6h1.6v-1.6z',
  link: 'M6.5 9.5 9.5 6.5M7 4.5l1.3-1.3a2.5 2.5 0 0 1 3.5 3.5L10.5 8M9 11.5l-1.3 1.3a2.5 2.5 0 0 1-3.5-3.5L5.5 8',
} as const;

export type IconName = keyof typeof ICONS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  const stroke = name === 'link';
  return (
    <svg
      class="i-icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      aria-hidden="true"
      fill={stroke ? 'none' : 'currentColor'}
      stroke={stroke ? 'currentColor' : undefined}
      stroke-width={stroke ? 1.6 : undefined}
    >
      <path d={ICONS[name]} />
    </svg>
  );
}

export function Alert(props: {
  type: 'info' | 'warning' | 'error' | 'success';
  title: ComponentChildren;
  children?: ComponentChildren;
  icon?: IconName;
  testId?: string;
  class?: string;
}) {
  return (
    <div
      class={`i-alert i-alert-${props.type}${props.class ? ` ${props.class}` : ''}`}
      role={props.type === 'error' ? 'alert' : undefined}
      data-testid={props.testId}
    >
      <span class="i-alert-icon">
        <Icon name={props.icon ?? (props.type === 'info' ? 'info' : 'warning')} />
      </span>
      <div class="i-alert-body">
        <div class="i-alert-title">{props.title}</div>
        {props.children !== undefined && props.children !== null && props.children !== false && (
          <div class="i-alert-text">{props.children}</div>
        )}
      </div>
    </div>
  );
}

type Look = 'primary' | 'default' | 'link';

/** A link that looks like a button (every install action is a link: itms-services, a file, a page). */
export function ActionLink(props: {
  look?: Look;
  large?: boolean;
  block?: boolean;
  icon?: IconName;
  href: string;
  download?: string;
  newTab?: boolean;
  disabled?: boolean;
  testId?: string;
  children: ComponentChildren;
}) {
  const classes = [
    'i-btn',
    `i-btn-${props.look ?? 'default'}`,
    props.large ? 'i-btn-large' : '',
    props.block ? 'i-btn-block' : '',
    props.disabled ? 'i-btn-disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <a
      class={classes}
      href={props.disabled ? undefined : props.href}
      download={props.download}
      target={props.newTab ? '_blank' : undefined}
      rel={props.newTab ? 'noreferrer' : undefined}
      aria-disabled={props.disabled ? 'true' : undefined}
      data-testid={props.testId}
    >
      {props.icon && <Icon name={props.icon} />}
      <span>{props.children}</span>
    </a>
  );
}

export function Button(props: {
  look?: Look;
  large?: boolean;
  block?: boolean;
  icon?: IconName;
  type?: 'button' | 'submit';
  busy?: boolean;
  onClick?: () => void;
  testId?: string;
  class?: string;
  children: ComponentChildren;
}) {
  const classes = [
    'i-btn',
    `i-btn-${props.look ?? 'default'}`,
    props.large ? 'i-btn-large' : '',
    props.block ? 'i-btn-block' : '',
    props.class ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={props.type ?? 'button'}
      class={classes}
      disabled={props.busy}
      aria-busy={props.busy ? 'true' : undefined}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {props.busy ? <span class="i-spin" aria-hidden="true" /> : props.icon && <Icon name={props.icon} />}
      <span>{props.children}</span>
    </button>
  );
}

export function Spinner() {
  return (
    <div class="i-loading" role="status" aria-label="加载中">
      <span class="i-spin i-spin-large" />
    </div>
  );
}

/** Text that keeps its line breaks, cut to 2 or 6 lines with 展开/收起 when it is longer. */
export function Clamp({ text, rows, testId }: { text: string; rows: 2 | 3 | 6; testId?: string }) {
  const [open, setOpen] = useState(false);
  const long = text.split('\n').length > rows || text.length > rows * 36;
  return (
    <div class="i-note-wrap">
      <p class={long && !open ? `i-note i-clamp-${rows}` : 'i-note'} data-testid={testId}>
        {text}
      </p>
      {long && (
        <button type="button" class="i-text-btn" onClick={() => setOpen(!open)}>
          {open ? '收起' : '展开'}
        </button>
      )}
    </div>
  );
}

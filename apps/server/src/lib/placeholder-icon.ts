const COLOURS = ['#1677ff', '#13c2c2', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#2f54eb', '#faad14'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A 256 px PNG icon for packages whose own icon cannot be read (e.g. kept only in Assets.car):
 * the first character of the name on a colour chosen by the name, so each app keeps its look.
 */
export async function placeholderIcon(name: string): Promise<Buffer> {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const colour = COLOURS[hash % COLOURS.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
  <rect width="256" height="256" rx="56" fill="${colour}"/>
  <text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="Noto Sans CJK SC, Noto Sans, sans-serif" font-size="128" font-weight="600" fill="#fff">${escapeXml(letter)}</text>
</svg>`;
  // sharp's native library (~23 MiB resident) is loaded on the first placeholder, not at server start.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** What a User-Agent says about the device: its family, model (when the browser tells it) and OS version. */
export interface AgentDevice {
  family: 'iPhone' | 'iPad' | 'Android' | 'HarmonyOS' | 'Mac' | 'Windows' | 'Linux' | '其他';
  model: string | null;
  os: string | null;
}

const MAX_AGENT = 512;
const clean = (text: string | undefined) => text?.replace(/_/g, '.').trim().slice(0, 32) || null;

/**
 * A bounded read of a User-Agent (the first 512 characters). The iOS installer's own requests
 * (`… iOS/17.2 model/iPhone15,2 …`) are read too. An iPad in desktop mode reports a Mac: the page's own client hints
 * correct that where it matters (feedback sends what the browser says).
 */
export function deviceOfAgent(agent: string | undefined): AgentDevice {
  const ua = (agent ?? '').slice(0, MAX_AGENT);
  const installer = /\biOS\/([\d.]+).*?\bmodel\/([\w,]+)/.exec(ua);
  if (installer) {
    const model = installer[2] ?? '';
    return { family: model.startsWith('iPad') ? 'iPad' : 'iPhone', model, os: `iOS ${installer[1]}` };
  }
  const ios = /\b(iPhone|iPad|iPod)\b.*?\bOS ([\d_]+)/.exec(ua);
  if (ios)
    return { family: ios[1] === 'iPad' ? 'iPad' : 'iPhone', model: ios[1] ?? null, os: `iOS ${clean(ios[2]) ?? ''}` };
  const harmony = /\bOpenHarmony ([\d.]+)|\bHarmonyOS(?:; | )?([\d.]+)?/.exec(ua);
  if (harmony) return { family: 'HarmonyOS', model: null, os: `HarmonyOS ${harmony[1] ?? harmony[2] ?? ''}`.trim() };
  const android = /\bAndroid ([\d.]+)(?:;[^;)]*?;?\s*([^;)]+?)(?: Build\/[^;)]*)?\))?/.exec(ua);
  if (android) {
    const model = android[2] && !/^(wv|K|Linux|U)$/.test(android[2].trim()) ? clean(android[2]) : null;
    return { family: 'Android', model, os: `Android ${clean(android[1]) ?? ''}` };
  }
  const mac = /\bMac OS X ([\d_.]+)/.exec(ua);
  if (mac) return { family: 'Mac', model: null, os: `macOS ${clean(mac[1]) ?? ''}` };
  const windows = /\bWindows NT ([\d.]+)/.exec(ua);
  if (windows) return { family: 'Windows', model: null, os: `Windows NT ${windows[1]}` };
  if (/\bLinux\b/.test(ua)) return { family: 'Linux', model: null, os: 'Linux' };
  return { family: '其他', model: null, os: null };
}

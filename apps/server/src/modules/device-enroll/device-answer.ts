import { cmsCertificates, cmsSignedContent } from '@release/inspect/der.ts';
import { parsePlistDict, plistText } from '@release/inspect/plist.ts';

/** What a device sends back to the Profile Service URL. */
export interface DeviceAnswer {
  udid: string;
  challenge: string | null;
  product: string | null;
  version: string | null;
  serial: string | null;
}

const cut = (value: string | null) => (value ? value.slice(0, 64) : null);

/**
 * Reads the device's answer: a DER CMS SignedData whose content is an XML plist of the requested
 * attributes, signed by the device identity from Apple's device CA. Like Zealot we read the content
 * without checking that chain (the one-time challenge is what ties the answer to a registration), but
 * we insist on a signer certificate being present. Null when the body is not such a message or has no UDID.
 */
export function readDeviceAnswer(body: Buffer): DeviceAnswer | null {
  let content: Buffer | null;
  try {
    content = cmsSignedContent(body);
    if (content && cmsCertificates(body).signers.length === 0) return null;
  } catch {
    return null;
  }
  const dict = content ? parsePlistDict(content) : null;
  const udid = dict ? plistText(dict, 'UDID') : null;
  if (!dict || !udid) return null;
  return {
    udid,
    challenge: plistText(dict, 'CHALLENGE'),
    product: cut(plistText(dict, 'PRODUCT')),
    version: cut(plistText(dict, 'VERSION')),
    serial: cut(plistText(dict, 'SERIAL')),
  };
}

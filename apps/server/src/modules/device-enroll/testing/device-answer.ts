import { build as buildPlist } from 'plist';
import { makeIdentity, signCms, type TestIdentity } from '@release/inspect/testing/signing.ts';

export interface FakeDeviceAnswer {
  udid: string;
  challenge?: string;
  product?: string;
  version?: string;
  serial?: string;
}

let deviceIdentity: TestIdentity | null = null;

/** What an iPhone POSTs to a Profile Service URL: the attributes as an XML plist in CMS SignedData, signed by a throwaway device identity. */
export function fakeDeviceAnswer(answer: FakeDeviceAnswer): Buffer {
  deviceIdentity ??= makeIdentity('Fake iPhone Device Identity', '0d');
  const dict: Record<string, string> = {
    UDID: answer.udid,
    PRODUCT: answer.product ?? 'iPhone14,2',
    VERSION: answer.version ?? '21A329',
    SERIAL: answer.serial ?? 'F2LXK0AAAAAA',
  };
  if (answer.challenge !== undefined) dict.CHALLENGE = answer.challenge;
  return signCms(Buffer.from(buildPlist(dict), 'utf8'), deviceIdentity);
}

/** The challenge inside a served `.mobileconfig` (unsigned XML). */
export function challengeOf(mobileconfig: string): string {
  const match = /<key>Challenge<\/key>\s*<string>([^<]+)<\/string>/.exec(mobileconfig);
  if (!match?.[1]) throw new Error('no Challenge in the profile');
  return match[1];
}

/** The callback URL inside a served `.mobileconfig` (unsigned XML), where the device posts its answer. */
export function callbackUrlOf(mobileconfig: string): string {
  const match = /<key>URL<\/key>\s*<string>([^<]+)<\/string>/.exec(mobileconfig);
  if (!match?.[1]) throw new Error('no URL in the profile');
  return match[1].replaceAll('&amp;', '&');
}

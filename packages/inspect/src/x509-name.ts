import { child, parseAsn1, type Asn1Node } from './der.ts';

const ATTRIBUTE_NAMES: Record<string, string> = {
  '550403': 'CN',
  '55040b': 'OU',
  '55040a': 'O',
  '550406': 'C',
  '550407': 'L',
  '550408': 'ST',
  '0992268993f22c640101': 'UID',
};

function decodeValue(bytes: Uint8Array, node: Asn1Node): string {
  const content = Buffer.from(bytes.subarray(node.contentStart, node.contentEnd));
  switch (node.tag) {
    case 0x0c: // UTF8String
      return content.toString('utf8');
    case 0x1e: // BMPString, UTF-16BE
      return new TextDecoder('utf-16be').decode(content);
    case 0x1c: // UniversalString, UTF-32BE
      return String.fromCodePoint(...Array.from({ length: content.length / 4 }, (_, i) => content.readUInt32BE(i * 4)));
    default: // PrintableString, IA5String, TeletexString
      return content.toString('latin1');
  }
}

/**
 * The subject of a certificate as attribute → value, decoded from the DER (UTF8String, BMPString...).
 * Node's `X509Certificate.subject` shows UTF-8 names as Latin-1 mojibake, and Apple certificates of
 * Chinese developers carry Chinese names. Null when the bytes are not a certificate.
 */
export function certificateSubject(der: Uint8Array): Record<string, string> | null {
  try {
    const tbs = child(parseAsn1(der), 0);
    const offset = child(tbs, 0)?.tag === 0xa0 ? 1 : 0;
    const name = child(tbs, offset + 4);
    if (name?.tag !== 0x30) return null;
    const fields: Record<string, string> = {};
    for (const rdn of name.children) {
      for (const attribute of rdn.children) {
        const oid = child(attribute, 0);
        const value = child(attribute, 1);
        if (!oid || !value) continue;
        const key = ATTRIBUTE_NAMES[Buffer.from(der.subarray(oid.contentStart, oid.contentEnd)).toString('hex')];
        if (key && !(key in fields)) fields[key] = decodeValue(der, value);
      }
    }
    return fields;
  } catch {
    return null;
  }
}

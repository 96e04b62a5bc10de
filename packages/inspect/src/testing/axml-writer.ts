import { chunk, resValue, StringTable, stringPool } from './res-writer.ts';

/** Writes Android binary XML (what aapt puts in an APK) from a small element description. */
const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

export type AxmlValue = string | { int: number } | { ref: number } | { bool: boolean } | { color: number };

export interface AxmlAttribute {
  name: string;
  /** android:* attributes carry the android.R.attr id in the resource map. */
  androidId?: number;
  value: AxmlValue;
}

export interface AxmlElement {
  name: string;
  attributes?: AxmlAttribute[];
  children?: AxmlElement[];
}

const NO_INDEX = 0xffffffff;

function typed(value: AxmlValue, strings: StringTable): { raw: number; type: number; data: number } {
  if (typeof value === 'string') {
    const index = strings.index(value);
    return { raw: index, type: 0x03, data: index };
  }
  if ('int' in value) return { raw: NO_INDEX, type: 0x10, data: value.int };
  if ('ref' in value) return { raw: NO_INDEX, type: 0x01, data: value.ref };
  if ('bool' in value) return { raw: NO_INDEX, type: 0x12, data: value.bool ? 0xffffffff : 0 };
  return { raw: NO_INDEX, type: 0x1c, data: value.color };
}

function nodeHeader(): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(1, 0); // line number
  header.writeUInt32LE(NO_INDEX, 4); // comment
  return header;
}

export function buildAxml(root: AxmlElement, options: { utf8?: boolean } = {}): Buffer {
  const strings = new StringTable();
  // Attribute names that have resource ids must come first: the resource map is indexed like the pool.
  const androidNames: [string, number][] = [];
  const collect = (element: AxmlElement) => {
    for (const attribute of element.attributes ?? []) {
      if (attribute.androidId !== undefined && !androidNames.some(([name]) => name === attribute.name)) {
        androidNames.push([attribute.name, attribute.androidId]);
      }
    }
    element.children?.forEach(collect);
  };
  collect(root);
  for (const [name] of androidNames) strings.index(name);
  const nsIndex = strings.index(ANDROID_NS);
  const prefixIndex = strings.index('android');
  const body: Buffer[] = [];
  const namespaceExt = Buffer.alloc(8);
  namespaceExt.writeUInt32LE(prefixIndex, 0);
  namespaceExt.writeUInt32LE(nsIndex, 4);
  body.push(chunk(0x0100, Buffer.concat([nodeHeader()]), namespaceExt));
  const write = (element: AxmlElement) => {
    const attributes = element.attributes ?? [];
    const ext = Buffer.alloc(20);
    ext.writeUInt32LE(NO_INDEX, 0);
    ext.writeUInt32LE(strings.index(element.name), 4);
    ext.writeUInt16LE(20, 8);
    ext.writeUInt16LE(20, 10);
    ext.writeUInt16LE(attributes.length, 12);
    const attributeBytes = attributes.map((attribute) => {
      const bytes = Buffer.alloc(12);
      const value = typed(attribute.value, strings);
      bytes.writeUInt32LE(attribute.androidId !== undefined ? nsIndex : NO_INDEX, 0);
      bytes.writeUInt32LE(strings.index(attribute.name), 4);
      bytes.writeUInt32LE(value.raw >>> 0, 8);
      return Buffer.concat([bytes, resValue(value.type, value.data)]);
    });
    body.push(chunk(0x0102, nodeHeader(), Buffer.concat([ext, ...attributeBytes])));
    element.children?.forEach(write);
    const endExt = Buffer.alloc(8);
    endExt.writeUInt32LE(NO_INDEX, 0);
    endExt.writeUInt32LE(strings.index(element.name), 4);
    body.push(chunk(0x0103, nodeHeader(), endExt));
  };
  write(root);
  body.push(chunk(0x0101, nodeHeader(), namespaceExt));
  const resourceMap = Buffer.alloc(androidNames.length * 4);
  for (const [index, [, id]] of androidNames.entries()) resourceMap.writeUInt32LE(id, index * 4);
  const content = Buffer.concat([
    stringPool(strings.strings, options.utf8 ?? false),
    chunk(0x0180, Buffer.alloc(0), resourceMap),
    ...body,
  ]);
  return chunk(0x0003, Buffer.alloc(0), content);
}

import {
  ChunkType,
  readChunkHeader,
  ResourceFormatError,
  StringPool,
  ValueType,
  type TypedValue,
} from './res-string-pool.ts';

/** An attribute of a compiled XML element; `resourceId` identifies `android:` attributes even when names are stripped. */
export interface XmlAttribute {
  namespace: string | null;
  name: string;
  resourceId: number | null;
  /** The original string as written, when aapt kept it (versionName, package...). */
  raw: string | null;
  value: TypedValue;
}

export interface XmlElement {
  name: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
}

/** Limits of one document (docs/parsers.md). An attribute record is 20 bytes, so it cannot overlap the next. */
export const AXML_LIMITS = { maxElements: 200_000, maxDepth: 256, maxAttributes: 1_000_000 } as const;
const ATTRIBUTE_BYTES = 20;

/** Parses Android binary XML (AndroidManifest.xml, res/*.xml) into an element tree. Throws ResourceFormatError. */
export function parseBinaryXml(bytes: Buffer): XmlElement {
  const root = readChunkHeader(bytes, 0);
  if (root.type !== ChunkType.xml) throw new ResourceFormatError('not binary XML');
  let strings: StringPool | null = null;
  let resourceIds: number[] = [];
  const stack: XmlElement[] = [];
  let document: XmlElement | null = null;
  let elements = 0;
  const attributes = { left: AXML_LIMITS.maxAttributes };
  let at = root.headerSize;
  while (at + 8 <= root.size) {
    const chunk = readChunkHeader(bytes, at, root.size);
    if (chunk.type === ChunkType.stringPool) {
      strings = new StringPool(bytes, chunk);
    } else if (chunk.type === ChunkType.xmlResourceMap) {
      resourceIds = [];
      for (let i = chunk.start + chunk.headerSize; i + 4 <= chunk.start + chunk.size; i += 4)
        resourceIds.push(bytes.readUInt32LE(i));
    } else if (chunk.type === ChunkType.xmlStartElement) {
      if (!strings) throw new ResourceFormatError('element before string pool');
      if (++elements > AXML_LIMITS.maxElements || stack.length >= AXML_LIMITS.maxDepth)
        throw new ResourceFormatError('document too large');
      const element = readStartElement(
        bytes,
        chunk.start + chunk.headerSize,
        chunk.start + chunk.size,
        strings,
        resourceIds,
        attributes,
      );
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else document ??= element;
      stack.push(element);
    } else if (chunk.type === ChunkType.xmlEndElement) {
      stack.pop();
    }
    at += chunk.size;
  }
  if (!document) throw new ResourceFormatError('no root element');
  return document;
}

function readStartElement(
  bytes: Buffer,
  ext: number,
  end: number,
  strings: StringPool,
  resourceIds: number[],
  budget: { left: number },
): XmlElement {
  if (ext + 20 > end) throw new ResourceFormatError('truncated element');
  const name = strings.get(bytes.readUInt32LE(ext + 4)) ?? '';
  const attributeStart = bytes.readUInt16LE(ext + 8);
  const attributeSize = bytes.readUInt16LE(ext + 10) || ATTRIBUTE_BYTES;
  const attributeCount = bytes.readUInt16LE(ext + 12);
  // A smaller stride would let 65,535 attributes share a few bytes (one object per byte of the file).
  if (attributeSize < ATTRIBUTE_BYTES) throw new ResourceFormatError('bad attribute size');
  budget.left -= attributeCount;
  if (budget.left < 0) throw new ResourceFormatError('too many attributes');
  const attributes: XmlAttribute[] = [];
  for (let i = 0; i < attributeCount; i += 1) {
    const at = ext + attributeStart + i * attributeSize;
    if (at + 20 > end) throw new ResourceFormatError('truncated attribute');
    const nameIndex = bytes.readUInt32LE(at + 4);
    const rawIndex = bytes.readUInt32LE(at + 8);
    const type = bytes[at + 15] as number;
    const data = bytes.readUInt32LE(at + 16);
    attributes.push({
      namespace: strings.get(bytes.readUInt32LE(at)),
      name: strings.get(nameIndex) ?? '',
      resourceId: resourceIds[nameIndex] ?? null,
      raw: strings.get(rawIndex) ?? (type === ValueType.string ? strings.get(data) : null),
      value: { type, data },
    });
  }
  return { name, attributes, children: [] };
}

/** Well-known `android:` attribute resource ids (android.R.attr). */
export const AndroidAttr = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  value: 0x01010024,
  drawable: 0x01010199,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
  required: 0x0101028e,
  roundIcon: 0x0101052c,
  compileSdkVersion: 0x01010572,
} as const;

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

/** Finds an attribute by its android resource id, falling back to its name in the android namespace (or no namespace). */
export function findAttribute(element: XmlElement, name: string, resourceId?: number): XmlAttribute | undefined {
  if (resourceId !== undefined) {
    const byId = element.attributes.find((attribute) => attribute.resourceId === resourceId);
    if (byId) return byId;
  }
  return element.attributes.find(
    (attribute) =>
      attribute.name === name &&
      (resourceId === undefined ? !attribute.namespace : attribute.namespace === ANDROID_NS || !attribute.namespace),
  );
}

export function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((item) => item.name === name);
}

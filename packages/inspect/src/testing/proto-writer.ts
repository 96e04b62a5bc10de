/** Encodes the few aapt2 protobuf messages an .aab manifest needs (XmlNode, XmlElement, XmlAttribute, Item). */
function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** One protobuf field: a number as varint, text or bytes length-delimited. */
export function field(number: number, value: Buffer | string | number): Buffer {
  if (typeof value === 'number') return Buffer.concat([varint(number * 8), varint(value)]);
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint(number * 8 + 2), varint(bytes.length), bytes]);
}

export type ProtoAttributeValue = { text: string } | { int: number } | { ref: number };

export interface ProtoElement {
  name: string;
  attributes?: { name: string; resourceId?: number; value: ProtoAttributeValue }[];
  children?: ProtoElement[];
}

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

function item(value: ProtoAttributeValue): Buffer {
  if ('text' in value) return field(2, field(1, value.text));
  if ('ref' in value) return field(1, field(2, value.ref));
  return field(7, field(6, value.int));
}

function element(node: ProtoElement): Buffer {
  const attributes = (node.attributes ?? []).map((attribute) =>
    field(
      4,
      Buffer.concat([
        attribute.resourceId === undefined ? Buffer.alloc(0) : field(1, ANDROID_NS),
        field(2, attribute.name),
        'text' in attribute.value
          ? field(3, attribute.value.text)
          : 'int' in attribute.value
            ? field(3, String(attribute.value.int))
            : Buffer.alloc(0),
        attribute.resourceId === undefined ? Buffer.alloc(0) : field(5, attribute.resourceId),
        field(6, item(attribute.value)),
      ]),
    ),
  );
  const children = (node.children ?? []).map((child) => field(5, xmlNode(child)));
  return Buffer.concat([field(3, node.name), ...attributes, ...children]);
}

/** An aapt2 `XmlNode` holding `root`. */
export function xmlNode(root: ProtoElement): Buffer {
  return field(1, element(root));
}

import { nativeAbisOf } from './apk-inspector.ts';
import { readManifestModel, toManifestInfo } from './apk-manifest.ts';
import { readApkSignatures } from './apk-signature.ts';
import { RESOLVE_BUDGET, type ResourceCandidate, type ResourceConfig, type ResourceResolver } from './arsc.ts';
import type { XmlAttribute, XmlElement } from './axml.ts';
import { androidFacts } from './package-facts.ts';
import { inspectionFailure, PackageInspectionError } from './inspection-error.ts';
import {
  bytesField,
  messagesField,
  numberField,
  ProtobufError,
  readMessage,
  stringField,
  type ProtoField,
} from './protobuf.ts';
import { isReferenceType, ValueType, type TypedValue } from './res-string-pool.ts';
import type { AabInspection } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

export const AAB_MANIFEST = 'base/manifest/AndroidManifest.xml';
const AAB_RESOURCES = 'base/resources.pb';
const MAX_DEPTH = 64;

/** aapt2 `Primitive` oneof field → Res_value type. */
const primitiveTypes: Record<number, number> = {
  3: ValueType.float,
  6: ValueType.intDec,
  7: ValueType.intHex,
  8: ValueType.intBoolean,
  9: ValueType.colorArgb8,
  10: ValueType.colorRgb8,
  11: ValueType.colorArgb4,
  12: ValueType.colorRgb4,
  13: ValueType.dimension,
};

interface ProtoItem {
  value: TypedValue;
  text: string | null;
}

/** An aapt2 `Item` as a typed value; strings and file paths come back as text. */
function readItem(item: ProtoField[]): ProtoItem | null {
  const reference = messagesField(item, 1)[0];
  if (reference) {
    const isAttribute = numberField(reference, 1) === 1;
    return {
      value: { type: isAttribute ? ValueType.attribute : ValueType.reference, data: numberField(reference, 2) ?? 0 },
      text: null,
    };
  }
  for (const field of [2, 3, 4, 5]) {
    const message = messagesField(item, field)[0];
    if (message) return { value: { type: ValueType.string, data: 0 }, text: stringField(message, 1) ?? '' };
  }
  const primitive = messagesField(item, 7)[0]?.[0];
  const type = primitive ? primitiveTypes[primitive.field] : undefined;
  if (primitive && type !== undefined && typeof primitive.value === 'number') {
    return { value: { type, data: primitive.value >>> 0 }, text: null };
  }
  return null;
}

function readAttribute(fields: ProtoField[]): XmlAttribute {
  const compiled = bytesField(fields, 6);
  const item = compiled ? readItem(readMessage(compiled)) : null;
  const written = stringField(fields, 3);
  return {
    namespace: stringField(fields, 1) || null,
    name: stringField(fields, 2) ?? '',
    resourceId: numberField(fields, 5),
    raw: item && isReferenceType(item.value.type) ? null : (item?.text ?? written),
    value: item?.value ?? { type: ValueType.string, data: 0 },
  };
}

/** Converts an aapt2 protobuf `XmlNode` to the same element tree the binary XML parser gives. */
export function parseProtoXml(bytes: Buffer, depth = 0): XmlElement | null {
  if (depth > MAX_DEPTH) throw new ProtobufError('nesting too deep');
  const element = messagesField(readMessage(bytes), 1)[0];
  if (!element) return null;
  const children: XmlElement[] = [];
  for (const child of element) {
    if (child.field !== 5 || !Buffer.isBuffer(child.value)) continue;
    const parsed = parseProtoXml(child.value, depth + 1);
    if (parsed) children.push(parsed);
  }
  return { name: stringField(element, 3) ?? '', attributes: messagesField(element, 4).map(readAttribute), children };
}

function configOf(fields: ProtoField[] | undefined): ResourceConfig {
  const [language = '', ...rest] = (fields ? (stringField(fields, 3) ?? '') : '').split('-');
  const region = rest.find((part) => /^([A-Z]{2}|\d{3})$/.test(part)) ?? '';
  return {
    language,
    region,
    density: fields ? (numberField(fields, 18) ?? 0) : 0,
    sdkVersion: fields ? (numberField(fields, 24) ?? 0) : 0,
  };
}

/** The values of an AAB's `base/resources.pb`, indexed by resource id. */
export class ProtoResourceTable implements ResourceResolver {
  private readonly values = new Map<number, ResourceCandidate[]>();

  constructor(bytes: Buffer) {
    for (const pkg of messagesField(readMessage(bytes), 2)) {
      const packageId = numberField(messagesField(pkg, 1)[0] ?? [], 1) ?? 0x7f;
      for (const type of messagesField(pkg, 3)) {
        const typeId = numberField(messagesField(type, 1)[0] ?? [], 1) ?? 0;
        for (const entry of messagesField(type, 3)) {
          const entryId = numberField(messagesField(entry, 1)[0] ?? [], 1) ?? 0;
          const candidates = messagesField(entry, 6).flatMap((configValue) => {
            const itemBytes = bytesField(messagesField(configValue, 2)[0] ?? [], 4);
            const item = itemBytes ? readItem(readMessage(itemBytes)) : null;
            return item ? [{ config: configOf(messagesField(configValue, 1)[0]), ...item }] : [];
          });
          this.values.set(((packageId << 24) | (typeId << 16) | entryId) >>> 0, candidates);
        }
      }
    }
  }

  /** References followed ≤ 5 hops, at most RESOLVE_BUDGET candidates examined (as resources.arsc). */
  resolve(resourceId: number, hops = 5, budget = { left: RESOLVE_BUDGET }): ResourceCandidate[] {
    return (this.values.get(resourceId >>> 0) ?? []).flatMap((candidate) => {
      if (--budget.left < 0) return [];
      if (!isReferenceType(candidate.value.type)) return [candidate];
      if (hops === 0) return [];
      return this.resolve(candidate.value.data, hops - 1, budget).map((target) => ({
        ...target,
        config: candidate.config.language
          ? { ...target.config, language: candidate.config.language, region: candidate.config.region }
          : target.config,
      }));
    });
  }
}

async function readProtoTable(zip: ZipIndex, warnings: string[]): Promise<ProtoResourceTable | null> {
  if (!zip.entries.has(AAB_RESOURCES)) return null;
  try {
    return new ProtoResourceTable(await zip.readEntry(AAB_RESOURCES));
  } catch (error) {
    const isUnreadable =
      error instanceof ProtobufError || (error instanceof PackageInspectionError && error.reason === 'entryTooLarge');
    if (!isUnreadable) throw error;
    warnings.push('资源表 resources.pb 无法解析，应用名称可能无法显示');
    return null;
  }
}

/** Reads an .aab (Android App Bundle): protobuf manifest, labels from resources.pb, v1 signer. */
export async function inspectAab(zip: ZipIndex): Promise<AabInspection> {
  let manifest: XmlElement | null;
  try {
    manifest = parseProtoXml(await zip.readEntry(AAB_MANIFEST));
  } catch (error) {
    if (error instanceof ProtobufError)
      throw inspectionFailure('metadataUnreadable', 'AndroidManifest.xml 无法解析', error);
    throw error;
  }
  if (manifest?.name !== 'manifest') throw inspectionFailure('metadataUnreadable', 'AndroidManifest.xml 无法解析');
  const warnings: string[] = [];
  const info = toManifestInfo(readManifestModel(manifest), await readProtoTable(zip, warnings), warnings);
  const signatures = await readApkSignatures(zip);
  const inspection: AabInspection = {
    kind: 'aab',
    fileSize: zip.fileSize,
    warnings,
    ...info,
    nativeAbis: nativeAbisOf(zip.entries.keys(), 'base/lib/'),
    signatures,
  };
  inspection.facts = androidFacts(zip, inspection, 'base/');
  return inspection;
}

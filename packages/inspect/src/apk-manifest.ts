import { pickDefault, localeOf, type ResourceResolver } from './arsc.ts';
import { AndroidAttr, childElements, findAttribute, type XmlAttribute, type XmlElement } from './axml.ts';
import { inspectionFailure } from './inspection-error.ts';
import { isIntType, isReferenceType, ValueType } from './res-string-pool.ts';
import type { AndroidDeviceType, AndroidManifestInfo } from './types.ts';

/** The manifest model before resources are applied; shared by APK (binary XML) and AAB (protobuf XML). */
export interface ManifestModel {
  packageName: string | null;
  versionName: XmlAttribute | undefined;
  versionCode: number | null;
  minSdkVersion: number | null;
  targetSdkVersion: number | null;
  compileSdkVersion: number | null;
  label: XmlAttribute | undefined;
  iconResourceIds: number[];
  permissions: string[];
  features: string[];
  deviceType: AndroidDeviceType;
  /** `<application>`'s meta-data, name and literal value (null for a resource or non-string value). */
  metaData: Array<[string, string | null]>;
}

function intOf(attribute: XmlAttribute | undefined): number | null {
  if (!attribute) return null;
  if (isIntType(attribute.value.type)) return attribute.value.data >>> 0;
  const raw = attribute.raw?.trim();
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

function textOf(attribute: XmlAttribute | undefined): string | null {
  return attribute?.raw ?? null;
}

function referenceOf(attribute: XmlAttribute | undefined): number | null {
  return attribute && isReferenceType(attribute.value.type) && attribute.value.data !== 0 ? attribute.value.data : null;
}

function namesOf(elements: XmlElement[]): string[] {
  return elements.flatMap((element) => {
    const name = textOf(findAttribute(element, 'name', AndroidAttr.name));
    return name ? [name] : [];
  });
}

function deviceTypeOf(application: XmlElement | undefined, features: XmlElement[]): AndroidDeviceType {
  const required = (feature: XmlElement) => {
    const attribute = findAttribute(feature, 'required', AndroidAttr.required);
    return !attribute || attribute.value.type !== ValueType.intBoolean || attribute.value.data !== 0;
  };
  const hasFeature = (name: string, mustBeRequired: boolean) =>
    features.some(
      (feature) =>
        textOf(findAttribute(feature, 'name', AndroidAttr.name)) === name && (!mustBeRequired || required(feature)),
    );
  if (hasFeature('android.hardware.type.watch', false)) return 'wear';
  if (hasFeature('android.hardware.type.automotive', false)) return 'automotive';
  const categories = (application?.children ?? [])
    .flatMap((component) => childElements(component, 'intent-filter'))
    .flatMap((filter) => namesOf(childElements(filter, 'category')));
  const isLeanbackOnly =
    categories.includes('android.intent.category.LEANBACK_LAUNCHER') &&
    !categories.includes('android.intent.category.LAUNCHER');
  if (hasFeature('android.software.leanback', true) || isLeanbackOnly) return 'tv';
  return 'phone';
}

/** Reads the fields we show from a parsed `<manifest>` element. */
export function readManifestModel(manifest: XmlElement): ManifestModel {
  const usesSdk = childElements(manifest, 'uses-sdk')[0];
  const application = childElements(manifest, 'application')[0];
  const features = childElements(manifest, 'uses-feature');
  const iconResourceIds = application
    ? [
        referenceOf(findAttribute(application, 'icon', AndroidAttr.icon)),
        referenceOf(findAttribute(application, 'roundIcon', AndroidAttr.roundIcon)),
      ]
    : [];
  return {
    packageName: textOf(findAttribute(manifest, 'package'))?.trim() || null,
    versionName: findAttribute(manifest, 'versionName', AndroidAttr.versionName),
    versionCode: intOf(findAttribute(manifest, 'versionCode', AndroidAttr.versionCode)),
    minSdkVersion: usesSdk ? intOf(findAttribute(usesSdk, 'minSdkVersion', AndroidAttr.minSdkVersion)) : null,
    targetSdkVersion: usesSdk ? intOf(findAttribute(usesSdk, 'targetSdkVersion', AndroidAttr.targetSdkVersion)) : null,
    compileSdkVersion:
      intOf(findAttribute(manifest, 'compileSdkVersion', AndroidAttr.compileSdkVersion)) ??
      intOf(findAttribute(manifest, 'platformBuildVersionCode')),
    label: application ? findAttribute(application, 'label', AndroidAttr.label) : undefined,
    iconResourceIds: iconResourceIds.filter((id): id is number => id !== null),
    permissions: [
      ...new Set(
        namesOf([...childElements(manifest, 'uses-permission'), ...childElements(manifest, 'uses-permission-sdk-23')]),
      ),
    ],
    features: namesOf(features),
    deviceType: deviceTypeOf(application, features),
    // `<meta-data android:name="git.commit" android:value="…"/>` under <application> (issue 19).
    metaData: (application ? childElements(application, 'meta-data') : []).map((element) => [
      textOf(findAttribute(element, 'name', AndroidAttr.name)) ?? '',
      textOf(findAttribute(element, 'value', AndroidAttr.value)),
    ]),
  };
}

/** A string attribute that may be a `@string/…` reference: every locale's value, default under `''`. */
export function resolveStringAttribute(
  attribute: XmlAttribute | undefined,
  table: ResourceResolver | null,
): Record<string, string> {
  const literal = textOf(attribute);
  if (literal !== null) return { '': literal };
  const reference = referenceOf(attribute);
  if (reference === null || !table) return {};
  const candidates = table.resolve(reference).filter((item) => item.text !== null);
  const byLocale: Record<string, string> = {};
  const fallback = pickDefault(candidates);
  if (fallback?.text != null) byLocale[''] = fallback.text;
  for (const candidate of candidates) {
    const locale = localeOf(candidate.config);
    if (locale && candidate.text !== null && !(locale in byLocale)) byLocale[locale] = candidate.text;
  }
  return byLocale;
}

/** Applies resources to the model; `warnings` collects what could not be resolved. */
export function toManifestInfo(
  model: ManifestModel,
  table: ResourceResolver | null,
  warnings: string[],
): AndroidManifestInfo {
  if (!model.packageName) throw inspectionFailure('metadataUnreadable', 'AndroidManifest.xml 中缺少 package');
  const localizedLabels = resolveStringAttribute(model.label, table);
  const label = localizedLabels[''] ?? null;
  if (model.label && label === null) warnings.push('应用名称无法从资源中解析');
  // Kept exactly as written (`1.0.4 [BETA]`); a bare number compiled as an integer is given back as text.
  const numericVersionName =
    model.versionName && isIntType(model.versionName.value.type) ? String(model.versionName.value.data) : null;
  const versionName = resolveStringAttribute(model.versionName, table)[''] ?? numericVersionName;
  return {
    packageName: model.packageName,
    versionName,
    versionCode: model.versionCode,
    minSdkVersion: model.minSdkVersion,
    targetSdkVersion: model.targetSdkVersion,
    compileSdkVersion: model.compileSdkVersion,
    label,
    localizedLabels,
    permissions: model.permissions,
    features: model.features,
    deviceType: model.deviceType,
  };
}

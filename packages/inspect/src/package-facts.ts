import type { PlistDict } from './plist.ts';
import type {
  AabInspection,
  ApkInspection,
  HapInspection,
  HarmonyModule,
  IpaInspection,
  MacInspection,
  PackageFacts,
  PackagePart,
  ProvisioningProfile,
} from './types.ts';
import type { ZipIndex } from './zip-index.ts';

/** Bounds of what is stored per version: a game's ipa has 50,000 files and hundreds of dylibs. */
export const FACT_LIMITS = { listItems: 200, itemChars: 200, parts: 40 } as const;

const USAGE_DESCRIPTION = /^NS[A-Za-z]+UsageDescription$/;

function bounded(items: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const item of items) {
    if (out.size >= FACT_LIMITS.listItems) break;
    if (item) out.add(item.slice(0, FACT_LIMITS.itemChars));
  }
  return [...out].sort();
}

/** Sums entry sizes into parts by `partOf` (null: not counted); the biggest parts first, the rest under `other`. */
function partsOf(zip: ZipIndex, partOf: (name: string) => string | null): PackageFacts['size'] {
  const parts = new Map<string, PackagePart>();
  let installed = 0;
  zip.entries.forEachSize((name, size, installedSize) => {
    installed += installedSize;
    if (name.endsWith('/')) return;
    const key = (partOf(name) ?? 'other').slice(0, FACT_LIMITS.itemChars);
    const part = parts.get(key) ?? { key, size: 0, installedSize: 0, files: 0 };
    part.size += size;
    part.installedSize += installedSize;
    part.files += 1;
    parts.set(key, part);
  });
  const sorted = [...parts.values()].sort((a, b) => b.size - a.size || a.key.localeCompare(b.key));
  const kept = sorted.slice(0, FACT_LIMITS.parts - 1);
  const rest = sorted.slice(FACT_LIMITS.parts - 1);
  if (rest.length > 0) {
    const other = kept.find((p) => p.key === 'other') ?? { key: 'other', size: 0, installedSize: 0, files: 0 };
    for (const p of rest) {
      other.size += p.size;
      other.installedSize += p.installedSize;
      other.files += p.files;
    }
    if (!kept.includes(other)) kept.push(other);
  }
  return { total: zip.fileSize, installed, parts: kept };
}

/** Names of `<prefix><Name>.<ext>/…` (or files `<prefix><name>.<ext>`) directly under `prefix`. */
function namesUnder(zip: ZipIndex, prefix: string, extension: string): string[] {
  const names = new Set<string>();
  for (const name of zip.entries.keys()) {
    if (!name.startsWith(prefix)) continue;
    const first = name.slice(prefix.length).split('/', 1)[0] ?? '';
    if (first.endsWith(extension) && first.length > extension.length) names.add(first);
  }
  return bounded(names);
}

function appleSigning(profile: ProvisioningProfile | null): PackageFacts['signing'] {
  if (!profile) return null;
  const cert = profile.developerCertificates[0];
  return {
    scheme: null,
    certificate: cert?.sha256 ?? null,
    identity: cert?.commonName ?? null,
    teamId: profile.teamId,
    profileType: profile.type,
    profileName: profile.name,
  };
}

/** An .ipa: parts inside the main bundle by what they are; usage descriptions, entitlements, embedded bundles. */
export function ipaFacts(
  zip: ZipIndex,
  inspection: IpaInspection,
  info: PlistDict,
  entitlements: string[],
): PackageFacts {
  const bundle = inspection.bundlePath;
  const executable = inspection.executable ? bundle + inspection.executable : null;
  const size = partsOf(zip, (name) => {
    if (!name.startsWith(bundle)) return 'other';
    if (name === executable) return 'executable';
    const inner = name.slice(bundle.length);
    const top = inner.split('/', 1)[0] ?? '';
    if (top === 'Frameworks') return 'frameworks';
    if (top === 'PlugIns' || top === 'Extensions' || top === 'Watch') return 'extensions';
    if (top === '_CodeSignature' || inner === 'embedded.mobileprovision') return 'signature';
    if (inner.endsWith('.car') || top === 'Data' || (top.endsWith('.bundle') && inner.length > top.length))
      return 'assets';
    return 'resources';
  });
  const frameworks = `${bundle}Frameworks/`;
  return {
    version: 1,
    size,
    permissions: bounded(Object.keys(info).filter((key) => USAGE_DESCRIPTION.test(key))),
    entitlements: bounded(entitlements),
    minOs: inspection.minimumOsVersion,
    targetSdk: typeof info.DTPlatformVersion === 'string' ? info.DTPlatformVersion : null,
    buildSdk: typeof info.DTSDKName === 'string' ? info.DTSDKName : null,
    signing: appleSigning(inspection.provisioningProfile),
    frameworks: namesUnder(zip, frameworks, '.framework'),
    extensions: bounded([
      ...namesUnder(zip, `${bundle}PlugIns/`, '.appex'),
      ...namesUnder(zip, `${bundle}Extensions/`, '.appex'),
      ...namesUnder(zip, `${bundle}Watch/`, '.app'),
    ]),
    dylibs: namesUnder(zip, frameworks, '.dylib'),
  };
}

const api = (level: number | null) => (level === null ? null : `API ${level}`);

/** An .apk (prefix '') or an .aab (its base module, prefix `base/`): native libraries per ABI, dex, assets, resources. */
export function androidFacts(zip: ZipIndex, inspection: ApkInspection | AabInspection, prefix = ''): PackageFacts {
  const libs = `${prefix}lib/`;
  const dylibs = new Set<string>();
  const size = partsOf(zip, (name) => {
    if (name.startsWith('META-INF/')) return 'signature';
    if (!name.startsWith(prefix)) return 'other';
    const inner = name.slice(prefix.length);
    if (name.startsWith(libs)) {
      const [abi, ...rest] = name.slice(libs.length).split('/');
      if (abi && rest.length > 0) {
        if (name.endsWith('.so')) dylibs.add(rest[rest.length - 1] ?? '');
        return `native:${abi}`;
      }
    }
    if (/^classes\d*\.dex$/.test(inner) || inner.startsWith('dex/')) return 'code';
    if (inner.startsWith('assets/')) return 'assets';
    if (inner.startsWith('res/') || inner === 'resources.arsc' || inner === 'resources.pb') return 'resources';
    if (inner === 'AndroidManifest.xml' || inner.startsWith('manifest/')) return 'resources';
    return 'other';
  });
  const signer = inspection.signatures.signers[0];
  return {
    version: 1,
    size,
    permissions: bounded(inspection.permissions),
    entitlements: [],
    minOs: api(inspection.minSdkVersion),
    targetSdk: api(inspection.targetSdkVersion),
    buildSdk: api(inspection.compileSdkVersion),
    signing: signer
      ? {
          scheme: inspection.signatures.schemes.join(', ') || null,
          certificate: signer.sha256,
          identity: signer.commonName,
          teamId: null,
          profileType: null,
          profileName: null,
        }
      : null,
    frameworks: [],
    extensions: [],
    dylibs: bounded(dylibs),
  };
}

/** A zipped Mac app: the parts of `X.app/Contents/`. */
export function macFacts(zip: ZipIndex, inspection: MacInspection, entitlements: string[]): PackageFacts {
  const contents = `${inspection.bundlePath}Contents/`;
  const size = partsOf(zip, (name) => {
    if (!name.startsWith(contents)) return 'other';
    const top = name.slice(contents.length).split('/', 1)[0] ?? '';
    if (top === 'MacOS') return 'executable';
    if (top === 'Frameworks') return 'frameworks';
    if (top === 'PlugIns' || top === 'Library' || top === 'XPCServices') return 'extensions';
    if (top === '_CodeSignature' || top === 'embedded.provisionprofile') return 'signature';
    return 'resources';
  });
  return {
    version: 1,
    size,
    permissions: [],
    entitlements: bounded(entitlements),
    minOs: inspection.minimumOsVersion,
    targetSdk: null,
    buildSdk: null,
    signing: appleSigning(inspection.provisioningProfile),
    frameworks: namesUnder(zip, `${contents}Frameworks/`, '.framework'),
    extensions: bounded([
      ...namesUnder(zip, `${contents}PlugIns/`, '.appex'),
      ...namesUnder(zip, `${contents}XPCServices/`, '.xpc'),
    ]),
    dylibs: namesUnder(zip, `${contents}Frameworks/`, '.dylib'),
  };
}

/**
 * A HarmonyOS module file (.hap / .hsp): native libraries per ABI under `libs/`, the compiled ArkTS under `ets/`,
 * resources; the permissions its module.json requests (`requestPermissions[].name`), the API levels as people read
 * them, and the signing certificate and profile type.
 */
export function harmonyFacts(zip: ZipIndex, inspection: HapInspection, permissions: string[]): PackageFacts {
  const dylibs = new Set<string>();
  const size = partsOf(zip, (name) => {
    if (name.startsWith('libs/')) {
      const [abi, ...rest] = name.slice('libs/'.length).split('/');
      if (abi && rest.length > 0) {
        if (name.endsWith('.so')) dylibs.add(rest[rest.length - 1] ?? '');
        return `native:${abi}`;
      }
    }
    if (name.startsWith('ets/')) return 'code';
    if (name.startsWith('resources/') || name === 'resources.index' || name === 'module.json') return 'resources';
    return 'other';
  });
  const certificate = inspection.signature?.certificate ?? null;
  return {
    version: 1,
    size,
    permissions: bounded(permissions),
    entitlements: [],
    minOs: inspection.minApiVersion,
    targetSdk: inspection.targetApiVersion,
    buildSdk: inspection.compileSdkVersion,
    signing: certificate
      ? {
          scheme: null,
          certificate: certificate.sha256,
          identity: certificate.commonName,
          teamId: inspection.profile?.developerId ?? null,
          profileType: inspection.profile?.type ?? null,
          profileName: null,
        }
      : null,
    frameworks: [],
    extensions: [],
    dylibs: bounded(dylibs),
  };
}

/**
 * The facts of HarmonyOS modules published together (a packed .app, or several files as one version): the main
 * module's, with every module's sizes, permissions and libraries summed in, and the other modules listed as
 * `name (type)` among what is embedded. `total` is the files' size.
 */
export function combinedHarmonyFacts(
  main: PackageFacts,
  others: readonly PackageFacts[],
  total: number,
  otherModules: readonly HarmonyModule[],
): PackageFacts {
  const parts = new Map<string, PackagePart>();
  for (const facts of [main, ...others])
    for (const part of facts.size.parts) {
      const sum = parts.get(part.key) ?? { key: part.key, size: 0, installedSize: 0, files: 0 };
      sum.size += part.size;
      sum.installedSize += part.installedSize;
      sum.files += part.files;
      parts.set(part.key, sum);
    }
  const all = [main, ...others];
  return {
    ...main,
    size: {
      total,
      installed: all.reduce((sum, facts) => sum + facts.size.installed, 0),
      parts: [...parts.values()]
        .sort((a, b) => b.size - a.size || a.key.localeCompare(b.key))
        .slice(0, FACT_LIMITS.parts),
    },
    permissions: bounded(all.flatMap((facts) => facts.permissions)),
    extensions: bounded(otherModules.map((module) => `${module.name} (${module.type})`)),
    dylibs: bounded(all.flatMap((facts) => facts.dylibs)),
  };
}

/** Any other archive (a web zip): its size by top-level folder. */
export function archiveFacts(zip: ZipIndex): PackageFacts {
  return {
    version: 1,
    size: partsOf(zip, (name) => {
      const slash = name.indexOf('/');
      return slash > 0 ? `dir:${name.slice(0, slash)}` : 'other';
    }),
    permissions: [],
    entitlements: [],
    minOs: null,
    targetSdk: null,
    buildSdk: null,
    signing: null,
    frameworks: [],
    extensions: [],
    dylibs: [],
  };
}

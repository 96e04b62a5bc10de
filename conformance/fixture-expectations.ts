/**
 * What each fixture must inspect to, transcribed from fixtures/SOURCES.md ("verified contents"; certificate
 * fingerprints there are apksigner's SHA-256 prefixes). Where SOURCES.md is silent, values were checked by hand.
 */
import { expect } from 'vitest';
import type { InspectionFailureReason } from '@release/inspect';

type Expectation = Record<string, unknown> | { rejected: InspectionFailureReason };

const androidDebug = (sha256Prefix: string, schemes: string[]) => [
  { commonName: 'Android Debug', sha256: expectPrefix(sha256Prefix), schemes },
];

/** A SHA-256 fingerprint starting with the prefix SOURCES.md records. */
function expectPrefix(prefix: string): unknown {
  return expect.stringMatching(new RegExp(`^${prefix}[0-9a-f]{${64 - prefix.length}}$`));
}

const tinyApp = {
  packageName: 'android.appsecurity.cts.tinyapp',
  versionCode: 10,
  versionName: '1.0',
  minSdkVersion: 23,
  targetSdkVersion: 23,
  label: 'Tiny App for CTS',
  labelCount: 3,
  icon: null,
};

export const ipaExpectations: Record<string, Expectation> = {
  'appinfo-iphone.ipa': {
    bundleId: 'com.icyleaf.AppInfoDemo',
    version: '1.2.3',
    build: '5',
    minimumOsVersion: '9.3',
    platform: 'ios',
    deviceFamilies: ['iphone'],
    icon: null,
    profile: {
      name: 'iOS Team Provisioning Profile: *',
      type: 'development',
      teamId: '5PJA6N5A3B',
      teamName: 'QYER Inc',
      expires: '2017-07-27',
      devices: 100,
      certificates: 13,
    },
  },
  'appinfo-ipad.ipa': {
    bundleId: 'com.icyleaf.bundle',
    version: '1.0',
    build: '1',
    deviceFamilies: ['ipad'],
    icon: { format: 'png', width: 167, convertedFrom: 'cgbi' },
    profile: {
      name: 'XC: *',
      type: 'app-store',
      teamId: '5PJA6N5A3B',
      expires: '2017-04-12',
      devices: 0,
      betaReportsActive: true,
    },
  },
  'appinfo-embedded.ipa': {
    bundleId: 'com.icyleaf.test.Demo',
    version: '1.0',
    build: '1',
    minimumOsVersion: '14.3',
    nestedBundles: ['com.icyleaf.test.Demo.Notification'],
    icon: null,
    profile: {
      name: 'iOS Team Inhouse Provisioning Profile: com.icyleaf.test.Demo',
      type: 'enterprise',
      teamId: '72LA85G59H',
      expires: '2022-01-15',
      provisionsAllDevices: true,
    },
  },
  'appinfo-apple-tv.ipa': {
    bundleId: 'com.etan.tv.BilibiliLive.tvOS',
    version: '1.0',
    build: '1',
    minimumOsVersion: '16.0',
    platform: 'tvos',
    deviceFamilies: ['tv'],
    icon: null,
    warnings: ['应用图标只存在于 Assets.car 中，已使用默认图标'],
    profile: { type: 'development', devices: 1, expires: '2024-07-01' },
  },
  // Skeleton IPAs with Payload/ under an extra folder: iOS refuses them, so do we (with the folder named).
  'fastlane-iOSAppOnly.ipa': { rejected: 'missingAppBundle' },
  'fastlane-ContainsWatchApp.ipa': { rejected: 'missingAppBundle' },
  'fastlane-IncorrectlySigned.ipa': { rejected: 'missingAppBundle' },
  'isign-Test.ipa': {
    bundleId: 'net.neilk.IsignTestApp',
    version: '1.0',
    build: '1',
    minimumOsVersion: '13.2',
    profile: {
      name: 'iOS Team Provisioning Profile: net.neilk.*',
      type: 'development',
      teamId: 'L37S4Z6BE9',
      devices: 1,
      expires: '2020-09-28',
    },
  },
  'isign-isignTestApp.ipa': {
    bundleId: 'net.neilk.IsignTestApp',
    version: '1.0',
    build: '101',
    icon: { format: 'png', width: 152, convertedFrom: 'cgbi' },
    profile: { teamId: 'L37S4Z6BE9', type: 'development' },
  },
  'isign-isignFrameworksTestApp.ipa': {
    bundleId: 'net.neilk.isignFrameworksTestApp',
    version: '1.0',
    build: '100',
    profile: { teamId: 'L37S4Z6BE9', type: 'development' },
  },
};

export const apkExpectations: Record<string, Expectation> = {
  'adbkit-app-debug-unaligned.apk': {
    packageName: 'com.example.hello.helloapp.app',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 7,
    targetSdkVersion: 19,
    label: 'HelloApp',
    icon: { format: 'png' },
    schemes: ['v1'],
    signers: androidDebug('bdc54716', ['v1']),
  },
  'androguard-TestActivity.apk': {
    packageName: 'tests.androguard',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 9,
    targetSdkVersion: 16,
    schemes: ['v1'],
    signers: androidDebug('6f5c3160', ['v1']),
  },
  'androguard-a2dp.Vol_137.apk': {
    packageName: 'a2dp.Vol',
    versionCode: 137,
    versionName: '2.12.9.2',
    minSdkVersion: 15,
    targetSdkVersion: 25,
    permissionCount: 17,
    labelCount: 7,
    schemes: ['v1'],
    signers: [{ commonName: 'FDroid', sha256: expectPrefix('1e3bf46f') }],
  },
  'androguard-app-prod-debug.apk': {
    packageName: 'com.greenaddress.abcore',
    versionCode: 2162,
    versionName: '0.62',
    minSdkVersion: 21,
    targetSdkVersion: 27,
    schemes: ['v1', 'v2'],
    signers: androidDebug('5e29b0ae', ['v1', 'v2']),
  },
  'androguard-com.android.example.text.styling.apk': {
    packageName: 'com.android.example.text.styling',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 15,
    targetSdkVersion: 27,
    // Adaptive icon with mipmap PNG fallbacks: the highest-density PNG is used.
    icon: { format: 'png', width: 192, convertedFrom: null },
    schemes: ['v1', 'v2'],
    signers: androidDebug('78e6faaa', ['v1', 'v2']),
  },
  'androguard-com.example.android.wearable.wear.weardrawers.apk': {
    packageName: 'com.example.android.wearable.wear.weardrawers',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 23,
    targetSdkVersion: 26,
    deviceType: 'wear',
    schemes: ['v1', 'v2'],
  },
  'androguard-com.politedroid_4.apk': {
    packageName: 'com.politedroid',
    versionCode: 4,
    versionName: '1.3',
    minSdkVersion: 3,
    targetSdkVersion: null,
    label: 'Polite Droid',
    schemes: ['v1'],
    signers: [{ sha256: expectPrefix('32a23624') }],
  },
  'androguard-hello-world.apk': {
    packageName: 'de.rhab.helloworld',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 21,
    targetSdkVersion: 25,
    schemes: ['v1', 'v2'],
    signers: [{ commonName: 'Robert Habermann', sha256: expectPrefix('6e566427') }],
  },
  'apksig-golden-aligned-v1v2v3-out.apk': {
    ...tinyApp,
    schemes: ['v1', 'v2', 'v3'],
    signers: [{ commonName: 'rsa-2048', sha256: expectPrefix('fb5dbd3c'), schemes: ['v1', 'v2', 'v3'] }],
  },
  'apksig-golden-aligned-v2-out.apk': {
    ...tinyApp,
    schemes: ['v2'],
    signers: [{ commonName: 'rsa-2048', sha256: expectPrefix('fb5dbd3c') }],
  },
  'apksig-golden-aligned-v3-lineage-out.apk': {
    ...tinyApp,
    schemes: ['v3'],
    signers: [{ commonName: 'rsa-2048_2', sha256: expectPrefix('681b0e56') }],
  },
  'apksig-v2-only-with-ecdsa-sha256-p256.apk': {
    ...tinyApp,
    schemes: ['v2'],
    signers: [{ commonName: 'ec-p256', sha256: expectPrefix('6a8b96e2') }],
  },
  'apksig-v1-only-with-rsa-pkcs1-sha256-1.2.840.113549.1.1.11-2048.apk': {
    ...tinyApp,
    schemes: ['v1'],
    signers: [{ commonName: 'rsa-2048', schemes: ['v1'] }],
  },
  'apksig-v1v2v3-with-rsa-2048-lineage-3-signers.apk': {
    ...tinyApp,
    schemes: ['v1', 'v2', 'v3'],
    signers: [
      { commonName: 'rsa-2048_3', sha256: expectPrefix('bb77a72e'), schemes: ['v3'] },
      { commonName: 'rsa-2048' },
    ],
  },
  'appinfo-android.apk': {
    packageName: 'com.icyleaf.appinfodemo',
    versionCode: 10,
    versionName: '2.1.0',
    minSdkVersion: 14,
    targetSdkVersion: 31,
    label: 'AppInfoDemo',
    // R8-obfuscated WebP icons (res/YB.webp … res/xC.webp): the xxxhdpi one, converted to PNG.
    icon: { format: 'png', width: 192, convertedFrom: 'webp' },
    schemes: ['v1', 'v2'],
    signers: [{ commonName: 'icy leaf', sha256: expectPrefix('2fd30218') }],
  },
  'appinfo-tv.apk': {
    packageName: 'com.icyleaf.appinfotvdemo',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 23,
    targetSdkVersion: 23,
    deviceType: 'tv',
    schemes: ['v1'],
    signers: [{ commonName: 'Yi Xiao', sha256: expectPrefix('b18b9c9c') }],
  },
  'appinfo-wear.apk': {
    packageName: 'com.icyleaf.appinfoweardemo',
    versionCode: 1,
    versionName: '1.0',
    minSdkVersion: 21,
    targetSdkVersion: 23,
    deviceType: 'wear',
    schemes: ['v1'],
    signers: [{ commonName: 'Yi Xiao', sha256: expectPrefix('b18b9c9c') }],
  },
};

export const otherExpectations: Record<string, Expectation> = {
  'appinfo-android.aab': {
    kind: 'aab',
    packageName: 'com.icyleaf.appinfodemo',
    versionCode: 10,
    versionName: '2.1.0',
    minSdkVersion: 14,
    targetSdkVersion: 31,
    label: 'AppInfoDemo',
    localizedLabels: { '': 'AppInfoDemo', 'zh-CN': 'AppInfo演示' },
    schemes: ['v1'],
    signers: [{ commonName: 'icy leaf', schemes: ['v1'] }],
  },
  'appinfo-macos.zip': {
    kind: 'mac',
    bundleId: 'com.icyleaf.macos.GUIApp',
    version: '1.0',
    build: '1',
    minimumOsVersion: '11.3',
    icon: { format: 'png' },
    profile: null,
  },
  'appinfo-macos-signed.zip': {
    kind: 'mac',
    bundleId: 'com.icyleaf.macos.GUIApp',
    version: '1.0',
    build: '1',
    minimumOsVersion: '11.3',
    profile: {
      name: 'Layouts',
      type: 'developer-id',
      teamId: '3G4J97R9DL',
      platforms: ['OSX'],
      provisionsAllDevices: true,
      expires: '2038-12-18',
    },
  },
};

export const profileExpectations: Record<string, Record<string, unknown>> = {
  'appinfo-ios_development.mobileprovision': {
    name: 'iOS Full Development',
    type: 'development',
    devices: 1,
    teamId: 'WKR87TTKML',
    expires: '2021-07-21',
    certificateNames: ['Apple Development: Shen Wang (A3Z3NZQ8V3)'],
  },
  'appinfo-ios_adhoc.mobileprovision': {
    name: 'iOS Full AdHoc',
    type: 'ad-hoc',
    devices: 1,
    expires: '2020-10-24',
    certificates: 1,
  },
  'appinfo-ios_appstore.mobileprovision': {
    name: 'iOS Full AppStore',
    type: 'app-store',
    devices: 0,
    betaReportsActive: true,
  },
  'appinfo-NotificationService-embedded.mobileprovision': {
    name: 'match AdHoc com.haohaozhu.shaijia.NotificationService',
    type: 'ad-hoc',
    devices: 90,
  },
  'appinfo-profile.mobileprovision': {
    name: 'iOS Team Provisioning Profile: com.icyleaf.iOS',
    type: 'development',
    certificates: 2,
    certificateNames: [
      'iPhone Developer: icyleaf.cn@gmail.com (7MTJ2DCLYY)',
      'Apple Development: icyleaf.cn@gmail.com (7MTJ2DCLYY)',
    ],
  },
  'appinfo-macos_development.provisionprofile': { type: 'development', platforms: ['OSX'], devices: 1 },
  'appinfo-macos_appstore.provisionprofile': { type: 'app-store', platforms: ['OSX'], devices: 0 },
  'appinfo-bplist.mobileprovision': {
    name: 'com.icyleaf.ios',
    type: 'enterprise',
    provisionsAllDevices: true,
    isSigned: false,
  },
  'fastlane-test.mobileprovision': {
    name: 'tools.fastlane.app AppStore',
    type: 'app-store',
    teamId: '439BBM9367',
    expires: '2016-11-07',
  },
  'fastlane-AppStore_tools.fastlane.app.mobileprovision': {
    name: 'match AppStore tools.fastlane.app 1449198835',
    type: 'app-store',
    certificateNames: ['iPhone Distribution: Felix Krause (439BBM9367)'],
  },
  'fastlane-very-capable-app-embedded.mobileprovision': {
    type: 'development',
    teamId: 'TestFixture',
    teamName: 'TestFixture',
    isSigned: true,
  },
};

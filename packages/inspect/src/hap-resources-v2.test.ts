import { afterAll, describe, expect, it } from 'vitest';
import { ResourceIndex, ResourceIndexError } from './hap-resources.ts';
import { openResourceIndex, ResourceIndexV2 } from './hap-resources-v2.ts';
import { inspectPackage } from './package-inspector.ts';
import { buildResourcesIndex, buildResourcesIndexV2, RES_TYPE, sampleHap } from './testing/hap-builder.ts';
import { createTempDir } from './testing/temp-files.ts';
import type { HapInspection } from './types.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

async function inspect(name: string, bytes: Buffer): Promise<HapInspection> {
  const inspection = await inspectPackage(temp.write(name, bytes), { declaredName: name });
  if (inspection.kind !== 'hap') throw new Error(`not a .hap: ${inspection.kind}`);
  return inspection;
}

const LABEL = 0x01000000;
const label = (value: string) => ({ id: LABEL, type: RES_TYPE.string, name: 'app_name', value });

describe('resources.index in the RestoolV2 layout', () => {
  it('a module built with a V2 index shows its label in every language and its layered icon, as with V1', async () => {
    const v2 = await inspect('v2.hap', sampleHap({ resources: 'v2' }));
    const v1 = await inspect('v1.hap', sampleHap());
    expect(v2).toMatchObject({
      label: '鸿蒙演示',
      localizedLabels: { '': '鸿蒙演示', zh_CN: '鸿蒙演示（中文）', en_US: 'Harmony Demo' },
      icon: { format: 'png', width: 64, height: 64, convertedFrom: 'adaptive-layers' },
      warnings: [],
    });
    expect(v2.icon?.data.equals(v1.icon?.data ?? Buffer.alloc(0))).toBe(true);
  });

  it('reads items in the order of the configurations, skipping qualifiers that are not a language', () => {
    const configs = [
      { locale: 'dark', items: [label('暗色')] },
      {
        locale: '',
        items: [
          label('默认'),
          { id: 7, type: RES_TYPE.media, name: 'icon', value: 'entry/resources/base/media/icon.png' },
        ],
      },
      { locale: 'zh_CN', items: [label('中文')] },
    ];
    const index = openResourceIndex(buildResourcesIndexV2(configs));
    expect(index).toBeInstanceOf(ResourceIndexV2);
    expect(index.itemsOf(LABEL).map((item) => [item.locale, item.value, item.type, item.name])).toEqual([
      [null, '暗色', RES_TYPE.string, 'app_name'],
      ['', '默认', RES_TYPE.string, 'app_name'],
      ['zh_CN', '中文', RES_TYPE.string, 'app_name'],
    ]);
    expect(index.itemsOf(7)).toEqual([
      { locale: '', value: 'entry/resources/base/media/icon.png', type: RES_TYPE.media, name: 'icon' },
    ]);
    expect(index.itemsOf(8)).toEqual([]);
    // The version string picks the reader, as the packing tool's factory does.
    expect(openResourceIndex(buildResourcesIndex(configs))).toBeInstanceOf(ResourceIndex);
  });

  it('refuses a V2 index whose counts or offsets lie, and bounds the rows read, in time proportional to its size', async () => {
    const good = buildResourcesIndexV2([{ locale: '', items: [label('名称')] }]);
    const idss = 140 + 12;
    const lying = (at: number, value = 0xffffffff) => {
      const bytes = Buffer.from(good);
      bytes.writeUInt32LE(value, at);
      return bytes;
    };
    expect(() => openResourceIndex(lying(132))).toThrow(ResourceIndexError); // configurations
    expect(() => openResourceIndex(lying(idss + 8)).itemsOf(LABEL)).toThrow(ResourceIndexError); // types
    expect(() => openResourceIndex(lying(idss + 24)).itemsOf(LABEL)).toThrow(ResourceIndexError); // rows
    expect(() => openResourceIndex(lying(idss + 36)).itemsOf(LABEL)).toThrow(ResourceIndexError); // name length
    expect(() => openResourceIndex(lying(idss + 32, idss)).itemsOf(LABEL)).toThrow(/another id/);
    expect(() => openResourceIndex(good.subarray(0, good.length - 3)).itemsOf(LABEL)).toThrow(ResourceIndexError);
    // 100,000 labels of one type, each looked up: the row budget stops the walk long before 10¹⁰ rows.
    const wide = buildResourcesIndexV2([
      {
        locale: '',
        items: Array.from({ length: 100_000 }, (_, i) => label(`${i}`)).map((item, i) => ({
          ...item,
          id: 0x02000000 + i,
        })),
      },
    ]);
    const index = openResourceIndex(wide);
    expect(() => {
      for (let id = 0x7fff0000; id < 0x7fff0000 + 100; id++) index.itemsOf(id);
    }).toThrow(/read too often/);
    const hostile = await inspect('hostile.hap', sampleHap({ extra: { 'resources.index': lying(idss + 8) } }));
    expect([hostile.label, hostile.warnings]).toEqual([null, ['resources.index 格式无法读取，未读取应用名称和图标']]);
  });
});

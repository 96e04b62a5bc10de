import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CORRUPT_JSON_WARNING, CorruptJsonColumnError, jsonColumn } from './json-column.ts';

describe('jsonColumn', () => {
  const devices = jsonColumn('certificate_profiles.devices', z.array(z.string()));

  it('decodes what it encodes', () => {
    expect(devices.decode(devices.encode(['00008030-A', 'B']))).toEqual(['00008030-A', 'B']);
  });

  it('names the column when the text is not JSON or not the expected shape', () => {
    expect(() => devices.decode('[1,')).toThrow(CorruptJsonColumnError);
    expect(() => devices.decode('[1,')).toThrow(/certificate_profiles\.devices/);
    expect(() => devices.decode('["a", 2]')).toThrow(/certificate_profiles\.devices is unreadable: 1: /);
    expect(() => devices.decode('{}')).toThrow(/\(root\)/);
  });
});

describe('jsonColumn with a fallback', () => {
  const tags = jsonColumn('commit_logs.tag_summary', z.array(z.string()), { fallback: () => [] });

  it('reads a damaged value as the fallback and warns once per damaged value, naming the column', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if ((warning as Error & { code?: string }).code === CORRUPT_JSON_WARNING) warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      expect(tags.decode('["v1"]')).toEqual(['v1']);
      expect(tags.decode('[1,')).toEqual([]);
      expect(tags.decode('[1,')).toEqual([]);
      expect(tags.decode('{"a":1}')).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(
        /^stored JSON in commit_logs\.tag_summary is unreadable: .* \(read as its default\)$/,
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});

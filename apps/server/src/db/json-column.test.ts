import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CorruptJsonColumnError, jsonColumn } from './json-column.ts';

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

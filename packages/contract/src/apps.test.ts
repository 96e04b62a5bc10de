import { describe, expect, it } from 'vitest';
import { installPasswordProblem, randomAppPath, randomInstallPassword, saveAppBody } from './apps.ts';

describe('install password rules (SPEC §5)', () => {
  it('asks for a password when empty and for 6-10 digits otherwise', () => {
    expect(installPasswordProblem('')).toBe('请输入密码');
    for (const bad of ['12345', '12345678901', '12a456', ' 123456', '１２３４５６'])
      expect(installPasswordProblem(bad)).toBe('密码必须是6-10位的数字');
  });
  it('calls a repeated digit or a run of 0123456789 (either way) weak', () => {
    for (const weak of ['000000', '7777777777', '123456', '0123456789', '456789', '987654', '3210987'.slice(0, 6)]) {
      expect([weak, installPasswordProblem(weak)]).toEqual([weak, weak === '321098' ? null : '密码强度不够']);
    }
    expect(installPasswordProblem('135790')).toBeNull();
    expect(installPasswordProblem('1234567')).toBe('密码强度不够');
  });
  it('generates defaults that pass the rules', () => {
    for (let i = 0; i < 200; i += 1) {
      expect(installPasswordProblem(randomInstallPassword())).toBeNull();
      expect(randomAppPath()).toMatch(/^[a-z]{4}$/);
    }
  });
  it('answers the spec messages for missing fields', () => {
    const result = saveAppBody.safeParse({});
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining(['请输入应用名称!', '请选择项目类型!', '请输入密码', '请补全下载地址!']),
    );
  });
});

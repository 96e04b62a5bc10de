import { describe, expect, it } from 'vitest';
import { decodeDerEntitlements, DerEntitlementsError, encodeDerEntitlements } from './der-entitlements.ts';

const entitlements = {
  'keychain-access-groups': ['TEAM123456.com.example.app', 'TEAM123456.shared'],
  'application-identifier': 'TEAM123456.com.example.app',
  'get-task-allow': true,
  'com.apple.developer.team-identifier': 'TEAM123456',
  'com.apple.developer.associated-domains': ['applinks:例子.cn'],
  'aps-environment': 'development',
  'com.apple.developer.default-data-protection': 'NSFileProtectionComplete',
  nested: { 'b-count': 300, 'a-flag': false, negative: -129 },
};

describe('DER entitlements', () => {
  it('encodes the current Xcode form: [APPLICATION 16] { 1, [CONTEXT 16] { key/value SEQUENCEs in key order } }', () => {
    const der = encodeDerEntitlements({ 'get-task-allow': true, 'application-identifier': 'T.a' });
    expect(der.toString('hex')).toBe(
      '7039' +
        '020101' +
        'b034' +
        '301d0c166170706c69636174696f6e2d6964656e7469666965720c03542e61' +
        '30130c0e6765742d7461736b2d616c6c6f770101ff',
    );
  });

  it('reads back what it wrote, nested dictionaries, arrays, integers and Chinese included', () => {
    expect(decodeDerEntitlements(encodeDerEntitlements(entitlements))).toEqual(entitlements);
  });

  it('reads the Xcode 12 form (a bare SET)', () => {
    const old = Buffer.from('3115' + '30130c0e6765742d7461736b2d616c6c6f77010100', 'hex');
    expect(decodeDerEntitlements(old)).toEqual({ 'get-task-allow': false });
  });

  it('refuses values without a DER form and documents that are not entitlements', () => {
    expect(() => encodeDerEntitlements({ when: new Date() })).toThrow(DerEntitlementsError);
    expect(() => decodeDerEntitlements(Buffer.from('300302010a', 'hex'))).toThrow(DerEntitlementsError);
    expect(() => decodeDerEntitlements(Buffer.from('garbage'))).toThrow(DerEntitlementsError);
  });
});

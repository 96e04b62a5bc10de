import { describe, expect, it } from 'vitest';
import { deviceOfAgent } from './device-of-agent.ts';

describe('deviceOfAgent', () => {
  it('reads iPhone, Android with its model, the iOS installer, desktops', () => {
    expect(
      deviceOfAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ family: 'iPhone', model: 'iPhone', os: 'iOS 17.2.1' });
    expect(
      deviceOfAgent(
        'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      ),
    ).toEqual({ family: 'Android', model: 'SM-S9180', os: 'Android 14' });
    expect(deviceOfAgent('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/120 Mobile')).toEqual({
      family: 'Android',
      model: null,
      os: 'Android 10',
    });
    expect(
      deviceOfAgent('com.apple.appstored/1.0 iOS/17.2 model/iPad13,4 hwmodel/J517AP build/21C62 (5; dt:274)'),
    ).toEqual({ family: 'iPad', model: 'iPad13,4', os: 'iOS 17.2' });
    expect(deviceOfAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15').family).toBe('Mac');
    expect(deviceOfAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64)').os).toBe('Windows NT 10.0');
    expect(deviceOfAgent(undefined)).toEqual({ family: '其他', model: null, os: null });
    expect(deviceOfAgent(`${'x'.repeat(100_000)} Android 9;`).family).toBe('其他');
  });
});

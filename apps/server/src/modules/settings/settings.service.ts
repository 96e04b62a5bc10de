import { phoneCodeMode, type SystemSettings } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import type { SettingsRepository } from './settings.repository.ts';

const PHONE_CODE_MODE_KEY = 'login.phoneCodeMode';

export function createSettingsService(deps: { settings: SettingsRepository; clock: Clock }) {
  const { settings, clock } = deps;
  return {
    async read(): Promise<SystemSettings> {
      const stored = phoneCodeMode.safeParse(await settings.get(PHONE_CODE_MODE_KEY));
      return { phoneCodeMode: stored.success ? stored.data : 'auto' };
    },
    async update(next: SystemSettings): Promise<SystemSettings> {
      await settings.set(PHONE_CODE_MODE_KEY, next.phoneCodeMode, clock.now());
      return next;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;

import { Messages, PHONE_CODE_LIFETIME_MS, PHONE_CODE_RESEND_MS, maskPhone } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomDigits, sha256Hex } from '../../lib/crypto.ts';
import type { SmsProvider } from '../../sms/sms-provider.ts';
import type { PhoneCodeRepository } from './phone-code.repository.ts';

const MAX_ATTEMPTS = 5;

function codeHash(userId: number, scene: string, code: string): string {
  return sha256Hex(`${userId}:${scene}:${code}`);
}

/** Six-digit codes sent by SMS; stored hashed, valid 5 minutes, one use, 5 tries. */
export function createPhoneCodeService(deps: { codes: PhoneCodeRepository; sms: SmsProvider; clock: Clock }) {
  const { codes, sms, clock } = deps;
  return {
    async send(user: { userId: number; phone: string }, scene: string) {
      const now = clock.now();
      const latest = await codes.findLatest(user.userId, scene);
      if (latest && now - latest.create_time < PHONE_CODE_RESEND_MS)
        throw AppError.tooManyRequests(Messages.phoneCodeTooSoon);
      const code = randomDigits(6);
      await codes.insert({
        userId: user.userId,
        scene,
        codeHash: codeHash(user.userId, scene, code),
        expireTime: now + PHONE_CODE_LIFETIME_MS,
        createTime: now,
      });
      await sms.send(user.phone, `【发布系统】您的验证码是${code}，5分钟内有效。`);
      return { maskedPhone: maskPhone(user.phone), expiresInMs: PHONE_CODE_LIFETIME_MS };
    },

    /**
     * Consumes a code; throws phoneCodeWrong when it is wrong, expired or used, and phoneCodeTooManyTries once its
     * tries are spent. The try is counted before the code is compared, so parallel guesses get MAX_ATTEMPTS in all.
     */
    async consume(userId: number, scene: string, code: string) {
      const now = clock.now();
      const latest = await codes.findLatest(userId, scene);
      if (!latest || latest.used_time !== null || latest.expire_time <= now)
        throw AppError.badRequest(Messages.phoneCodeWrong);
      if (!(await codes.takeTry(latest.id, MAX_ATTEMPTS, now))) {
        // Parallel tries spent the last ones, or a parallel right one used the code.
        const after = await codes.findLatest(userId, scene);
        const spent = after?.id === latest.id && after.used_time === null && after.attempts >= MAX_ATTEMPTS;
        throw spent
          ? AppError.tooManyRequests(Messages.phoneCodeTooManyTries)
          : AppError.badRequest(Messages.phoneCodeWrong);
      }
      if (latest.code_hash !== codeHash(userId, scene, code)) throw AppError.badRequest(Messages.phoneCodeWrong);
      if (!(await codes.markUsed(latest.id, now))) throw AppError.badRequest(Messages.phoneCodeWrong);
    },
  };
}
export type PhoneCodeService = ReturnType<typeof createPhoneCodeService>;

import { AppleAccountMessages, DeviceMessages, type DeviceReviewStatus } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { AscApiError, AscNetworkError } from '../../integrations/apple/asc-client.ts';

/**
 * Apple's answers as messages an admin can act on. All are 400s of ours (a 401 or 403 would sign the
 * admin out or send them to /403), except Apple's rate limit, which stays a 429.
 */
export function appleMessage(error: AscApiError, context: { udid?: string } = {}): string {
  const { status, code, detail } = error;
  if (status === 401) return AppleAccountMessages.notAuthorized;
  if (
    code.startsWith('FORBIDDEN.REQUIRED_AGREEMENTS') ||
    (status === 403 && code === 'FORBIDDEN' && /agreement/i.test(`${error.title} ${detail}`))
  )
    return AppleAccountMessages.agreementExpired;
  if (status === 429) return AppleAccountMessages.rateLimited;
  if (status === 403 && /maximum number of registered/i.test(detail)) return AppleAccountMessages.deviceLimit(detail);
  if (status === 403) return AppleAccountMessages.forbidden;
  if (status === 409 && code === 'ENTITY_ERROR' && /already exists/i.test(detail))
    return AppleAccountMessages.deviceDuplicate(context.udid ?? /'([^']+)'/.exec(detail)?.[1] ?? '');
  if (status === 409 && code === 'ENTITY_ERROR.ATTRIBUTE.INVALID' && /'udid'/.test(detail))
    return AppleAccountMessages.udidRejected(context.udid ?? '');
  return AppleAccountMessages.appleError(status, code, detail || error.title);
}

/** Rethrows an App Store Connect failure as an AppError with its Chinese message. */
export function toAppError(error: unknown): never {
  if (error instanceof AscApiError)
    throw new AppError(error.status === 429 ? 'tooManyRequests' : 'badRequest', appleMessage(error), { cause: error });
  if (error instanceof AscNetworkError)
    throw new AppError('badRequest', AppleAccountMessages.unreachable(error.message), { cause: error });
  throw error;
}

/** Runs a call to Apple, turning its failures into AppErrors. */
export async function callApple<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return toAppError(error);
  }
}

/** Whether a registration failure is about that one device (the others may still go through). */
export function isPerDeviceError(error: unknown): error is AscApiError {
  return (
    error instanceof AscApiError &&
    (error.status === 409 || (error.status === 403 && /maximum number of registered/i.test(error.detail)))
  );
}

/** Only devices an admin confirmed are registered at Apple or added to a build. */
export function assertConfirmed(device: { device_name: string; review_status: DeviceReviewStatus }): void {
  if (device.review_status === 'pending') throw AppError.badRequest(DeviceMessages.notConfirmed(device.device_name));
  if (device.review_status === 'rejected') throw AppError.badRequest(DeviceMessages.rejected(device.device_name));
}

import { PackageInspectionError, type InspectionFailureReason } from '../inspection-error.ts';

/** Runs `action` and returns the PackageInspectionError it must throw; fails the test otherwise. */
export async function inspectionFailureOf(action: () => Promise<unknown>): Promise<PackageInspectionError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof PackageInspectionError) return error;
    throw error;
  }
  throw new Error('expected a PackageInspectionError');
}

export async function reasonOf(action: () => Promise<unknown>): Promise<InspectionFailureReason> {
  return (await inspectionFailureOf(action)).reason;
}

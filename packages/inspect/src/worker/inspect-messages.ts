import type { InspectionFailureReason } from '../inspection-error.ts';
import type { InspectPackageOptions } from '../package-inspector.ts';
import type { PackageInspection } from '../types.ts';

/** What the pool sends a worker: one package to inspect. */
export interface InspectJob {
  id: number;
  filePath: string;
  options: InspectPackageOptions;
}

/** What a worker answers: ready once started, then per job the inspection, the uploader's error or a bug. */
export type InspectReply =
  | { ready: true }
  | { id: number; inspection: PackageInspection }
  | { id: number; refusal: { reason: InspectionFailureReason; message: string } }
  | { id: number; failure: string };

import { appBundleIdsInput, emptyBundleIds } from '@release/contract';
import { jsonColumn } from '../../db/json-column.ts';

/**
 * `apps.bundle_ids`: the ids an app's packages must carry, per platform. Damaged text reads as no id yet (reported
 * once as a process warning), as a new app's '{}' does. Written by compare and set on the stored text, so it is
 * always encoded the one way: checked by the schema, platforms in the table's order.
 */
const bundleIds = jsonColumn('apps.bundle_ids', appBundleIdsInput, { fallback: emptyBundleIds });
export const appColumns = {
  bundleIds: {
    decode: bundleIds.decode,
    encode: (ids: Parameters<typeof bundleIds.encode>[0]): string => bundleIds.encode(appBundleIdsInput.parse(ids)),
  },
};

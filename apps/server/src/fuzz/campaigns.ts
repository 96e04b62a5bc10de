import type { Campaign } from './campaign.ts';
import { axmlCampaign, arscCampaign, protoManifestCampaign, protoTableCampaign } from './campaigns-android.ts';
import { derCampaign, p12Campaign } from './campaigns-der.ts';
import { deviceFileCampaign } from './campaigns-devices.ts';
import { jsonCampaign } from './campaigns-json.ts';
import { harmonyPackageCampaign, resourcesIndexCampaign } from './campaigns-harmony.ts';
import { resourcesIndexV2Campaign } from './campaigns-harmony-v2.ts';
import { iconCampaign, packageCampaign } from './campaigns-packages.ts';
import { selfCheckCampaign } from './self-check.ts';
import {
  binaryPlistCampaign,
  deviceAnswerCampaign,
  mobileprovisionCampaign,
  xmlPlistCampaign,
} from './campaigns-plist.ts';

/** Every parser of docs/parsers.md, one campaign each (the App Bundle's two protobuf documents apart). */
export const campaigns: Campaign[] = [
  binaryPlistCampaign,
  xmlPlistCampaign,
  derCampaign,
  mobileprovisionCampaign,
  p12Campaign,
  deviceAnswerCampaign,
  axmlCampaign,
  arscCampaign,
  protoManifestCampaign,
  protoTableCampaign,
  packageCampaign,
  resourcesIndexCampaign,
  resourcesIndexV2Campaign,
  harmonyPackageCampaign,
  iconCampaign,
  jsonCampaign,
  deviceFileCampaign,
];

export const campaignNames = campaigns.map((campaign) => campaign.name);

/** Every campaign the worker runs: the parsers', and the runner's own check. */
export const allCampaigns: Campaign[] = [...campaigns, selfCheckCampaign];

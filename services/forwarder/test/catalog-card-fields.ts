import { PROCESSOR_MANIFESTS, type CardFieldProfile, type DestinationPurpose } from '@vaultline/contracts';

/** A processor's card fields as its manifest declares them (the tests' realistic templates). */
export function catalogCardFields(processor: string, purpose: DestinationPurpose = 'payments'): CardFieldProfile {
  const profile = PROCESSOR_MANIFESTS.find((manifest) => manifest.id === processor)?.card_fields[purpose];
  if (!profile) throw new Error(`no card fields for ${processor} ${purpose}`);
  return profile;
}

import {
  CreditThresholdCrossed,
  type CreditThresholdCrossedData,
  type EventEnvelope,
} from '@genasset/contracts';
import type { PublicEvent } from './public-event';

/** Body version of the team credit event (spec: "the team credit event body carries version 1"). */
export const CREDIT_EVENT_VERSION = 1;

/** The public event a team alert causes, owned by the team; undefined for alerts with no public type. */
export function publicTeamEvent(
  envelope: EventEnvelope<CreditThresholdCrossedData>,
): PublicEvent | undefined {
  if (envelope.type !== CreditThresholdCrossed.type) return undefined;
  const alert = envelope.data;
  return {
    sourceEventId: envelope.id,
    ownerType: 'team',
    ownerId: alert.teamId,
    type: 'team.credit.threshold.crossed',
    // Exactly the spec's fields: internal ones (periodStart) stay internal.
    data: {
      teamId: alert.teamId,
      thresholdUnit: alert.thresholdUnit,
      thresholdValue: alert.thresholdValue,
      remainingCreativeUnits: alert.remainingCreativeUnits,
      totalPeriodCreativeUnits: alert.totalPeriodCreativeUnits,
    },
    version: CREDIT_EVENT_VERSION,
  };
}

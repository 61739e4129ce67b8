import type { OwnerType } from '../owners/webhook-owner';
import { ALL_EVENTS, ownerTypeOfEvent } from './event-types';

/** Why a requested `enabledEvents` list cannot be stored. */
export type SubscriptionProblem =
  | { kind: 'empty' }
  | { kind: 'unknown'; types: string[] }
  | { kind: 'wildcard-combined' }
  /** Types of the other owner kind (a team type on a project endpoint, or the reverse, or a mix). */
  | { kind: 'wrong-owner'; types: string[] };

export type SubscriptionCheck = { ok: true; events: string[] } | { ok: false; problem: SubscriptionProblem };

/**
 * Checks an endpoint's subscription against the catalog: non-empty, every
 * entry a known type of the owner's kind, or `*` alone. Duplicates are dropped
 * (order kept), since a set is what the list means. Unknown types are reported
 * before wrong-kind ones: a typo is a malformed request (400), a known type of
 * the other kind a semantic refusal (422).
 */
export function checkSubscription(ownerType: OwnerType, requested: readonly string[]): SubscriptionCheck {
  const events = [...new Set(requested)];
  if (events.length === 0) return { ok: false, problem: { kind: 'empty' } };
  const unknown = events.filter((t) => t !== ALL_EVENTS && !ownerTypeOfEvent(t));
  if (unknown.length) return { ok: false, problem: { kind: 'unknown', types: unknown } };
  const wrongOwner = events.filter((t) => t !== ALL_EVENTS && ownerTypeOfEvent(t) !== ownerType);
  if (wrongOwner.length) return { ok: false, problem: { kind: 'wrong-owner', types: wrongOwner } };
  if (events.includes(ALL_EVENTS) && events.length > 1)
    return { ok: false, problem: { kind: 'wildcard-combined' } };
  return { ok: true, events };
}

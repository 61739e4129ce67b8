// The one place mapping internal facts to public webhook events (spec: Events).
export * from './event-types';
export { checkSubscription, type SubscriptionCheck, type SubscriptionProblem } from './subscription';
export { eventBody, type EventBody, type PublicEvent } from './public-event';
export { JOB_EVENT_TABLE, publicJobEvent, jobEventData } from './job-events';
export { CREDIT_EVENT_VERSION, publicTeamEvent } from './team-events';

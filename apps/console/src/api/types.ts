// The shapes the console reads, as /v1/openapi.json documents them (only the fields it shows).

export interface Asset {
  id: string;
  url: string;
  mimeType: string;
  kind: string;
  source: string;
  status: string;
  privacy: string;
  tags: string[];
  collectionIds: string[];
  metadata: {
    type: string;
    kind: string;
    name?: string;
    parentId?: string;
    rootParentId?: string;
    parentJobId?: string;
  };
  properties: { width?: number; height?: number; size?: number; format?: string };
  createdAt: string;
  updatedAt: string;
}

export interface AssetList {
  assets: Asset[];
  nextPaginationToken?: string;
}

export interface Collection {
  id: string;
  name: string;
  assetCount: number;
  modelCount: number;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface JobStatusEntry {
  date: string;
  status: string;
}

export interface Job {
  jobId: string;
  jobType: string;
  status: string;
  progress: number;
  statusHistory: JobStatusEntry[];
  metadata: { input: Record<string, unknown>; output: Record<string, unknown>; assetIds: string[] };
  createdAt: string;
  updatedAt: string;
}

export const FINAL_JOB_STATUSES = ['success', 'failure', 'canceled'];

export interface WebhookEndpoint {
  id: string;
  ownerId: string;
  ownerType: 'project' | 'team';
  url: string;
  enabledEvents: string[];
  enabled: boolean;
  description?: string;
  nbTotalCalls: number;
  nbFailedCalls: number;
  createdAt: string;
  secret?: string;
}

export interface WebhookAttempt {
  responseStatusCode: number;
  sentAt: string;
}

export interface WebhookEvent {
  id: string;
  endpointId: string;
  type: string;
  status: 'created' | 'retrying' | 'success' | 'failed';
  payload: Record<string, unknown>;
  attempts: WebhookAttempt[];
  createdAt: string;
  sentAt: string;
  /** A resend: the delivery it repeats. */
  resendOf?: string;
}

export interface CreditUsage {
  teamId: string;
  metered: boolean;
  periodStart: string | null;
  periodEnd: string | null;
  totalPeriodCreativeUnits: number | null;
  remainingCreativeUnits: number | null;
  usedCreativeUnits: number;
}

export interface CreditAlertThreshold {
  unit: 'percent' | 'absolute';
  value: number;
  armed?: boolean;
  lastCrossedAt?: string | null;
}

import { Injectable, Logger } from '@nestjs/common';
import type { JobTx } from '../jobs/job.repository';

export const CREDIT_LEDGER = Symbol('job-service.credit-ledger');

/** What a charge or refund concerns: one job of one team. */
export interface CreditEntry {
  readonly jobId: string;
  readonly teamId: string;
  readonly projectId: string;
  readonly units: number;
}

/**
 * The creative-unit ledger seen from the job lifecycle. Both calls run inside
 * the job's own transaction (`tx`), so a job exists if and only if it was
 * charged, and a refund commits with the failure or cancel that caused it.
 * `charge` may throw (InternalApiError 402 once balances exist) to refuse the
 * job: the transaction then rolls back and nothing is created.
 */
export interface CreditLedger {
  charge(tx: JobTx, entry: CreditEntry): Promise<void>;
  refund(tx: JobTx, entry: CreditEntry & { readonly reason: 'failure' | 'canceled' }): Promise<void>;
}

/**
 * Until plans and balances exist: the cost is recorded on the job
 * (`creative_units_cost`, written by the job insert itself) and nothing is
 * refused. The hook points are where the balance step plugs in.
 */
@Injectable()
export class RecordingCreditLedger implements CreditLedger {
  private readonly logger = new Logger('CreditLedger');

  async charge(_tx: JobTx, entry: CreditEntry): Promise<void> {
    if (entry.units > 0)
      this.logger.debug(
        `job ${entry.jobId}: ${entry.units} creative units recorded for team ${entry.teamId}`,
      );
  }

  async refund(_tx: JobTx, entry: CreditEntry & { reason: 'failure' | 'canceled' }): Promise<void> {
    if (entry.units > 0)
      this.logger.debug(`job ${entry.jobId}: ${entry.units} creative units to refund (${entry.reason})`);
  }
}

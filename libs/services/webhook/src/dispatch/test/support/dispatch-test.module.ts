import { Module } from '@nestjs/common';
import { DispatchModule } from '../../dispatch.module';
import { RetentionModule } from '../../../retention/retention.module';

/** The delivery worker and the retention purge on their own, as the dispatcher process composes them. */
@Module({ imports: [DispatchModule, RetentionModule] })
export class DispatchTestModule {}

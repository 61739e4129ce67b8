import { IsInt, IsString, Matches, Min } from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

/**
 * A diagnostic fact: "subject reached sequence n". Used to prove the outbox →
 * broker → inbox path end to end (integration tests, bench/outbox, smoke checks).
 */
export class ProbeRecordedData {
  @IsString()
  @Matches(/^[\w.:-]{1,100}$/)
  subject!: string;

  @IsInt()
  @Min(0)
  sequence!: number;

  @IsInt()
  @Min(1)
  amount!: number;
}

export const ProbeRecorded = defineEvent({
  type: 'probe.recorded',
  topic: TOPICS.platformProbe,
  payload: ProbeRecordedData,
  keyField: 'subject',
});

import 'reflect-metadata';
import { createEnvelope, ProbeRecorded } from '@genasset/contracts';

/** The bench's event: a ProbeRecorded envelope, the same bytes in both measurements. */
export function probeEnvelope(prefix: string, subjects: number, index: number) {
  const subject = `${prefix}-s${index % subjects}`;
  return createEnvelope(
    ProbeRecorded,
    { subject, sequence: Math.floor(index / subjects), amount: (index % 7) + 1 },
    { producer: 'bench' },
  );
}

export function rate(events: number, ms: number): number {
  return Math.round(events / (ms / 1000));
}

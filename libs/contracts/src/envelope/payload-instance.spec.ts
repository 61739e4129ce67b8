import { Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { JobLifecycleData } from '../events/job-lifecycle.events';
import { JobOutputsProducedData } from '../events/job-outputs.events';
import { ProbeRecordedData } from '../events/probe.events';
import { EVENT_DEFINITIONS } from '../events/registry';
import { JOB_SUCCEEDED_SAMPLE } from './__fixtures__/job-lifecycle.sample';
import { toPayloadInstance } from './payload-instance';

class Part {
  @IsString() name!: string;
  @IsInt() count!: number;
}

class Sample {
  @IsString() id!: string;
  @IsOptional() @IsString({ each: true }) tags?: string[];
  @IsOptional() @ValidateNested() @Type(() => Part) part?: Part;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Part) parts?: Part[];
  @IsOptional() meta?: Record<string, unknown>;
}

class Transformed {
  @Transform(({ value }) => String(value).toUpperCase()) code!: string;
}

class Exposed {
  @Expose({ name: 'n' }) name!: string;
}

class Dated {
  @Type(() => Date) at!: Date;
}

class HoldsTransformed {
  @IsString() id!: string;
  @Type(() => Transformed) inner?: Transformed;
}

/** Same result as class-transformer: equal values, the same classes at every level. */
function expectSameAsClassTransformer<T extends object>(cls: new () => T, plain: object): T {
  const ours = toPayloadInstance(cls, JSON.parse(JSON.stringify(plain)) as object);
  const theirs = plainToInstance(cls, JSON.parse(JSON.stringify(plain)) as object);
  expect(ours).toStrictEqual(theirs);
  return ours;
}

describe('toPayloadInstance', () => {
  const good = {
    id: 's_1',
    tags: ['a', 'b'],
    part: { name: 'p', count: 2 },
    parts: [{ name: 'q', count: 1 }, null, 3],
    meta: { deep: { x: [1, { y: 2 }] } },
  };

  it.each<[string, object]>([
    ['nested and arrays of @Type classes', good],
    ['absent optional fields', { id: 's_1' }],
    ['nulls', { id: 's_1', part: null, parts: null, tags: null }],
    ['unknown extra fields', { ...good, extra: { a: 1 }, list: [{ b: 2 }] }],
    ['wrong shapes (validation decides later)', { id: 5, part: 'p', parts: { name: 'x' }, tags: 'x' }],
  ])('%s: the same instance as plainToInstance', (_what, plain) => {
    const instance = expectSameAsClassTransformer(Sample, plain);
    expect(instance).toBeInstanceOf(Sample);
  });

  it('builds nested @Type values as their classes', () => {
    const instance = toPayloadInstance(Sample, JSON.parse(JSON.stringify(good)) as object);
    expect(instance.part).toBeInstanceOf(Part);
    expect(instance.parts?.[0]).toBeInstanceOf(Part);
  });

  it('never copies __proto__ or constructor keys', () => {
    const plain = JSON.parse('{"id":"s_1","__proto__":{"polluted":true},"constructor":{"x":1}}') as object;
    const instance = toPayloadInstance(Sample, plain) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(instance)).toBe(Sample.prototype);
    expect(instance.polluted).toBeUndefined();
    expect(Object.keys(instance)).not.toContain('constructor');
  });

  it.each<[string, new () => object, object]>([
    ['@Transform', Transformed, { code: 'abc' }],
    ['@Expose with a name', Exposed, { n: 'x' }],
    ['@Type(() => Date)', Dated, { at: '2026-11-21T10:00:00.000Z' }],
    ['a nested class using @Transform', HoldsTransformed, { id: 'a', inner: { code: 'abc' } }],
  ])('leaves %s to class-transformer, with its result', (_what, cls, plain) => {
    expectSameAsClassTransformer(cls, plain);
  });

  it('gives the real contracts the same payload instances', () => {
    expectSameAsClassTransformer(ProbeRecordedData, { subject: 's', sequence: 1, amount: 2 });
    expectSameAsClassTransformer(JobLifecycleData, JOB_SUCCEEDED_SAMPLE);
    expectSameAsClassTransformer(JobOutputsProducedData, {
      jobId: 'job_01ABC',
      jobType: 'pixelate',
      tenant: { teamId: 'team_1', projectId: 'proj_1', authorId: 'key_1' },
      outputs: [
        { key: 'jobs/job_01ABC/0.png', mimeType: 'image/png', assetType: 'pixelization', metadata: {} },
      ],
      extra: { palette: [[1, 2, 3]] },
    });
    for (const definition of EVENT_DEFINITIONS)
      expectSameAsClassTransformer(definition.payload as new () => object, {});
  });
});

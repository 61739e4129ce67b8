import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf, ValidateNested, validateSync, IsDefined } from 'class-validator';
import { JobLifecycleData } from '../events/job-lifecycle.events';
import { JOB_SUCCEEDED_SAMPLE } from './__fixtures__/job-lifecycle.sample';
import { passesCompiledChecks } from './payload-check';

class Part {
  @IsString() name!: string;
  @IsInt() @Min(1) count!: number;
}

class Sample {
  @IsString() @Matches(/^s_[a-z]+$/) id!: string;
  @IsIn(['a', 'b']) kind!: string;
  @IsOptional() @IsInt() @Min(0) @Max(10) level?: number;
  @IsOptional() @IsString({ each: true }) tags?: string[];
  @IsOptional() @ValidateNested() @Type(() => Part) part?: Part;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Part) parts?: Part[];
  @ValidateIf((o: Sample) => o.kind === 'b') @IsString() onlyForB?: string;
}

class WithDefined {
  @IsDefined() value?: string;
}

const classValidatorAccepts = (value: object) => validateSync(value, { whitelist: false, forbidUnknownValues: false }).length === 0;

describe('passesCompiledChecks', () => {
  const good = { id: 's_abc', kind: 'a', level: 3, tags: ['x'], part: { name: 'p', count: 2 }, parts: [{ name: 'q', count: 1 }] };
  const variants: [string, object][] = [
    ['valid', good],
    ['valid, optional fields absent', { id: 's_abc', kind: 'a' }],
    ['valid, optional fields null', { id: 's_abc', kind: 'a', level: null, part: null }],
    ['valid, conditional field skipped for kind a', { ...good, onlyForB: 5 }],
    ['unknown extra fields', { ...good, extra: { deep: true } }],
    ['pattern mismatch', { ...good, id: 'x_abc' }],
    ['not in the list', { ...good, kind: 'c' }],
    ['out of range', { ...good, level: 11 }],
    ['not an int', { ...good, level: 1.5 }],
    ['number as string', { ...good, level: '3' }],
    ['one tag not a string', { ...good, tags: ['x', 1] }],
    ['tags not an array', { ...good, tags: 'x' }],
    ['nested invalid', { ...good, part: { name: 'p', count: 0 } }],
    ['nested not an object', { ...good, part: 'p' }],
    ['an array item invalid', { ...good, parts: [{ name: 'q', count: 1 }, { name: 2, count: 1 }] }],
    ['conditional field required for kind b', { ...good, kind: 'b' }],
    ['conditional field given for kind b', { ...good, kind: 'b', onlyForB: 'yes' }],
    ['required field missing', { kind: 'a' }],
  ];

  it.each(variants)('%s: says valid exactly when class-validator does', (_what, plain) => {
    const instance = plainToInstance(Sample, plain);
    expect(passesCompiledChecks(instance)).toBe(classValidatorAccepts(instance));
  });

  it('accepts a real contract payload with a nested output', () => {
    const data = plainToInstance(JobLifecycleData, JOB_SUCCEEDED_SAMPLE);
    expect(passesCompiledChecks(data)).toBe(true);
    expect(passesCompiledChecks(plainToInstance(JobLifecycleData, { ...data, output: { assetIds: [1] } }))).toBe(false);
  });

  it('leaves classes using decorators it does not model to class-validator', () => {
    expect(passesCompiledChecks(plainToInstance(WithDefined, { value: 'x' }))).toBe(false);
  });
});

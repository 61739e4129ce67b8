import { randomBytes } from 'node:crypto';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { JobPrisma } from '../src/job.prisma';
import { JOB_SCHEMA } from '../src/job.schema';
import { IdempotencyConflict, JobRepository, type JobRecord, type NewJob } from '../src/jobs/job.repository';

// The repository reads and writes jobs with raw SQL (one statement each) but must return exactly
// what Prisma's model API returns for the same row: a column added to the Job model and not to
// the SQL fails here.
describe('JobRepository returns jobs exactly as Prisma reads them', () => {
  let database: TestDatabase;
  let connection: PostgresConnection;
  let prisma: JobPrisma;
  let jobs: JobRepository;
  const asPrismaReadsIt = (id: string) =>
    prisma.job.findUniqueOrThrow({ where: { id }, include: { history: { orderBy: { id: 'asc' } } } });
  const newJob = (overrides: Partial<NewJob> = {}): NewJob => ({
    id: `job_${randomBytes(8).toString('hex')}`,
    jobType: 'pixelate',
    kind: 'generation',
    status: 'queued',
    teamId: 'team_1',
    projectId: 'proj_1',
    authorId: 'key_1',
    modelId: 'model_1',
    input: { image: 'asset_1', pixelGridSize: 16, nested: { a: [1, 2] } },
    creativeUnitsCost: 3,
    idempotencyKey: `key-${randomBytes(4).toString('hex')}`,
    hideResults: true,
    at: new Date('2026-11-21T10:00:00.123Z'),
    ...overrides,
  });

  beforeAll(async () => {
    database = await createTestDatabase('job_repository');
    connection = new PostgresConnection(database.url, { poolSize: 2 });
    await migrate(connection, JOB_SCHEMA);
    prisma = new JobPrisma(connection);
    jobs = new JobRepository(prisma, connection);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await connection?.close();
    await database?.drop();
  });

  it('insert, lock and apply (progress, status, output, asset ids, failure reason)', async () => {
    const created = await jobs.transaction((tx) => jobs.insert(tx, newJob()));
    expect(created).toEqual(await asPrismaReadsIt(created.id));

    const locked = await jobs.transaction((tx) => jobs.lock(tx, created.id));
    expect(locked).toEqual(await asPrismaReadsIt(created.id));

    const progressed = await jobs.transaction(async (tx) =>
      jobs.apply(tx, (await jobs.lock(tx, created.id))!, {
        progress: 0.25,
        at: new Date('2026-11-21T10:00:01.5Z'),
      }),
    );
    expect(progressed).toEqual(await asPrismaReadsIt(created.id));
    expect(progressed.history).toHaveLength(1);

    let current: JobRecord = progressed;
    for (const change of [
      { progress: 0.5, status: 'in-progress' as const, at: new Date('2026-11-21T10:00:02Z') },
      {
        progress: 1,
        status: 'success' as const,
        output: { engine: 'image', assetIds: ['asset_9'] },
        assetIds: ['asset_9'],
        at: new Date('2026-11-21T10:00:03Z'),
      },
    ]) {
      current = await jobs.transaction(async (tx) =>
        jobs.apply(tx, (await jobs.lock(tx, created.id))!, change),
      );
      expect(current).toEqual(await asPrismaReadsIt(created.id));
    }
    expect(current.history.map((h) => h.status)).toEqual(['queued', 'in-progress', 'success']);

    const failed = await jobs.transaction(async (tx) => {
      const job = await jobs.insert(
        tx,
        newJob({ idempotencyKey: undefined, authorId: undefined, modelId: undefined }),
      );
      return jobs.apply(tx, job, {
        progress: 0,
        status: 'failure',
        failureReason: 'GPU on fire',
        at: new Date(),
      });
    });
    expect(failed).toEqual(await asPrismaReadsIt(failed.id));
    expect(failed).toMatchObject({
      failureReason: 'GPU on fire',
      assetIds: [],
      authorId: null,
      modelId: null,
    });
  });

  it('an unknown job locks nothing; a reused idempotency key raises IdempotencyConflict and writes nothing', async () => {
    expect(await jobs.transaction((tx) => jobs.lock(tx, 'job_missing'))).toBeUndefined();
    const first = await jobs.transaction((tx) => jobs.insert(tx, newJob({ idempotencyKey: 'same' })));
    const second = newJob({ idempotencyKey: 'same' });
    await expect(jobs.transaction((tx) => jobs.insert(tx, second))).rejects.toBeInstanceOf(
      IdempotencyConflict,
    );
    expect(await prisma.job.findUnique({ where: { id: second.id } })).toBeNull();
    expect(await asPrismaReadsIt(first.id)).toMatchObject({ idempotencyKey: 'same' });
  });
});

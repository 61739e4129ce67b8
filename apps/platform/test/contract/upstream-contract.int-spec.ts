import { randomBytes } from 'node:crypto';
import { SERVICES } from '@genasset/service-catalog';
import { startServiceHarness, UpstreamContract, type OpenApiDocument, type ServiceHarness } from '@genasset/testing';
import { CONTRACT_ENTRIES } from './contract-entries';
import { makeFixtures, type Fixtures } from './contract-fixtures';

jest.setTimeout(120_000);

/**
 * The product's answers decode with the upstream API reference: every
 * upstream operation the product serves is called with valid input on every
 * service in one process (as `npm start` runs them; the real PostgreSQL,
 * broker and S3 server), and each answer is validated against the upstream
 * response schema of its status (required properties, types, enums), as a
 * client generated from upstream would decode it.
 */
describe('answers decode with the upstream API reference', () => {
  const contract = UpstreamContract.load();
  let harness: ServiceHarness;
  let served: string[];
  let f: Fixtures;

  beforeAll(async () => {
    harness = await startServiceHarness({
      services: SERVICES,
      env: {
        INTERNAL_API_TOKEN: `int_${randomBytes(16).toString('base64url')}`,
        // Long enough for a training to be cancelled while it runs (50 epochs), short for the 1-epoch fixture.
        INFERENCE_TRAINER_STEP_DELAY: '200ms',
      },
    });
    served = contract.servedBy((await harness.request('GET', '/v1/openapi.json')).body as OpenApiDocument);
    f = await makeFixtures(harness);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('exercises every upstream operation the product serves, and only those', () => {
    const exercised = new Set(CONTRACT_ENTRIES.map((e) => e.operation));
    expect(served.filter((operation) => !exercised.has(operation))).toEqual([]);
    expect([...exercised].filter((operation) => !served.includes(operation))).toEqual([]);
  });

  it.each(CONTRACT_ENTRIES.map((e) => [`${e.operation}${e.note ? ` (${e.note})` : ''}`, e] as const))(
    '%s',
    async (_name, { operation, call }) => {
      const c = await call(f);
      const method = operation.split(' ')[0];
      const res = await harness.request(method, c.path, {
        ...(c.auth === null ? {} : { auth: c.auth ?? f.auth }),
        ...(c.body === undefined ? {} : { body: c.body }),
      });
      const answer = { status: res.status, problems: contract.check(operation, res.status, res.body, { definition: c.definition }) };
      expect(answer).toEqual({ status: c.status ?? 200, problems: [] });
    },
  );
});

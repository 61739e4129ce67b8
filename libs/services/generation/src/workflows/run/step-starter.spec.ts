import { InternalApiError } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { refusesStep } from './step-starter';

describe('refusesStep', () => {
  it("fails the run for the step's own faults: a refused body, a missing asset, a reused key", () => {
    expect(refusesStep(ApiError.validation([{ field: 'image', messages: ['bad'] }]))).toBe(true);
    expect(refusesStep(ApiError.notFound('asset asset_x not found', 'image'))).toBe(true);
    expect(refusesStep(new ApiError(409, 'conflict', 'key reused'))).toBe(true);
  });

  it('retries what is not the step: a peer unavailable or overloaded, a timeout, the database', () => {
    expect(refusesStep(new ApiError(503, 'service_unavailable', 'job-service unavailable'))).toBe(false);
    expect(refusesStep(new ApiError(429, 'too_many_requests', 'slow down'))).toBe(false);
    expect(refusesStep(ApiError.internal(new Error('boom')))).toBe(false);
    expect(refusesStep(new Error('Transaction API error: Transaction already closed'))).toBe(false);
    expect(refusesStep(new InternalApiError(502, 'bad_gateway', 'peer down'))).toBe(false);
  });
});

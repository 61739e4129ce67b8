// Integration tests start processes and talk to real services: a 5 s default
// would flake on 2-core CI machines. (A `testTimeout` in a Jest *project* config is ignored.)
jest.setTimeout(120_000);
// The test broker (librdkafka's mock cluster) holds an empty fetch for the consumer's full wait even
// when data arrives: the production default (1 s) would add up to 1 s per event hop. Processes the
// tests start inherit it (they spread process.env). scripts/lib/services.mjs sets the same.
process.env.KAFKA_FETCH_MAX_WAIT ??= '100ms';

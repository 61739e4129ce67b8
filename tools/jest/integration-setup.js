// Integration tests start processes and talk to real services: a 5 s default
// would flake on 2-core CI machines. (A `testTimeout` in a Jest *project* config is ignored.)
jest.setTimeout(120_000);

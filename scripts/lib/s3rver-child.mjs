// Runs s3rver in its own process (spawned by s3rver.mjs) so the S3 server's
// event loop never competes with the test runner's, and stops with its parent.
import S3rver from 's3rver';
import { addMultipartOperations } from './s3rver-multipart.mjs';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
addMultipartOperations(server);
const { port } = await server.run();
process.send({ port });

// The IPC channel closes when the parent goes, even on SIGKILL: nothing outlives the run.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => {
  server.close().finally(() => process.exit(0));
});

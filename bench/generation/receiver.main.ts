/**
 * bench/generation receiver: its own process, so its CPU is not the bench's.
 * Answers every POST 200 at once (keep-alive) and, per job, remembers when
 * its generation.completed (or generation.failed) webhook arrived.
 * GET /arrivals → {completed: {jobId: ms}, failed: {jobId: ms}, requests}.
 * Prints `LISTENING <port>`.
 */
import { createServer } from 'node:http';

const completed = new Map<string, number>();
const failed = new Map<string, number>();
let requests = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ completed: Object.fromEntries(completed), failed: Object.fromEntries(failed), requests }),
    );
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    requests++;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { jobId?: string } };
      const jobId = body.data?.jobId;
      const into = body.type === 'generation.completed' ? completed : body.type === 'generation.failed' ? failed : undefined;
      if (jobId && into && !into.has(jobId)) into.set(jobId, at);
    } catch {
      // not JSON: counted, nothing else
    }
    res.writeHead(200, { 'content-length': '0' });
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`LISTENING ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

/**
 * bench/webhooks receiver: its own process, so its CPU is not the bench's.
 * Answers every POST 200 at once (keep-alive) and counts them. For jobs whose
 * id starts with `job_L` (the latency run) it remembers when the delivery
 * arrived. GET /count → {requests, timed}; GET /arrivals → {jobId: ms}.
 * Prints `LISTENING <port>`.
 */
import { createServer } from 'node:http';

const TIMED = '"jobId":"job_L';
const arrivals = new Map<string, number>();
let requests = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        req.url === '/arrivals' ? Object.fromEntries(arrivals) : { requests, timed: arrivals.size },
      ),
    );
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    requests++;
    const body = Buffer.concat(chunks).toString();
    // Only the latency run's bodies are parsed: the rest just count.
    if (body.includes(TIMED)) {
      const jobId = (JSON.parse(body) as { data: { jobId: string } }).data.jobId;
      if (!arrivals.has(jobId)) arrivals.set(jobId, at);
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

import { readFile } from 'node:fs/promises';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  createDeduper,
  DEFAULT_TOLERANCE_MS,
  parseEvent,
  RawBodyTooLargeError,
  readRawBody,
  signatureHeaderOf,
  verify,
  WebhookPayloadError,
} from '@genasset/webhooks';

type Print = (value: unknown, json: boolean) => void;

interface Common {
  secret: string;
  tolerance: number;
  json?: boolean;
}

/** `300s`, `5m`, `1h`, `250ms`; a bare number is seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new InvalidArgumentError('expected a duration such as 300s, 5m or 250ms');
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('expected a port between 0 and 65535');
  return port;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const withCommon = (cmd: Command) =>
  cmd
    .addOption(
      new Option('--secret <secret>', 'endpoint secret, whole (whsec_…)')
        .env('WEBHOOK_SECRET')
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--tolerance <duration>', 'maximum signature age, e.g. 300s, 5m')
        .default(DEFAULT_TOLERANCE_MS, '300s')
        .argParser(parseDuration),
    )
    .option('--json', 'print JSON');

/**
 * `cli webhooks verify|listen`: check a delivery by hand, or run a local receiver that
 * verifies what the service (or a tunnel to it) posts. `signal` stops `listen` (tests);
 * Ctrl-C does the same from a terminal.
 */
export function webhooksCommand(print: Print, options: { signal?: AbortSignal } = {}): Command {
  const webhooks = new Command('webhooks').description(
    'Verify and receive signed webhook deliveries (X-SERVICE-SIGNATURE)',
  );

  withCommon(
    webhooks
      .command('verify')
      .description('Verify one delivery: exit code 0 when valid, 1 when not')
      .requiredOption('--header <value>', 'the X-SERVICE-SIGNATURE value, <timestamp>.<signature>')
      .requiredOption('--body-file <path>', 'file holding the exact request body ("-" for stdin)'),
  ).action(async (o: Common & { header: string; bodyFile: string }) => {
    const body = o.bodyFile === '-' ? await readStdin() : await readFile(o.bodyFile);
    const header = o.header.replace(/^\s*x-service-signature\s*:\s*/i, '');
    const result = verify(body, header, o.secret, { toleranceMs: o.tolerance });
    if (result.ok) {
      const signedAt = new Date(result.timestamp).toISOString();
      print(o.json ? { valid: true, signedAt } : `valid (signed at ${signedAt})`, Boolean(o.json));
      return;
    }
    process.exitCode = 1;
    // Editors append a newline the service never sent: say so rather than leave a bare mismatch.
    const trimmed = body.subarray(
      0,
      body.length - (body.at(-1) === 0x0a ? (body.at(-2) === 0x0d ? 2 : 1) : 0),
    );
    const hint =
      result.reason === 'signature_mismatch' &&
      trimmed.length < body.length &&
      verify(trimmed, header, o.secret, { toleranceMs: o.tolerance }).ok
        ? 'the signature matches the body without the file’s trailing newline'
        : undefined;
    print(
      o.json
        ? { valid: false, reason: result.reason, hint }
        : `invalid: ${result.reason}${hint ? ` (${hint})` : ''}`,
      Boolean(o.json),
    );
  });

  withCommon(
    webhooks
      .command('listen')
      .description(
        'Run a local receiver: verify each POST, print one line per event, answer 200 (400 when rejected)',
      )
      .requiredOption('--port <port>', 'port to listen on (0: any free port)', parsePort)
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--path <path>', 'path receiving the POSTs', '/'),
  ).action(async (o: Common & { port: number; host: string; path: string }) => {
    const json = Boolean(o.json);
    const dedupe = createDeduper();
    const report = (at: string, line: string, value: Record<string, unknown>) =>
      print(json ? { receivedAt: at, ...value } : `${at} ${line}`, json);

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      const at = new Date().toISOString();
      const answer = (status: number, body: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body));
      };
      const path = new URL(req.url ?? '/', 'http://receiver').pathname;
      if (path !== o.path || req.method !== 'POST') {
        report(at, `ignored: ${req.method} ${path} (receiving POST ${o.path})`, {
          ignored: `${req.method} ${path}`,
        });
        return path !== o.path
          ? answer(404, { error: 'not_found' })
          : answer(405, { error: 'method_not_allowed' });
      }
      let raw: Buffer;
      try {
        raw = await readRawBody(req);
      } catch (error) {
        res.setHeader('connection', 'close');
        const reason = error instanceof RawBodyTooLargeError ? 'body_too_large' : 'body_unreadable';
        report(at, `rejected: ${reason}`, { rejected: reason });
        return answer(error instanceof RawBodyTooLargeError ? 413 : 400, {
          error: 'webhook_rejected',
          reason,
        });
      }
      const result = verify(raw, signatureHeaderOf(req.headers), o.secret, { toleranceMs: o.tolerance });
      if (!result.ok) {
        report(at, `rejected: ${result.reason}`, { rejected: result.reason });
        return answer(400, { error: 'webhook_rejected', reason: result.reason });
      }
      try {
        const event = parseEvent(raw);
        const duplicate = dedupe.seen(event.id);
        if (json) print(event, true);
        else print(`${at} ${event.id} ${event.type} verified${duplicate ? ' (duplicate)' : ''}`, false);
        answer(200, { received: true });
      } catch (error) {
        if (!(error instanceof WebhookPayloadError)) throw error;
        report(at, 'rejected: invalid_payload', { rejected: 'invalid_payload' });
        answer(400, { error: 'webhook_rejected', reason: 'invalid_payload' });
      }
    };

    const server = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end();
        process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}${o.path}`;
    print(json ? { listening: url } : `listening on ${url} (Ctrl-C to stop)`, json);

    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        options.signal?.removeEventListener('abort', stop);
        server.close(() => resolve());
        server.closeAllConnections();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    });
  });

  return webhooks;
}

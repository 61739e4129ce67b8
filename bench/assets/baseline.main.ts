/**
 * The baseline: a bare Fastify server with a pg pool of the service's size,
 * answering GET /v1/assets with the SQL the service runs (the same builder,
 * hence the same text and parameters) and the rows as JSON. No auth, no
 * validation, no views or signed URLs: what the hardware gives for this query.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';
import { buildListQuery } from '../../libs/services/asset/src/assets/asset-list.repository';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const projectId = process.env.BENCH_PROJECT_ID!;
const app = Fastify({ logger: false });

app.get<{ Querystring: { pageSize?: string; type?: string } }>('/v1/assets', async (request) => {
  const pageSize = Number(request.query.pageSize ?? 50);
  const query = buildListQuery({
    scope: { kind: 'project', projectId },
    types: request.query.type ? [request.query.type] : [],
    sortBy: 'createdAt',
    direction: 'desc',
    limit: pageSize + 1,
  });
  const { rows } = await pool.query(query.text, query.values);
  return { assets: rows.slice(0, pageSize) };
});

app
  .listen({ port: 0, host: '127.0.0.1' })
  .then((address) => console.log(`READY ${address}`))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });

/**
 * The baseline: a bare Fastify server that answers precomputed bodies, one per workload, so each
 * workload is compared with an answer of its own size. It does what stockmock does minus all the
 * work, so the ratio of the two is stockmock's own cost.
 * Usage: node bench/bare-server.ts BODIES_FILE PORT [--log], where BODIES_FILE holds a JSON
 * array of strings and GET /N answers the Nth. With --log it logs each request at info, as
 * stockmock does at its default level, to standard output.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodiesFile, port, flag] = process.argv.slice(2);
if (bodiesFile === undefined || port === undefined)
  throw new Error('usage: bare-server.ts BODIES_FILE PORT [--log]');
const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as string[];
const app = Fastify({ logger: flag === '--log' ? { level: 'info' } : false });
app.get('/healthz', (_request, reply) => {
  reply.send('ok');
});
app.get<{ Params: { index: string } }>('/:index', (request, reply) => {
  reply.type('application/json; charset=utf-8').send(bodies[Number(request.params.index)] ?? '{}');
});
await app.listen({ host: '127.0.0.1', port: Number(port) });

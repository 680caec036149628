/**
 * The baseline: a bare Fastify server that answers every GET with one precomputed body. It does
 * what stockmock does minus all the work, so the ratio of the two is stockmock's own cost.
 * Usage: node bench/bare-server.ts BODY_FILE PORT
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodyFile, port] = process.argv.slice(2);
if (bodyFile === undefined || port === undefined)
  throw new Error('usage: bare-server.ts BODY_FILE PORT');
const body = readFileSync(bodyFile, 'utf8');
const app = Fastify({ logger: false });
app.get('/*', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: Number(port) });

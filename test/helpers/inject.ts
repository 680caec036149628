/** @module app.inject with the spec check applied to every answer, for fast HTTP tests. */
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { RecordedResponse } from '../../src/spec/response-validator.ts';
import { expectMatchesSpec } from './expect-spec.ts';

export async function injectChecked(
  app: FastifyInstance,
  options: InjectOptions & { url: string },
): Promise<RecordedResponse & { json: () => Record<string, unknown> }> {
  const response = await app.inject(options);
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([key, value]) => [key, String(value)]),
  );
  const type = headers['content-type'] ?? '';
  const body =
    response.body === ''
      ? undefined
      : /[/+]json\b/.test(type)
        ? response.json<unknown>()
        : response.body;
  const recorded = { status: response.statusCode, headers, body };
  await expectMatchesSpec(options.method ?? 'GET', options.url, recorded);
  return { ...recorded, json: () => body as Record<string, unknown> };
}

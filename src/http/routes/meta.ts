/** @module /healthz, /openapi.json and /openapi.yaml: open to all. */
import { stringify } from 'yaml';
import type { LoadedSpec } from '../../spec/load-spec.ts';
import { JSON_TYPE, type OperationHandler } from '../operation-handler.ts';

/** Stands for the origin in the rendered spec; no spec holds it (its NULs cannot be typed). */
const ORIGIN = '\u0000origin\u0000';

export function metaHandlers(spec: LoadedSpec): Record<string, OperationHandler> {
  // The served spec's only server is this stockmock, at the origin its links use (the base URL,
  // else the request's), so that a client generated from it calls this server on any port:
  // the file's `http://localhost:4010` is right only on the default port.
  const served = { ...spec.document, servers: [{ url: ORIGIN, description: 'This stockmock' }] };
  // Rendered once around the origin: the spec does not change while the server runs. The YAML
  // only when first asked for: rendering it took 36 ms of every start, and most runs never ask.
  const json = JSON.stringify(served).split(JSON.stringify(ORIGIN));
  let yaml: string[] | undefined;
  // A double-quoted JSON string is also a YAML scalar: one escaping serves both.
  const fill = (parts: readonly string[], origin: string): string =>
    parts.join(JSON.stringify(origin));
  return {
    getHealth: (context) => ({ body: { status: 'ok', products: context.catalog.size } }),
    getOpenApiJson: (context) => ({ body: fill(json, context.origin()), type: JSON_TYPE }),
    getOpenApiYaml: (context) => ({
      body: fill((yaml ??= stringify(served).split(stringify(ORIGIN).trim())), context.origin()),
      type: 'application/yaml; charset=utf-8',
    }),
  };
}

/** @module /healthz, /openapi.json and /openapi.yaml: open to all. */
import { stringify } from 'yaml';
import type { LoadedSpec } from '../../spec/load-spec.ts';
import { JSON_TYPE, type OperationHandler } from '../operation-handler.ts';

export function metaHandlers(spec: LoadedSpec): Record<string, OperationHandler> {
  // Rendered once: the spec does not change while the server runs. The YAML only when first
  // asked for: rendering it took 36 ms of every start, and most runs never ask.
  const json = JSON.stringify(spec.document);
  let yaml: string | undefined;
  return {
    getHealth: (context) => ({ body: { status: 'ok', products: context.catalog.size } }),
    getOpenApiJson: () => ({ body: json, type: JSON_TYPE }),
    getOpenApiYaml: () => ({
      body: (yaml ??= stringify(spec.document)),
      type: 'application/yaml; charset=utf-8',
    }),
  };
}

/** @module /healthz, /openapi.json and /openapi.yaml: open to all. */
import { stringify } from 'yaml';
import type { LoadedSpec } from '../../spec/load-spec.ts';
import { JSON_TYPE, type OperationHandler } from '../operation-handler.ts';

export function metaHandlers(spec: LoadedSpec): Record<string, OperationHandler> {
  // Rendered once: the spec does not change while the server runs.
  const json = JSON.stringify(spec.document);
  const yaml = stringify(spec.document);
  return {
    getHealth: (context) => ({ body: { status: 'ok', products: context.catalog.size } }),
    getOpenApiJson: () => ({ body: json, type: JSON_TYPE }),
    getOpenApiYaml: () => ({ body: yaml, type: 'application/yaml; charset=utf-8' }),
  };
}

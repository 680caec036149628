/** @module The one judge of responses in tests: Prism's validation against spec/openapi.yaml. */
import { expect } from 'vitest';
import type { LoadedSpec } from '../../src/spec/load-spec.ts';
import {
  createResponseValidator,
  type RecordedResponse,
  type ResponseValidator,
} from '../../src/spec/response-validator.ts';
import { shippedSpecOnce } from './test-app.ts';

const validators = new WeakMap<LoadedSpec, Promise<ResponseValidator>>();

export async function validatorFor(spec?: LoadedSpec): Promise<ResponseValidator> {
  const loaded = spec ?? (await shippedSpecOnce());
  let validator = validators.get(loaded);
  if (validator === undefined) {
    validator = createResponseValidator(loaded);
    validators.set(loaded, validator);
  }
  return validator;
}

/** Fails the test with every finding when the response is not what the spec describes. */
export async function expectMatchesSpec(
  method: string,
  url: string,
  response: RecordedResponse,
): Promise<void> {
  const path = new URL(url, 'http://placeholder').pathname;
  const findings = (await validatorFor()).validate(method, path, response);
  expect(findings, `${method} ${url} → ${String(response.status)} does not match the spec`).toEqual(
    [],
  );
}

/** Reads a fetch Response into the shape the validator takes (JSON parsed by media type). */
export async function recordResponse(response: Response): Promise<RecordedResponse> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const headers = Object.fromEntries(response.headers.entries());
  const body =
    text === '' ? undefined : /[/+]json\b/.test(type) ? (JSON.parse(text) as unknown) : text;
  return { status: response.status, headers, body };
}

/** The problem catalogue, the spec and the README name the same problem types. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PROBLEMS } from '../../src/problems/problem-types.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const specText = await readFile(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8');
const answered = Object.values(PROBLEMS).filter((problem) => problem.status < 500);

describe('problem catalogue', () => {
  it.each(answered)('$type is declared in the spec with its status', async (problem) => {
    const spec = await shippedSpecOnce();
    const responses = Object.values(spec.document.components?.responses ?? {});
    const declared = responses.some((response) => JSON.stringify(response).includes(problem.type));
    expect(declared).toBe(true);
    expect(specText).toContain(`const: ${String(problem.status)}`);
  });

  it.each(Object.values(PROBLEMS))('$type is listed in the README', (problem) => {
    expect(readme).toContain(problem.type);
  });

  it('the spec declares no problem type the catalogue lacks', () => {
    const inSpec = new Set(specText.match(/urn:problem-type:stockmock:[a-z-]+/g));
    expect([...inSpec].sort()).toEqual(answered.map((problem) => problem.type).sort());
  });
});

describe('no telemetry', () => {
  it('package.json turns Scarf off for the project and its users', async () => {
    const pkg = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      scarfSettings?: { enabled?: boolean };
      allowScripts?: Record<string, boolean>;
    };
    expect(pkg.scarfSettings?.enabled).toBe(false);
    expect(pkg.allowScripts?.['@scarf/scarf']).toBe(false);
  });
});

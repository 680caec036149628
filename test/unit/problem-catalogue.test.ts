/** The problem catalogue, the spec and docs/behaviour.md name the same problem types. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_PROBLEMS,
  LIST_PROBLEMS,
  PROBLEMS,
  PROTOCOL_PROBLEMS,
  WRITE_PROBLEMS,
} from '../../src/problems/problem-types.ts';
import { ADMIN_SPEC, loadSpec } from '../../src/spec/load-spec.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';

const behaviour = await readFile(new URL('../../docs/behaviour.md', import.meta.url), 'utf8');
const specs = await Promise.all([shippedSpecOnce(), loadSpec(ADMIN_SPEC)]);
// INTERNAL is the one type no operation declares: a 500 is always a bug.
const answered = Object.values(PROBLEMS).filter((problem) => problem !== PROBLEMS.INTERNAL);

/** Every status code under which an operation of either spec answers with this problem type. */
function declaredStatuses(type: string): Set<string> {
  const codes = new Set<string>();
  for (const spec of specs) {
    for (const item of Object.values(spec.dereferenced.paths ?? {})) {
      for (const operation of Object.values(item ?? {})) {
        const responses = (operation as { responses?: Record<string, unknown> }).responses ?? {};
        for (const [code, response] of Object.entries(responses)) {
          if (JSON.stringify(response).includes(type)) codes.add(code);
        }
      }
    }
  }
  return codes;
}

describe('problem catalogue', () => {
  it.each(answered)('$type is declared by an operation under status $status', (problem) => {
    expect([...declaredStatuses(problem.type)]).toEqual([String(problem.status)]);
  });

  it.each([
    ...Object.values(PROBLEMS),
    ...Object.values(PROTOCOL_PROBLEMS),
    ...Object.values(EXAMPLE_PROBLEMS),
    ...Object.values(LIST_PROBLEMS),
    ...Object.values(WRITE_PROBLEMS),
  ])('$type is listed in docs/behaviour.md', (problem) => {
    expect(behaviour).toContain(problem.type);
  });

  it('no protocol or example problem shares a type with a problem of the operations', () => {
    const operations = new Set<string>(Object.values(PROBLEMS).map((problem) => problem.type));
    for (const problem of [
      ...Object.values(PROTOCOL_PROBLEMS),
      ...Object.values(EXAMPLE_PROBLEMS),
    ]) {
      expect(operations.has(problem.type)).toBe(false);
    }
  });

  it('the specs declare no problem type the catalogue lacks', () => {
    const inSpecs = new Set(
      specs.flatMap(
        (spec) => JSON.stringify(spec.document).match(/urn:problem-type:stockmock:[a-z-]+/g) ?? [],
      ),
    );
    expect([...inSpecs].sort()).toEqual(answered.map((problem) => problem.type).sort());
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

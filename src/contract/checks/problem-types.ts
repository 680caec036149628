/**
 * @module The `type` URIs of the problems a target answered with, against the stand-in's
 * setting: stockmock's URNs, `about:blank`, or a base URI of the service's own followed by the
 * problem's name. Neither the interface nor PRODUCT.md fixes these values (PRODUCT.md: "a real
 * service may use about:blank or its own"), so a difference is reported, with the setting that
 * matches it, and fails only where the user pins the types (`--pin-problem-types`): a team
 * whose clients dispatch on the type URIs may want that, and nobody else is failed for them.
 */
import type { CheckResult, Failure } from '../check.ts';
import type { Decided, StandIn } from '../stand-in.ts';

const STOCKMOCK_TYPES = 'urn:problem-type:stockmock:';

/** A URI with a scheme, as `compatibility.problemTypes` takes it. */
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s"]*$/;

/** The names stockmock gives its problems, which a base URI of the service's own precedes. */
const PROBLEM_NAMES = [
  'invalid-parameters',
  'unauthorized',
  'not-found',
  'method-not-allowed',
  'not-acceptable',
  'too-many-requests',
  'service-unavailable',
];

/** The setting the types fit, or what no setting covers. */
export function decideProblemTypes(types: readonly string[]): Decided | undefined {
  if (types.length === 0) return undefined;
  const described = `problem types ${types.slice(0, 6).join(', ')}`;
  if (types.every((type) => type === 'about:blank')) {
    return { setting: 'problemTypes', value: 'about:blank', seen: 'problem types are about:blank' };
  }
  if (types.every((type) => type.startsWith(STOCKMOCK_TYPES))) {
    return { setting: 'problemTypes', value: 'stockmock', seen: "problem types are stockmock's" };
  }
  const bases = new Set(
    types.map((type) => {
      const name = PROBLEM_NAMES.find((candidate) => type.endsWith(candidate));
      return name === undefined ? undefined : type.slice(0, type.length - name.length);
    }),
  );
  const [base] = bases;
  // A setting takes an absolute base only: relative type URIs (RFC 9457 allows them) resolve
  // against each answer's own URL, which no one base reproduces.
  if (bases.size === 1 && base !== undefined && ABSOLUTE.test(base)) {
    return {
      setting: 'problemTypes',
      value: base,
      seen: `problem types are ${base} followed by the problem's name`,
    };
  }
  return { uncovered: `${described}: no base URI followed by the problem's name` };
}

export function problemTypesResult(
  seen: ReadonlyMap<string, number>,
  standIn: StandIn,
  /** Whether a difference fails (`--pin-problem-types`), or is only reported. */
  pinned: boolean,
): CheckResult {
  const types = [...seen.keys()];
  const decided = decideProblemTypes(types);
  const want = standIn.settings.problemTypes;
  const fits = decided !== undefined && 'setting' in decided && decided.value === want;
  const differs = decided !== undefined && !fits;
  const failures: Failure[] =
    !differs || !pinned
      ? []
      : [
          {
            message: `The problem types differ from the stand-in's (${want === 'stockmock' ? STOCKMOCK_TYPES + '…' : want === 'about:blank' ? 'about:blank' : `${want}…`})`,
            actual: types.slice(0, 6).join(', '),
          },
        ];
  const observed =
    decided === undefined
      ? undefined
      : `${'setting' in decided ? decided.seen : decided.uncovered}${differs ? `; differs from the stand-in's${pinned ? '' : ' (reported: the values are free unless pinned with --pin-problem-types)'}` : ''}`;
  return {
    id: 'problems.types',
    title: pinned
      ? "Problem `type` URIs are the stand-in's (pinned): its URNs, about:blank, or a base URI of its own"
      : 'Problem `type` URIs: reported, and the setting that matches them (free unless pinned)',
    level: 'stand-in',
    source: 'PRODUCT.md: error body; RFC 9457 §3.1.1',
    ...(decided === undefined ? {} : { decided: [decided] }),
    ...(observed === undefined ? {} : { observed }),
    ms: 0,
    outcome: failures.length === 0 ? { kind: 'passed' } : { kind: 'failed', failures },
  };
}

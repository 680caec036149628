/**
 * @module The `type` URIs of the problems a target answered with, against the stand-in's
 * setting: stockmock's URNs, `about:blank`, or a base URI of the service's own followed by the
 * problem's name. Neither the interface nor PRODUCT.md fixes these values (PRODUCT.md: "a real
 * service may use about:blank or its own"), so a difference is reported, with the setting that
 * matches it, and fails only where the user pins the types (`--pin-problem-types`): a team
 * whose clients dispatch on the type URIs may want that, and nobody else is failed for them.
 */
import type { CheckResult, Failure } from '../check.ts';
import { sameSetting, type Decided, type StandIn } from '../stand-in.ts';

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

/** The problem each status answers, by stockmock's names: what a URI per problem is keyed by. */
const PROBLEM_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid-parameters',
  401: 'unauthorized',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  429: 'too-many-requests',
  503: 'service-unavailable',
};

/**
 * The setting the types fit, or what no setting covers. `seen` holds each type with the
 * statuses of the answers that carried it.
 */
export function decideProblemTypes(
  seen: ReadonlyMap<string, ReadonlySet<number>>,
): Decided | undefined {
  const types = [...seen.keys()];
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
  const perProblem = perProblemTypes(seen);
  if (perProblem !== undefined) {
    return {
      setting: 'problemTypes',
      value: perProblem,
      seen: `one problem type per problem: ${described}`,
    };
  }
  return {
    uncovered: `${described}: no base URI followed by the problem's name, nor one absolute URI per problem`,
  };
}

/**
 * One absolute type URI per problem, told apart by the status that carried it: each type came
 * with one status that names a problem, and each such problem with one type.
 */
function perProblemTypes(
  seen: ReadonlyMap<string, ReadonlySet<number>>,
): Readonly<Record<string, string>> | undefined {
  const map: Record<string, string> = {};
  for (const [type, statuses] of seen) {
    const [status, ...others] = statuses;
    const problem = status === undefined ? undefined : PROBLEM_OF_STATUS[status];
    if (others.length > 0 || problem === undefined || !ABSOLUTE.test(type)) return undefined;
    if (map[problem] !== undefined) return undefined;
    map[problem] = type;
  }
  return map;
}

export function problemTypesResult(
  seen: ReadonlyMap<string, ReadonlySet<number>>,
  standIn: StandIn,
  /** Whether a difference fails (`--pin-problem-types`), or is only reported. */
  pinned: boolean,
): CheckResult {
  const types = [...seen.keys()];
  const decided = decideProblemTypes(seen);
  const want = standIn.settings.problemTypes;
  const fits = decided !== undefined && 'setting' in decided && sameSetting(decided.value, want);
  const differs = decided !== undefined && !fits;
  const failures: Failure[] =
    !differs || !pinned
      ? []
      : [
          {
            message: `The problem types differ from the stand-in's (${describeSetting(want)})`,
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

/** The stand-in's problem types, in words. */
function describeSetting(want: StandIn['settings']['problemTypes']): string {
  if (typeof want !== 'string') {
    return Object.entries(want)
      .map(([name, uri]) => `${name}: ${uri}`)
      .join(', ');
  }
  if (want === 'stockmock') return `${STOCKMOCK_TYPES}…`;
  return want === 'about:blank' ? want : `${want}…`;
}

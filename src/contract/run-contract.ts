/** @module Runs every check against a target and gathers the report. */
import { HTTP_METHODS } from '../spec/operation-rules.ts';
import { exampleOperationsOf, writeOperationsOf } from './operations.ts';
import { operationChecks, writeChecks } from './checks/operations.ts';
import { writeEffectsChecks } from './checks/write-effects.ts';
import { declaredMethods, declaredResponseCodes } from './spec-methods.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from '../spec/load-spec.ts';
import {
  createResponseValidator,
  type Finding,
  type ResponseValidator,
} from '../spec/response-validator.ts';
import type { Check, CheckContext, CheckResult, Failure, Level } from './check.ts';
import { accessLevelChecks, crossLevelCheck } from './checks/access-levels.ts';
import { filterChecks } from './checks/filters.ts';
import { generatedInterfaceChecks } from './checks/generated.ts';
import { answerRuleFindings, httpRuleChecks } from './checks/http-rules.ts';
import { credentialPlaces } from './credential-places.ts';
import { negativeChecks } from './checks/negative.ts';
import { paginationChecks } from './checks/pagination.ts';
import { readingChecks } from './checks/reading.ts';
import { singleItemChecks } from './checks/single-item.ts';
import { describeRequest, failureOf } from './describe-exchange.ts';
import { learn, type Learned } from './learn.ts';
import { interfaceSpec, readingOf, readingOfSpec, type Reading } from './reading.ts';
import { problemTypesResult } from './checks/problem-types.ts';
import { standInOf, type Decided, type StandIn, type StandInSettings } from './stand-in.ts';
import { declaredChecks } from './checks/declared.ts';
import { isStandInSurface, readDeclared, servesInterface, type Declared } from './declared.ts';
import { readerName, readersOf } from './learn.ts';
import {
  createTargetClient,
  holderOf,
  levelName,
  TOKEN_LEVELS,
  type Credentials,
  type Exchange,
  type Holder,
  type TargetClient,
  type TokenLevel,
} from './target-client.ts';
import { placeNested } from './nested.ts';
import { resourcesOf } from './resources.ts';
import type { RunLimits } from './run-limits.ts';
import { sized, STOCK, walk, withQuery, type Walk, type WalkOptions } from './walk.ts';

export interface ContractOptions {
  readonly baseUrl: string;
  /** Tokens by level: `status`, `quantity`, or a level that the spec's views declare. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly spec: LoadedSpec;
  /** Which rules fail the run; default `interface` (stand-in differences are reported). */
  readonly level?: Level;
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /**
   * Whether problem `type` values must be the stand-in's (a failure at the stand-in level);
   * by default they are reported only, since the interface leaves them free.
   */
  readonly pinProblemTypes?: boolean;
  /** What the run may cost: deadline, requests, bytes; default DEFAULT_RUN_LIMITS. */
  readonly limits?: RunLimits;
  /** Origins beyond the target's that its links may lead to (`--trust-origin`). */
  readonly trustedOrigins?: readonly string[];
  /**
   * Whether the writes the spec declares are sent, with its examples (`--writes`): they change
   * the target's data, so only for a stand-in or a service whose data may change. Default off.
   */
  readonly writes?: boolean;
  /** At most this many requests a second (`record --suggest-config` paces its check so). */
  readonly rate?: number;
  /** Told the id of each check as it starts, for a progress line. */
  readonly onProgress?: (done: number, total: number, id: string) => void;
}

export interface Report {
  readonly target: string;
  readonly seed: number;
  /** The level the run was judged at. */
  readonly level: Level;
  /** The stand-in the target was compared with: the spec's stated settings, else PRODUCT.md's. */
  readonly standIn: StandInSettings;
  readonly results: readonly CheckResult[];
  readonly passed: number;
  readonly failed: number;
  /** Stand-in checks that failed in a run judged at the interface level. */
  readonly differs: number;
  readonly skipped: number;
  readonly requests: number;
  readonly ms: number;
  /** Why the run stopped before its end (a limit of RunLimits, an answer too large). */
  readonly stopped?: string;
}

/**
 * The target cannot be checked at all: not reachable, not answering HTTP, or refusing a token it
 * was given. A usage problem (exit 2, one line), not a wall of contract failures.
 */
export class TargetUnusable extends Error {
  readonly reason: string;
  constructor(baseUrl: string, reason: string) {
    super(`Cannot check ${baseUrl}: ${reason}.`);
    this.name = 'TargetUnusable';
    this.reason = reason;
  }
}

/**
 * Judges every answer as it comes: by the HTTP rules and the interface's reading of the spec
 * (interface level), and by the spec as given (stand-in level). Answers that come before the
 * target's reading is known wait for it.
 */
function createConformance(spec: LoadedSpec, basePath: string) {
  const asInterface: Failure[] = [];
  const asStandIn: Failure[] = [];
  const unanswered: Failure[] = [];
  /** The `type` of every problem body seen, with the statuses that carried it. */
  const problemTypes = new Map<string, Set<number>>();
  let waiting: Exchange[] | undefined = [];
  let interfaceValidator: ResponseValidator | undefined;
  let standInValidator: ResponseValidator | undefined;

  const errorCodes = declaredResponseCodes(spec);
  // The interface document shows no errors; a team's spec is its own interface, and an
  // operation that declares its errors is held to them.
  const holdsErrors = !servesInterface(spec);
  const errorAnswerFindings = (
    exchange: Extract<Exchange, { kind: 'response' }>,
    path: string,
    validator: ResponseValidator,
  ): string[] => {
    if (!holdsErrors) return [];
    const codes = errorCodes(exchange.method, path);
    if (codes === undefined || !codes.some(isErrorCode)) return [];
    const undeclaredByRule =
      HTTP_RULE_STATUSES.has(exchange.response.status) &&
      !codes.some((code) => code === String(exchange.response.status));
    if (undeclaredByRule) return [];
    // The status, its media type and its body: the headers of an error are HTTP's to rule on
    // (a 401 for an API key has no standard challenge, whatever the spec lists).
    return messages(
      validator,
      exchange,
      path,
      (finding) =>
        finding.path === 'header.content-type' ||
        !(finding.path === 'header' || finding.path.startsWith('header.')),
    );
  };
  const judge = (exchange: Exchange) => {
    if (exchange.kind === 'no-response') {
      unanswered.push(failureOf(exchange, 'No answer'));
      return;
    }
    const path = new URL(exchange.url).pathname.slice(basePath.length) || '/';
    const status = exchange.response.status;
    const type = (exchange.response.body as { type?: unknown } | undefined)?.type;
    if (status >= 400 && typeof type === 'string') {
      problemTypes.set(type, (problemTypes.get(type) ?? new Set()).add(status));
    }
    // The stand-in's own paths are not the interface's: a real service answers them as it
    // likes (or not at all), and they are held to the spec as given at the stand-in level.
    const findings = isStandInSurface(spec, path) ? [] : answerRuleFindings(exchange);
    if (
      status >= 200 &&
      status < 300 &&
      interfaceValidator !== undefined &&
      !isStandInSurface(spec, path)
    ) {
      findings.push(...messages(interfaceValidator, exchange, path));
    }
    if (status >= 400 && status < 500 && interfaceValidator !== undefined) {
      findings.push(...errorAnswerFindings(exchange, path, interfaceValidator));
    }
    for (const finding of findings) asInterface.push(failureOf(exchange, finding));
    if (standInValidator !== undefined) {
      for (const finding of messages(standInValidator, exchange, path))
        asStandIn.push(failureOf(exchange, finding));
    }
  };

  return {
    record(exchange: Exchange) {
      if (waiting === undefined) judge(exchange);
      else waiting.push(exchange);
    },
    /** Judges what waited, and from now on judges each answer at once. */
    async start(reading: Reading): Promise<void> {
      interfaceValidator = await createResponseValidator(await interfaceSpec(spec, reading));
      standInValidator = await createResponseValidator(spec);
      const held = waiting ?? [];
      waiting = undefined;
      held.forEach(judge);
    },
    results(timeoutMs: number, standIn: StandIn, pinProblemTypes: boolean): CheckResult[] {
      return [
        problemTypesResult(problemTypes, standIn, pinProblemTypes),
        gathered(
          {
            id: 'conformance.interface',
            title:
              'Every answer keeps the interface: JSON bodies, success bodies as the spec shapes them (in the target reading), error answers as their operation declares them where it does, RFC 9457 problems, 401 with a Bearer challenge, 405 with Allow, no 5xx',
            level: 'interface',
            source: 'interface: Resources and their fields, List envelope; RFC 9110; RFC 9457 §3',
          },
          asInterface,
          [
            holdsErrors
              ? 'error answers held to the statuses and bodies each operation declares'
              : 'error answers held to RFC 9457 only: the interface declares none',
            ...(problemTypes.size === 0
              ? []
              : [`problem types ${[...problemTypes.keys()].slice(0, 8).join(', ')}`]),
          ].join('; '),
        ),
        gathered(
          {
            id: 'conformance.stand-in',
            title:
              'Every answer matches the spec as given: statuses, content types, headers, bodies (problem types and realm free)',
            level: 'stand-in',
            source: 'the spec under test (PRODUCT.md decisions: error body, statuses)',
          },
          asStandIn,
        ),
        gathered(
          {
            id: 'conformance.target-answers',
            title: `Every request is answered within ${String(timeoutMs)} ms`,
            level: 'interface',
            source: 'the checker: --timeout',
          },
          unanswered,
        ),
      ];
    },
  };
}

/**
 * Statuses HTTP itself gives for a request the checker shapes to provoke them (no token, a
 * method or an Accept the resource lacks, a request too large): an operation that does not list
 * them is not taken to forbid them; where it lists one, its body is held to the declaration.
 */
const HTTP_RULE_STATUSES: ReadonlySet<number> = new Set([401, 403, 405, 406, 413, 414, 431]);

/** A response code of an error: `4XX`, `400`…`599`, `default`. */
function isErrorCode(code: string): boolean {
  return code === 'default' || /^[45]/.test(code);
}

function messages(
  validator: ResponseValidator,
  exchange: Exchange,
  path: string,
  judged: (finding: Finding) => boolean = () => true,
): string[] {
  // The spec describes no OPTIONS: RFC 9110 §9.3.7 and CORS say what it answers, not the spec.
  if (exchange.kind === 'no-response' || exchange.method === 'OPTIONS') return [];
  return validator
    .validate(exchange.method, path, exchange.response)
    .filter(judged)
    .map((finding) => `${finding.path === '' ? '' : `${finding.path}: `}${finding.message}`);
}

/**
 * Learns the target's data, runs every check, and judges every response against the rules of
 * both levels. Checks whose token is missing are skipped with the reason; a run that saw no
 * real data fails.
 */
export async function runContract(options: ContractOptions): Promise<Report> {
  const started = performance.now();
  const level = options.level ?? 'interface';
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  const conformance = createConformance(options.spec, basePath);
  let requests = 0;
  const declaredAt = declaredMethods(options.spec);
  const client = createTargetClient({
    ...options,
    declaredAt,
    placeOf: credentialPlaces(options.spec),
    onExchange: (exchange) => {
      requests += 1;
      conformance.record(exchange);
    },
  });

  const levels = TOKEN_LEVELS.filter((tokenLevel) => Object.hasOwn(options.tokens, tokenLevel));
  const holders = Object.keys(options.tokens).map(holderOf);
  const interfaceServed = servesInterface(options.spec);
  const unplaced = readDeclared(options.spec.dereferenced);
  await refuseUnusable(client, options.baseUrl, {
    levels,
    holders,
    declared: unplaced,
    interfaceServed,
  });

  // A walk asked for twice in a run (a links check and its stand-in twin) is made once.
  const walks = new Map<string, Promise<Walk>>();
  const memoWalk = (path: string, as: Credentials, walkOptions: WalkOptions = {}) => {
    const key = `${readerName(as)} ${String(walkOptions.maxItems)} ${String(walkOptions.maxPages)} ${path}`;
    let walked = walks.get(key);
    if (walked === undefined) {
      walked = walk(client, path, as, walkOptions);
      walks.set(key, walked);
    }
    return walked;
  };

  const declared = await placeNested(unplaced, memoWalk, holders);
  const primary: TokenLevel = levels.includes('quantity') ? 'quantity' : 'status';
  const learned = await learn(
    memoWalk,
    levels,
    primary,
    { spec: declared, holders },
    interfaceServed,
  );
  const standIn = standInOf(options.spec);
  const operations = exampleOperationsOf(options.spec.dereferenced);
  const asGiven = await createResponseValidator(options.spec);
  const reading = readingOf(learned.tally, readingOfSpec(options.spec));
  await conformance.start(reading);
  const context: CheckContext = {
    client,
    walk: memoWalk,
    levels,
    holders,
    declared,
    primary,
    learned,
    resources: resourcesOf(learned, declared, {
      interfaceServed,
      levels,
      primary,
      holders,
      operations,
    }),
    reading,
    standIn,
    declaredAt,
    seed: options.seed,
    runs: options.runs,
  };

  const interfaceChecks: Check[] = [
    // First of all, while its URLs have not been asked yet.
    crossLevelCheck,
    ...readingChecks,
    ...paginationChecks,
    ...filterChecks,
    ...singleItemChecks(options.spec.dereferenced),
    ...accessLevelChecks,
    ...negativeChecks,
    ...generatedInterfaceChecks(options.spec.dereferenced),
  ];
  const checks: Check[] = [
    realDataCheck(interfaceServed, anySecured(options.spec.dereferenced)),
    // Without the interface's routes its checks do not apply: one line says so, not sixty.
    ...(interfaceServed ? interfaceChecks : []),
    // The rules of every answer, on whatever the spec serves.
    ...httpRuleChecks,
    ...declaredChecks(declared, interfaceServed),
    ...operationChecks(operations, () => asGiven),
    ...(options.writes === true
      ? [
          ...writeChecks(
            writeOperationsOf(options.spec.dereferenced, declaredTemplates(declared)),
            () => asGiven,
          ),
          ...writeEffectsChecks(options.spec.dereferenced, declared.lists, declared.items),
        ]
      : []),
  ];
  const results: CheckResult[] = [];
  const total = checks.length + 1;
  for (const [index, check] of checks.entries()) {
    options.onProgress?.(index, total, check.id);
    const stopped = client.stopped();
    results.push(
      stopped === undefined
        ? await runCheck(check, context)
        : { ...headOf(check), ms: 0, outcome: { kind: 'skipped', reason: 'the run stopped' } },
    );
  }
  // Conformance last: it judges every response the other checks received.
  results.push(
    ...conformance.results(options.timeoutMs, standIn, options.pinProblemTypes === true),
  );
  const stopped = client.stopped();
  if (stopped !== undefined) results.push(stoppedResult(stopped));
  options.onProgress?.(total, total, 'done');

  return judgeAt(
    {
      target: options.baseUrl,
      seed: options.seed,
      level,
      standIn: standIn.settings,
      results,
      passed: 0,
      failed: 0,
      differs: 0,
      skipped: 0,
      requests,
      ms: Math.round(performance.now() - started),
      ...(stopped === undefined ? {} : { stopped }),
    },
    level,
  );
}

/** A run cut short fails: what it did not check, it cannot vouch for. */
function stoppedResult(reason: string): CheckResult {
  return gathered(
    {
      id: 'contract.finished',
      title: 'The run checked the target whole, within its limits',
      level: 'interface',
      source: 'the checker: --deadline, --max-requests, --max-bytes, --timeout',
    },
    [{ message: `The run stopped before its end: ${reason}` }],
  );
}

function headOf(check: Check): Pick<CheckResult, 'id' | 'title' | 'level' | 'source'> {
  return { id: check.id, title: check.title, level: check.level, source: check.source };
}

interface Usable {
  readonly levels: readonly TokenLevel[];
  readonly holders: readonly Holder[];
  readonly declared: Declared;
  readonly interfaceServed: boolean;
}

/**
 * Makes sure the target can be checked before any check runs: it answers HTTP, and takes every
 * token it was given (on the stock list, or on a declared list that its level has a view of).
 * Otherwise every check would fail for the same reason, and hide it.
 */
async function refuseUnusable(
  client: TargetClient,
  baseUrl: string,
  { levels, holders, declared, interfaceServed }: Usable,
): Promise<void> {
  // Nested lists are not placed yet: their paths still name their parents' parameters.
  const whole = declared.lists.filter((list) => list.parents.length === 0);
  const firstList = interfaceServed ? STOCK.path : whole[0]?.collection.path;
  const probe = await client.request({ path: firstList ?? '/', as: 'none' });
  if (probe.kind === 'no-response') {
    throw new TargetUnusable(baseUrl, probe.reason.replace(/^connection failed \((.*)\)$/, '$1'));
  }
  const refused: string[] = [];
  const tried = new Set<string>();
  const trial = async (path: string, as: Holder, query: Readonly<Record<string, number>>) => {
    tried.add(levelName(as));
    const answer = await client.request({ path: withQuery(path, query), as });
    if (answer.kind === 'no-response') throw new TargetUnusable(baseUrl, answer.reason);
    const { status } = answer.response;
    if (status === 401 || status === 403) {
      refused.push(`the ${levelName(as)} token (${String(status)}) on GET ${path}`);
    }
  };
  if (interfaceServed) for (const level of levels) await trial(STOCK.path, level, sized(STOCK, 1));
  for (const holder of holders) {
    if (tried.has(levelName(holder))) continue;
    const list = whole.find((candidate) => readersOf(candidate, [holder]).includes(holder));
    if (list !== undefined) {
      await trial(list.collection.path, holder, sized(list.collection, 1));
    }
  }
  if (refused.length > 0) {
    throw new TargetUnusable(baseUrl, `it refuses ${refused.join(' and ')}`);
  }
}

/**
 * The report judged at `level`: at the interface level a failed stand-in check only differs; at
 * the stand-in level it fails. One run serves both judgements.
 */
export function judgeAt(report: Report, level: Level): Report {
  const results = report.results.map((result): CheckResult => {
    const { outcome } = result;
    if (outcome.kind !== 'failed' && outcome.kind !== 'differs') return result;
    const kind = level === 'interface' && result.level === 'stand-in' ? 'differs' : 'failed';
    return { ...result, outcome: { kind, failures: outcome.failures } };
  });
  const count = (kind: string) => results.filter((result) => result.outcome.kind === kind).length;
  return {
    ...report,
    level,
    results,
    passed: count('passed'),
    failed: count('failed'),
    differs: count('differs'),
    skipped: count('skipped'),
  };
}

async function runCheck(check: Check, context: CheckContext): Promise<CheckResult> {
  const missing = check.needs.filter((level) => !context.levels.includes(level));
  const base = headOf(check);
  if (missing.length > 0) {
    const flags = missing.map((level) => `--token ${level}=TOKEN`).join(' ');
    return {
      ...base,
      ms: 0,
      outcome: { kind: 'skipped', reason: `needs a ${missing.join(' and a ')} token (${flags})` },
    };
  }
  const started = performance.now();
  let failures: readonly Failure[];
  let observed: string | undefined;
  let decided: readonly Decided[] | undefined;
  try {
    const findings = await check.run(context);
    if (findings.skipped !== undefined) {
      return { ...base, ms: 0, outcome: { kind: 'skipped', reason: findings.skipped } };
    }
    failures = findings.failures;
    observed = findings.observed;
    decided = findings.decided;
  } catch (error) {
    failures = [
      {
        message: `The check could not finish: ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
  }
  const ms = Math.round(performance.now() - started);
  return {
    ...base,
    ...(observed === undefined ? {} : { observed }),
    ...(decided === undefined ? {} : { decided }),
    ms,
    outcome: failures.length === 0 ? { kind: 'passed' } : { kind: 'failed', failures },
  };
}

function gathered(
  check: Pick<CheckResult, 'id' | 'title' | 'level' | 'source'>,
  failures: readonly Failure[],
  observed?: string,
): CheckResult {
  return {
    ...check,
    ...(observed === undefined ? {} : { observed }),
    ms: 0,
    outcome: failures.length === 0 ? { kind: 'passed' } : { kind: 'failed', failures },
  };
}

/** Whether any operation of the spec asks for credentials (its own `security`, or the spec's). */
function anySecured(document: OpenAPIV3_1.Document): boolean {
  return Object.values(document.paths ?? {}).some((item) =>
    HTTP_METHODS.some((method) => {
      const operation = item?.[method];
      if (operation === undefined) return false;
      const security = operation.security ?? document.security ?? [];
      return security.length > 0 && security.every((one) => Object.keys(one).length > 0);
    }),
  );
}

/**
 * No vacuous passes: every filter and lookup is only as good as the data learned first. A run
 * whose tokens are refused, or whose lists are empty, fails here and says why.
 */
function realDataCheck(interfaceServed: boolean, needsTokens: boolean): Check {
  return {
    id: 'contract.saw-real-data',
    title: 'The unfiltered lists gave real items to check the rest with',
    level: 'interface',
    source: 'the checker: no vacuous passes',
    needs: [],
    async run({ learned, levels, holders, client }) {
      const failures: Failure[] = [...learned.failures];
      // A spec that secures nothing is checked without tokens.
      if (holders.length === 0 && needsTokens) {
        failures.push({
          message:
            'No token was given: every check would only see 401s. Pass --token status=… or --token quantity=….',
        });
      }
      const lists = [...learned.declared.values()];
      if (
        !interfaceServed &&
        lists.length > 0 &&
        lists.every((list) => list.holder === undefined)
      ) {
        failures.push({
          message:
            'No list the spec serves could be read with the tokens given: every check would be skipped',
          expected: 'a token of a level some declared view names (--token LEVEL=TOKEN)',
        });
      }
      for (const [path, list] of learned.declared) {
        for (const [level, items] of list.byLevel) {
          if (items.length > 0) continue;
          failures.push({
            message: `The ${level} token saw no items of ${path}, so no check of it would see real data`,
            expected: 'at least one item (is the token right? is the list empty?)',
          });
        }
      }
      if (!interfaceServed) {
        return {
          failures,
          observed: `the spec declares no GET ${STOCK.path}: the interface's own checks do not apply, its declared resources are checked`,
        };
      }
      for (const level of levels) {
        if ((learned.stock.get(level) ?? []).length === 0) {
          failures.push({
            message: `The ${level} token saw no stock items, so no check would see real data`,
            request: describeRequest({
              method: 'GET',
              url: client.prepare({ path: '/v1/stock?limit=100', as: level }).url,
              as: level,
            }),
            expected: 'at least one item (is the token right? is the catalogue empty?)',
          });
        }
      }
      if (learned.products.length === 0 && levels.length > 0) {
        failures.push({
          message: 'The product list is empty, so names could not be learned for the name filter',
        });
      }
      return { failures };
    },
  };
}

export type { Learned };

/** The paths of the lists and items the spec serves from data: their writes change that data. */
function declaredTemplates(declared: Declared): ReadonlySet<string> {
  return new Set([
    ...declared.lists.map((list) => list.collection.name),
    ...declared.items.map((item) => item.template),
  ]);
}

/** @module Runs every check against a target and gathers the report. */
import { ACCESS_LEVELS, type AccessLevel } from '../access/access-level.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { createResponseValidator } from '../spec/response-validator.ts';
import type { Check, CheckContext, CheckResult, Failure } from './check.ts';
import { accessLevelChecks } from './checks/access-levels.ts';
import { filterChecks } from './checks/filters.ts';
import { generatedCheck } from './checks/generated.ts';
import { negativeChecks } from './checks/negative.ts';
import { paginationChecks } from './checks/pagination.ts';
import { singleItemChecks } from './checks/single-item.ts';
import { describeRequest, failureOf } from './describe-exchange.ts';
import { variantOf } from './interface-variant.ts';
import { learn, type Learned } from './learn.ts';
import { createTargetClient, type Exchange } from './target-client.ts';

export interface ContractOptions {
  readonly baseUrl: string;
  readonly tokens: Partial<Record<AccessLevel, string>>;
  readonly spec: LoadedSpec;
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Told the id of each check as it starts, for a progress line. */
  readonly onProgress?: (done: number, total: number, id: string) => void;
}

export interface Report {
  readonly target: string;
  readonly seed: number;
  readonly results: readonly CheckResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly requests: number;
  readonly ms: number;
}

/** The target could not be reached at all: a usage problem (exit 2), not a contract failure. */
export class TargetUnreachable extends Error {
  constructor(baseUrl: string, reason: string) {
    super(`Cannot reach ${baseUrl}: ${reason}. Is the server running, and is the URL right?`);
    this.name = 'TargetUnreachable';
  }
}

/**
 * Learns the target's data, runs every check, and judges every response against the spec.
 * Checks whose token is missing are skipped with the reason; a run that saw no real data fails.
 */
export async function runContract(options: ContractOptions): Promise<Report> {
  const started = performance.now();
  const validator = await createResponseValidator(options.spec);
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  const nonConforming: Failure[] = [];
  const unanswered: Failure[] = [];
  let requests = 0;
  const onExchange = (exchange: Exchange): void => {
    requests += 1;
    if (exchange.kind === 'no-response') {
      unanswered.push(failureOf(exchange, 'No answer'));
      return;
    }
    const path = new URL(exchange.url).pathname.slice(basePath.length) || '/';
    for (const finding of validator.validate(exchange.method, path, exchange.response)) {
      nonConforming.push(
        failureOf(exchange, `${finding.path === '' ? '' : `${finding.path}: `}${finding.message}`),
      );
    }
  };
  const client = createTargetClient({ ...options, onExchange });

  const probe = await client.request({ path: '/v1/stock', as: 'none' });
  if (probe.kind === 'no-response' && /connection failed/.test(probe.reason)) {
    throw new TargetUnreachable(options.baseUrl, probe.reason);
  }

  const levels = ACCESS_LEVELS.filter((level) => options.tokens[level] !== undefined);
  const primary: AccessLevel = levels.includes('quantity') ? 'quantity' : 'status';
  const learned = await learn(client, levels, primary);
  const context: CheckContext = {
    client,
    levels,
    primary,
    learned,
    seed: options.seed,
    runs: options.runs,
    variant: variantOf(options.spec),
  };

  const checks: Check[] = [
    realDataCheck(),
    ...paginationChecks,
    ...filterChecks,
    ...singleItemChecks,
    ...accessLevelChecks,
    ...negativeChecks,
    generatedCheck(options.spec, validator),
  ];
  const results: CheckResult[] = [];
  const total = checks.length + 2;
  for (const [index, check] of checks.entries()) {
    options.onProgress?.(index, total, check.id);
    results.push(await runCheck(check, context));
  }
  // Conformance last: it judges every response the other checks received.
  results.push(
    gathered(
      'conformance.responses-match-spec',
      'Every response matches the spec: status, content type, headers, body',
      nonConforming,
    ),
    gathered(
      'conformance.target-answers',
      `Every request is answered within ${String(options.timeoutMs)} ms`,
      unanswered,
    ),
  );
  options.onProgress?.(total, total, 'done');

  const count = (kind: string) => results.filter((result) => result.outcome.kind === kind).length;
  return {
    target: options.baseUrl,
    seed: options.seed,
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    requests,
    ms: Math.round(performance.now() - started),
  };
}

async function runCheck(check: Check, context: CheckContext): Promise<CheckResult> {
  const missing = check.needs.filter((level) => !context.levels.includes(level));
  const base = { id: check.id, title: check.title };
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
  try {
    failures = await check.run(context);
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
    ms,
    outcome: failures.length === 0 ? { kind: 'passed' } : { kind: 'failed', failures },
  };
}

function gathered(id: string, title: string, failures: readonly Failure[]): CheckResult {
  return {
    id,
    title,
    ms: 0,
    outcome: failures.length === 0 ? { kind: 'passed' } : { kind: 'failed', failures },
  };
}

/**
 * No vacuous passes: every filter and lookup is only as good as the data learned first. A run
 * whose tokens are refused, or whose lists are empty, fails here and says why.
 */
function realDataCheck(): Check {
  return {
    id: 'contract.saw-real-data',
    title: 'The unfiltered lists gave real items to check the rest with',
    needs: [],
    async run({ learned, levels }) {
      const failures: Failure[] = [...learned.failures];
      if (levels.length === 0) {
        failures.push({
          message:
            'No token was given: every check would only see 401s. Pass --token status=… or --token quantity=….',
        });
      }
      for (const level of levels) {
        if ((learned.stock.get(level) ?? []).length === 0) {
          failures.push({
            message: `The ${level} token saw no stock items, so no check would see real data`,
            request: describeRequest({ method: 'GET', url: '/v1/stock?limit=100', as: level }),
            expected: 'at least one item (is the token right? is the catalogue empty?)',
          });
        }
      }
      if (learned.products.length === 0 && levels.length > 0) {
        failures.push({
          message: 'The product list is empty, so names could not be learned for the name filter',
        });
      }
      return failures;
    },
  };
}

export type { Learned };

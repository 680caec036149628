/** @module The shape every contract check shares, and what a check reports. */
import type { AccessLevel } from '../access/access-level.ts';
import type { InterfaceVariant } from './interface-variant.ts';
import type { Learned } from './learn.ts';
import type { TargetClient } from './target-client.ts';

/** One deviation: what was asked, what the rules expect, and what came back. */
export interface Failure {
  readonly message: string;
  /** `GET http://…/v1/stock?limit=5 (status token)`: enough to replay it with curl. */
  readonly request?: string;
  readonly expected?: string;
  readonly actual?: string;
}

export interface CheckContext {
  readonly client: TargetClient;
  /** The levels a token was given for. */
  readonly levels: readonly AccessLevel[];
  /** The level used where any will do: quantity when given, else status. */
  readonly primary: AccessLevel;
  /** What the unfiltered walks taught: real ids, names and items. */
  readonly learned: Learned;
  readonly seed: number;
  readonly runs: number;
  /** How the spec under test names the absolute level and types product_id. */
  readonly variant: InterfaceVariant;
}

export interface Check {
  /** Dotted and stable: tests and JUnit refer to it. */
  readonly id: string;
  readonly title: string;
  /** Levels that must have a token; the check is skipped, with the reason, without them. */
  readonly needs: readonly AccessLevel[];
  run(context: CheckContext): Promise<readonly Failure[]>;
}

export type CheckOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly failures: readonly Failure[] }
  | { readonly kind: 'skipped'; readonly reason: string };

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly outcome: CheckOutcome;
  readonly ms: number;
}
